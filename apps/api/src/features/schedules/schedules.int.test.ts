import { chairRecord, scheduleExceptionRecord } from '@odontia/shared/routes/schedules';
import { treatmentRecord } from '@odontia/shared/routes/treatments';
import type { SchedulesResponse } from '@odontia/shared/schemas/schedules';
import { describe, expect, it } from 'vitest';
import { declaredRecord, describeRecordContract } from '../../../test/record-contract.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** Opening hours, professionals' weeks, exceptions, treatments, chairs and reminder settings (issue 16). */
describe.each(availableBackends())('schedules on %s', (backend) => {
  const t = useTestClinic(backend);
  const weekday = (day: string, overrides: Record<string, unknown> = {}) => ({
    weekday: day,
    opening: '09:00',
    closing: '20:00',
    recessStart: '14:00',
    recessEnd: '15:00',
    ...overrides,
  });

  describeRecordContract(t, {
    ...declaredRecord(scheduleExceptionRecord),
    table: 'schedule_exceptions',
    body: () => ({
      kind: 'holiday',
      startsAt: '2026-12-25T03:00:00.000Z',
      endsAt: '2026-12-26T03:00:00.000Z',
      allDay: true,
      reason: 'Navidad',
    }),
    update: {
      body: () => ({
        kind: 'holiday',
        startsAt: '2026-12-25T03:00:00.000Z',
        endsAt: '2026-12-27T03:00:00.000Z',
        allDay: true,
        reason: 'Navidad y San Esteban',
      }),
    },
    history: { before: { reason: 'Navidad' }, after: { reason: 'Navidad y San Esteban' } },
    softDelete: { auditBefore: { reason: 'Navidad' } },
    permissions: { read: 'patients.read', write: 'appointments.write' },
  });

  let treatmentCodes = 0;
  describeRecordContract(t, {
    ...declaredRecord(treatmentRecord),
    table: 'treatments',
    // A treatment's code is unique in its clinic (issue 18): each record the contract makes has its own.
    body: () => ({ name: 'Limpieza', code: `LIM-${++treatmentCodes}`, durationMinutes: 45, color: '#0EA5E9' }),
    update: {
      body: () => ({ name: 'Limpieza con ultrasonido', code: null, durationMinutes: 60, color: '#0ea5e9' }),
    },
    history: { before: { durationMinutes: 45 }, after: { durationMinutes: 60 } },
    softDelete: { auditBefore: { name: 'Limpieza' } },
    permissions: { read: 'patients.read', write: 'settings.manage' },
  });

  describeRecordContract(t, {
    ...declaredRecord(chairRecord),
    table: 'chairs',
    body: () => ({ name: 'Sillón 1', sortOrder: 1 }),
    update: { body: () => ({ name: 'Sillón A', sortOrder: 1 }) },
    history: { before: { name: 'Sillón 1' }, after: { name: 'Sillón A' } },
    softDelete: { auditBefore: { name: 'Sillón 1' } },
    permissions: { read: 'patients.read', write: 'settings.manage' },
  });

  it("saves the clinic's week whole, with its version, audited; a stale version is 409 with the current week", async () => {
    const empty = await t.call('GET', '/api/schedules');
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json<SchedulesResponse>().clinic).toMatchObject({ id: null, ranges: [], version: 0 });
    expect(empty.json<SchedulesResponse>().professionals).toEqual(
      expect.arrayContaining([expect.objectContaining({ professionalId: t.clinic.userId, version: 0, ranges: [] })]),
    );
    const ranges = [
      weekday('tuesday'),
      weekday('monday'),
      weekday('saturday', { closing: '13:00', recessStart: '', recessEnd: null }),
    ];
    const saved = await t.call('PUT', '/api/schedules/clinic', { body: { ranges, version: 0 } });
    expectAnswer(saved, 200, { code: 'entity_schedule_updated', data: { professionalId: null, version: 1 } });
    expect(saved.json().data.ranges.map((range: { weekday: string }) => range.weekday)).toEqual([
      'monday',
      'tuesday',
      'saturday',
    ]);
    expect(saved.json().data.ranges[2]).toEqual({
      weekday: 'saturday',
      opening: '09:00',
      closing: '13:00',
      recessStart: null,
      recessEnd: null,
    });
    const again = await t.call('PUT', '/api/schedules/clinic', { body: { ranges: [weekday('monday')], version: 0 } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'version_conflict', details: { current: { version: 1 } } });
    const second = await t.call('PUT', '/api/schedules/clinic', {
      body: {
        ranges: [
          weekday('monday'),
          weekday('monday', { opening: '21:00', closing: '22:00', recessStart: null, recessEnd: null }),
        ],
        version: 1,
      },
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data).toMatchObject({ version: 2 });
    expect(second.json().data.ranges).toHaveLength(2);
    const events = await t.auditEvents('schedule_updated');
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({ entity: 'schedule' });
    const last = events[1] as unknown as { before: { ranges: unknown[] }; after: { ranges: unknown[] } };
    expect(last.before.ranges).toHaveLength(3);
    expect(last.after.ranges).toHaveLength(2);
    // Another clinic sees its own (empty) week.
    const theirs = await t.call('GET', '/api/schedules', { token: t.other.token });
    expect(theirs.json<SchedulesResponse>().clinic.version).toBe(0);
  });

  it('refuses invalid weeks with field codes, never 500', async () => {
    const cases: [unknown[], { path: string; code: string }][] = [
      [[weekday('monday', { closing: '08:00' })], { path: 'ranges.0.closing', code: 'closing_before_opening' }],
      [[weekday('monday', { recessStart: '08:00' })], { path: 'ranges.0.recessStart', code: 'recess_outside_range' }],
      [
        [weekday('monday', { recessStart: '19:00', recessEnd: '21:00' })],
        { path: 'ranges.0.recessStart', code: 'recess_outside_range' },
      ],
      [[weekday('monday', { recessEnd: null })], { path: 'ranges.0.recessEnd', code: 'required' }],
      [[weekday('monday', { opening: '25:00' })], { path: 'ranges.0.opening', code: 'invalid_time' }],
      [[weekday('monday', { opening: '9:00' })], { path: 'ranges.0.opening', code: 'invalid_time' }],
      [
        [weekday('monday', { opening: "<script>alert('x')</script>" })],
        { path: 'ranges.0.opening', code: 'invalid_time' },
      ],
      [
        [
          weekday('monday'),
          weekday('monday', { opening: '19:00', closing: '21:00', recessStart: null, recessEnd: null }),
        ],
        { path: 'ranges.1.opening', code: 'ranges_overlap' },
      ],
      [[weekday('funday')], { path: 'ranges.0.weekday', code: 'invalid_value' }],
    ];
    for (const [ranges, field] of cases) {
      const response = await t.call('PUT', '/api/schedules/clinic', { body: { ranges, version: 99 } });
      expect(response.statusCode, JSON.stringify(ranges)).toBe(400);
      expect(response.json().details.fields).toEqual(expect.arrayContaining([field]));
    }
    const hostile = await t.call('PUT', '/api/schedules/clinic', { body: { ranges: 'DROP TABLE', version: -1 } });
    expect(hostile.statusCode).toBe(400);
    const nulBytes = await t.call('PUT', '/api/schedules/clinic', {
      body: { ranges: [weekday('monday', { closing: '20:00\u0000' })], version: 0 },
    });
    expect(nulBytes.statusCode).toBe(400);
  });

  it("saves a professional's week; another clinic's professional is 404 user_not_found; an empty week follows the clinic's", async () => {
    const url = `/api/schedules/professionals/${t.clinic.userId}`;
    const saved = await t.call('PUT', url, { body: { ranges: [weekday('wednesday')], version: 0 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ professionalId: t.clinic.userId, version: 1 });
    expect(saved.json().data.professionalName).toBeTruthy();
    const listed = await t.call('GET', '/api/schedules');
    const mine = listed.json<SchedulesResponse>().professionals.find((row) => row.professionalId === t.clinic.userId);
    expect(mine).toMatchObject({ version: 1, ranges: [{ weekday: 'wednesday' }] });
    const cleared = await t.call('PUT', url, { body: { ranges: [], version: 1 } });
    expect(cleared.json().data).toMatchObject({ ranges: [], version: 2 });
    const foreign = await t.call('PUT', `/api/schedules/professionals/${t.other.userId}`, {
      body: { ranges: [], version: 0 },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('user_not_found');
    const badId = await t.call('PUT', '/api/schedules/professionals/nope', { body: { ranges: [], version: 0 } });
    expect(badId.statusCode).toBe(400);
  });

  it('lists exceptions by range and professional; a vacation names its professional; refuses end before start', async () => {
    const vacation = await t.call('POST', '/api/schedule-exceptions', {
      body: {
        professionalId: t.clinic.userId,
        kind: 'vacation',
        startsAt: '2027-01-10T03:00:00.000Z',
        endsAt: '2027-01-20T03:00:00.000Z',
        allDay: true,
        reason: 'Vacaciones',
      },
    });
    expectAnswer(vacation, 201, { code: 'schedule_exception_created', data: { kind: 'vacation' } });
    expect(vacation.json().data.professionalName).toBeTruthy();
    const inRange = await t.call(
      'GET',
      `/api/schedule-exceptions?from=2027-01-15T00:00:00.000Z&to=2027-01-16T00:00:00.000Z&professionalId=${t.clinic.userId}`,
    );
    expect(inRange.json().data.map((row: { id: string }) => row.id)).toContain(vacation.json().data.id);
    const outside = await t.call(
      'GET',
      '/api/schedule-exceptions?from=2027-02-01T00:00:00.000Z&to=2027-03-01T00:00:00.000Z',
    );
    expect(outside.json().data.map((row: { id: string }) => row.id)).not.toContain(vacation.json().data.id);
    const backwards = await t.call('POST', '/api/schedule-exceptions', {
      body: { kind: 'block', startsAt: '2027-01-10T12:00:00.000Z', endsAt: '2027-01-10T11:00:00.000Z' },
    });
    expect(backwards.json().details.fields).toEqual([{ path: 'endsAt', code: 'end_before_start' }]);
    const foreign = await t.call('POST', '/api/schedule-exceptions', {
      body: {
        professionalId: t.other.userId,
        kind: 'block',
        startsAt: '2027-01-10T12:00:00.000Z',
        endsAt: '2027-01-10T13:00:00.000Z',
      },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details.fields).toEqual([{ path: 'professionalId', code: 'invalid_value' }]);
  });

  it('searches treatments by name or code and filters active ones; chairs come by order then name', async () => {
    for (const body of [
      { name: 'Endodoncia', code: 'ENDO', durationMinutes: 90 },
      { name: 'Implante', code: 'IMP', durationMinutes: 120, active: false },
    ]) {
      expect((await t.call('POST', '/api/treatments', { body })).statusCode).toBe(201);
    }
    const byCode = await t.call('GET', '/api/treatments?q=endo');
    expect(byCode.json().data.map((row: { name: string }) => row.name)).toEqual(['Endodoncia']);
    const active = await t.call('GET', '/api/treatments?active=true&pageSize=100');
    expect(active.json().data.some((row: { name: string }) => row.name === 'Implante')).toBe(false);
    const badColor = await t.call('POST', '/api/treatments', {
      body: { name: 'X', durationMinutes: 30, color: 'red' },
    });
    expect(badColor.json().details.fields).toEqual([{ path: 'color', code: 'invalid_format' }]);
    const tooShort = await t.call('POST', '/api/treatments', { body: { name: 'X', durationMinutes: 2 } });
    expect(tooShort.statusCode).toBe(400);
    const clinic = await t.newClinic();
    for (const body of [
      { name: 'Box B', sortOrder: 2 },
      { name: 'Box A', sortOrder: 2 },
      { name: 'Box Z', sortOrder: 1 },
    ])
      await t.call('POST', '/api/chairs', { body, token: clinic.token });
    const chairs = await t.call('GET', '/api/chairs', { token: clinic.token });
    expect(chairs.json().data.map((row: { name: string }) => row.name)).toEqual(['Box Z', 'Box A', 'Box B']);
  });

  it('reads and saves the reminder settings (settings.manage), audited', async () => {
    const read = await t.call('GET', '/api/schedules/reminders');
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data).toMatchObject({ remindersEnabled: true, reminderLeadMinutes: 1440 });
    const body = {
      remindersEnabled: false,
      reminderLeadMinutes: 2880,
      address: 'Av. Corrientes 1234, CABA',
      phone: '+54 11 4444-5555',
    };
    const saved = await t.call('PUT', '/api/schedules/reminders', { body });
    // A new lead (or on/off) applies to appointments booked or moved from now on: the answer says so.
    // The recalls' e-mail days (issue 38), left out of the body, stay as they were (off).
    const answer = { ...body, recallMessageDays: 0 };
    expect(saved.json()).toEqual({ code: 'reminders_apply_to_new_bookings', data: answer });
    expect((await t.call('GET', '/api/schedules/reminders')).json().data).toEqual(answer);
    expect(await t.auditEvents('reminder_settings_updated')).toHaveLength(1);
    const samePlan = await t.call('PUT', '/api/schedules/reminders', { body: { ...body, phone: '+54 11 4444-6666' } });
    expect(samePlan.json()).toMatchObject({ code: 'reminder_settings_updated' });
    const tooSoon = await t.call('PUT', '/api/schedules/reminders', { body: { ...body, reminderLeadMinutes: 10 } });
    expect(tooSoon.statusCode).toBe(400);
    expect((await t.call('GET', '/api/schedules/reminders', { token: t.other.token })).json().data.address).toBeNull();
  });

  it('lets each level do what the permissions say', async () => {
    await t.asLevel('supervisor', async () => {
      expect((await t.call('GET', '/api/schedules')).statusCode).toBe(200);
      expect((await t.call('GET', '/api/schedules/reminders')).statusCode).toBe(200);
      expect((await t.call('PUT', '/api/schedules/clinic', { body: { ranges: [], version: 0 } })).statusCode).toBe(403);
      expect(
        (await t.call('PUT', `/api/schedules/professionals/${t.clinic.userId}`, { body: { ranges: [], version: 0 } }))
          .statusCode,
      ).toBe(403);
      expect(
        (await t.call('PUT', '/api/schedules/reminders', { body: { remindersEnabled: true, reminderLeadMinutes: 60 } }))
          .statusCode,
      ).toBe(403);
      const block = await t.call('POST', '/api/schedule-exceptions', {
        body: { kind: 'block', startsAt: '2027-03-01T12:00:00.000Z', endsAt: '2027-03-01T13:00:00.000Z' },
      });
      expect(block.statusCode).toBe(201);
    });
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/schedules')).statusCode).toBe(403);
      expect((await t.call('GET', '/api/schedules/reminders')).statusCode).toBe(403);
    });
  });
});
