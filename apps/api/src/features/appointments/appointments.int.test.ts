import { instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { permissionMatrix } from '@odontia/shared/permissions';
import { calendarAppointmentSchema } from '@odontia/shared/schemas/appointments';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/** The appointments API (issue 16) in a Madrid clinic open Mon–Fri 09:00–20:00 with lunch 14:00–15:00. */

const zone = 'Europe/Madrid';
const at = (wall: string) => (instantOfClinicWallTime(wall, zone) as Date).toISOString();
const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const openingHours = weekdays.map((weekday) => ({
  weekday,
  opening: '09:00',
  closing: '20:00',
  recessStart: '14:00',
  recessEnd: '15:00',
}));

describe.each(availableBackends())('appointments on %s', (backend) => {
  const t = useTestClinic(backend, { patient: { email: 'lucia@correo.test' } });
  // The kept day figures (migration 0020) after every scenario.
  afterEach(async () => {
    expect(await dayFigureMismatches(t)).toEqual([]);
  });
  let second: string; // another professional
  let chair: string;
  let otherChair: string;
  let treatment: string;

  async function addUser(accountId: string, completeName: string, level = 'user') {
    const id = newId();
    // A membership needs its person's sign-in (issue 19).
    await t.db.orm.execute(sql`insert into logins (id, email) values (${id}, ${`${id}@correo.test`})`);
    await t.db.orm.execute(sql`
      insert into users (account_id, id, login_id, complete_name, email, level, system_language, date_format,
        system_currency, active)
      values (${accountId}, ${id}, ${id}, ${completeName}, ${`${id}@correo.test`}, ${level}, 'es', 'DD/MM/YYYY', 'euro', true)`);
    return id;
  }
  async function addRow(table: 'chairs' | 'treatments', accountId: string, name: string) {
    const id = newId();
    if (table === 'chairs')
      await t.db.orm.execute(sql`insert into chairs (account_id, id, name) values (${accountId}, ${id}, ${name})`);
    else
      await t.db.orm.execute(
        sql`insert into treatments (account_id, id, name, duration_minutes, color) values (${accountId}, ${id}, ${name}, 30, '#0ea5e9')`,
      );
    return id;
  }
  async function setWeek(accountId: string, professionalId: string | null, ranges: unknown[]) {
    await t.db.orm.execute(
      sql`delete from schedules where account_id = ${accountId} and professional_id is not distinct from ${professionalId}`,
    );
    await t.db.orm.execute(sql`insert into schedules (account_id, id, professional_id, ranges)
      values (${accountId}, ${newId()}, ${professionalId}, ${JSON.stringify(ranges)}::jsonb)`);
  }

  beforeAll(async () => {
    await t.db.orm.execute(sql`update accounts set time_zone = ${zone} where id = ${t.clinic.accountId}`);
    // As the settings service does on a new zone: the kept day figures move to its days (the test
    // patient was created in the sign-up's zone; between midnight UTC and Buenos Aires' they differ).
    await t.db.orm.execute(sql`select odontia_rebuild_day_figures(${t.clinic.accountId}::uuid)`);
    second = await addUser(t.clinic.accountId, 'Bruno Alvarado');
    chair = await addRow('chairs', t.clinic.accountId, 'Sillón 1');
    otherChair = await addRow('chairs', t.clinic.accountId, 'Sillón 2');
    treatment = await addRow('treatments', t.clinic.accountId, 'Revisión');
    await setWeek(t.clinic.accountId, null, openingHours);
  });

  let day = 0;
  /** A fresh working day (2030-01-07 is a Monday) so bookings of different tests never meet. */
  function nextDay(): string {
    const date = new Date(Date.UTC(2030, 0, 7));
    date.setUTCDate(date.getUTCDate() + Math.floor(day / 5) * 7 + (day % 5));
    day += 1;
    return date.toISOString().slice(0, 10);
  }
  const body = (d: string, from = '10:00', to = '10:30', extra: Record<string, unknown> = {}) => ({
    patientId: t.patientId,
    professionalId: t.clinic.userId,
    startsAt: at(`${d}T${from}`),
    endsAt: at(`${d}T${to}`),
    reason: 'Revisión',
    ...extra,
  });
  async function book(b: Record<string, unknown>) {
    return t.created('/api/appointments', { body: b });
  }
  const act = (id: string, action: string, b: Record<string, unknown>) =>
    t.call('POST', `/api/appointments/${id}/${action}`, { body: b });

  it('books, reads back with every name joined, edits and lists it on the calendar', async () => {
    const d = nextDay();
    const created = await t.call('POST', '/api/appointments', {
      body: body(d, '10:00', '10:30', { chairId: chair, treatmentId: treatment, notes: 'Trae radiografía' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const data = created.json().data;
    expect(created.json().code).toBe('appointment_created');
    expect(data).toMatchObject({
      patientId: t.patientId,
      patientHasEmail: true,
      professionalId: t.clinic.userId,
      chairName: 'Sillón 1',
      treatmentName: 'Revisión',
      treatmentColor: '#0ea5e9',
      status: 'scheduled',
      timeZone: zone,
      outsideSchedule: false,
      reminderState: 'planned',
      version: 1,
    });
    expect(data.patientName).toMatch(/^Lucía Fernández/);
    expect(data.professionalName).toMatch(/^Ana Pérez/);
    const got = await t.call('GET', `/api/appointments/${data.id}`);
    expect(got.json().data).toEqual(data);

    const edited = await t.call('PUT', `/api/appointments/${data.id}`, {
      body: { ...body(d, '10:00', '11:00', { chairId: otherChair, notes: 'Sin radiografía' }), version: 1 },
    });
    expectAnswer(edited, 200, {
      code: 'appointment_updated',
      data: { id: data.id, endsAt: at(`${d}T11:00`), chairName: 'Sillón 2', treatmentId: null, version: 2 },
    });
    const [event] = (await t.auditEvents('appointment_updated')).filter((row) => row.entityId === data.id);
    expect(event?.before).toMatchObject({ endsAt: at(`${d}T10:30`), chairId: chair, notes: 'Trae radiografía' });
    expect(event?.after).toMatchObject({ endsAt: at(`${d}T11:00`), chairId: otherChair });
    // The history names what its ids stand for (issue 34): chairs, treatment, professional, patient.
    const history = (await t.call('GET', `/api/appointments/${data.id}/changes`)).json().data;
    const [update, creation] = history as { labels: Record<string, string> }[];
    expect(update?.labels).toEqual({ [chair]: 'Sillón 1', [otherChair]: 'Sillón 2', [treatment]: 'Revisión' });
    expect(creation?.labels[t.clinic.userId]).toMatch(/^Ana Pérez/);
    expect(creation?.labels[t.patientId]).toMatch(/^Lucía Fernández/);

    const calendar = await t.call(
      'GET',
      `/api/appointments/calendar?from=${at(`${d}T00:00`)}&to=${at(`${d}T23:59`)}&professionalIds=${t.clinic.userId}`,
    );
    expect(calendar.statusCode, calendar.body).toBe(200);
    expect(calendar.json().data.map((row: { id: string }) => row.id)).toEqual([data.id]);
    // A calendar block is the appointment's own answer, fewer fields (calendarAppointmentSchema).
    const current = edited.json().data;
    const [block] = calendar.json().data;
    expect(Object.keys(block).sort()).toEqual(Object.keys(calendarAppointmentSchema.shape).sort());
    // …and the agenda's own flag (issue 41): no lab case to seat at it.
    const { labCaseWarning, ...fields } = block;
    expect(labCaseWarning).toBe(false);
    expect(fields).toEqual(Object.fromEntries(Object.keys(fields).map((key) => [key, current[key]])));
    const byChair = await t.call(
      'GET',
      `/api/appointments/calendar?from=${at(`${d}T00:00`)}&to=${at(`${d}T23:59`)}&chairIds=${chair}`,
    );
    expect(byChair.json().data).toEqual([]);
    const stale = await t.call('PUT', `/api/appointments/${data.id}`, { body: { ...body(d), version: 1 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'version_conflict', details: { current: { id: data.id, version: 2 } } });
  });

  it('validates every field with its code (400, never a 500)', async () => {
    const d = nextDay();
    const cases: [Record<string, unknown>, string, string][] = [
      [body(d, '10:00', '09:00'), 'endsAt', 'end_before_start'],
      [body(d, '10:00', '10:00'), 'endsAt', 'end_before_start'],
      [{ ...body(d), endsAt: at(`${d}T23:00`), startsAt: at(`${d}T08:00`) }, 'endsAt', 'too_big'],
      [{ ...body(d), startsAt: '2030-02-31T10:00:00Z' }, 'startsAt', 'invalid_date'],
      [{ ...body(d), startsAt: '99999-01-01T10:00:00Z' }, 'startsAt', 'invalid_date'],
      [{ ...body(d), startsAt: 'mañana' }, 'startsAt', 'invalid_date'],
      [{ ...body(d), reason: 'Dolor\u0000' }, 'reason', 'invalid_characters'],
      [{ ...body(d), notes: 'roto \ud800' }, 'notes', 'invalid_characters'],
      [{ ...body(d), patientId: 'x' }, 'patientId', 'invalid_value'],
      [{ ...body(d), patientId: undefined }, 'patientId', 'required'],
      [{ ...body(d), reason: 'x'.repeat(201) }, 'reason', 'too_long'],
    ];
    for (const [b, path, code] of cases) {
      const response = await t.call('POST', '/api/appointments', { body: b });
      expect(response.statusCode, `${path} ${response.body}`).toBe(400);
      const fields = response.json().details.fields as { path: string; code: string }[];
      expect(fields.find((field) => field.path === path)?.code, `${path}: ${response.body}`).toBe(code);
    }
    const calendar = await t.call('GET', `/api/appointments/calendar?from=${at(`${d}T00:00`)}&to=2030-12-31T00:00:00Z`);
    expect(calendar.statusCode).toBe(400);
    expect(calendar.json().details.fields[0]).toMatchObject({ path: 'querystring.to', code: 'too_big' });
  });

  it("refuses another clinic's patient, professional, chair or treatment (400) and answers 404 for another clinic's appointment", async () => {
    const d = nextDay();
    const theirPatient = await t.newPatient(t.other.token);
    const theirChair = await addRow('chairs', t.other.accountId, 'Su sillón');
    const theirTreatment = await addRow('treatments', t.other.accountId, 'Su tratamiento');
    for (const [field, value] of [
      ['patientId', theirPatient],
      ['professionalId', t.other.userId],
      ['chairId', theirChair],
      ['treatmentId', theirTreatment],
    ] as const) {
      const response = await t.call('POST', '/api/appointments', { body: { ...body(d), [field]: value } });
      expect(response.statusCode, field).toBe(400);
      expect(response.json().details.fields).toEqual([{ path: field, code: 'invalid_value' }]);
    }
    const theirSlots = await t.call(
      'GET',
      `/api/appointments/free-slots?professionalId=${t.other.userId}&durationMinutes=30`,
    );
    expect(theirSlots.json().details.fields).toEqual([{ path: 'professionalId', code: 'invalid_value' }]);
    const mine = await book(body(d));
    const other = { token: t.other.token };
    expect((await t.call('GET', `/api/appointments/${mine.id}`, other)).json().code).toBe('appointment_not_found');
    expect((await t.call('GET', `/api/appointments/${mine.id}/changes`, other)).statusCode).toBe(404);
    expect((await t.call('DELETE', `/api/appointments/${mine.id}`, other)).statusCode).toBe(404);
    expect(
      (
        await t.call('POST', `/api/appointments/${mine.id}/cancel`, {
          ...other,
          body: { reason: 'patient_request', version: 1 },
        })
      ).statusCode,
    ).toBe(404);
    const theirCalendar = await t.call(
      'GET',
      `/api/appointments/calendar?from=${at(`${d}T00:00`)}&to=${at(`${d}T23:59`)}`,
      other,
    );
    expect(theirCalendar.json().data).toEqual([]);
    expect((await t.call('GET', `/api/patients/${theirPatient}/appointments`)).json().code).toBe('patient_not_found');
    expect((await t.call('GET', `/api/appointments/${newId()}`)).json().code).toBe('appointment_not_found');
  });

  it('refuses overlaps of the professional and of the chair (409 naming the other), allows touching ranges', async () => {
    const d = nextDay();
    const first = await book(body(d, '10:00', '10:30', { chairId: chair }));
    const same = await t.call('POST', '/api/appointments', { body: body(d, '10:15', '10:45') });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({
      code: 'appointment_overlaps',
      details: {
        resource: 'professional',
        appointment: {
          id: first.id,
          startsAt: first.startsAt,
          endsAt: first.endsAt,
          professionalName: first.professionalName,
        },
      },
    });
    expect(same.json().details.appointment.patientName).toBe(first.patientName);
    const chairClash = await t.call('POST', '/api/appointments', {
      body: body(d, '10:20', '10:50', { professionalId: second, chairId: chair }),
    });
    expect(chairClash.statusCode).toBe(409);
    expect(chairClash.json().details).toMatchObject({ resource: 'chair', appointment: { id: first.id } });
    await book(body(d, '10:30', '11:00', { chairId: chair }));
    await book(body(d, '09:30', '10:00', { chairId: chair }));
    await book(body(d, '10:00', '10:30', { professionalId: second, chairId: otherChair }));
    // An edit into the taken time is refused too, and changes nothing.
    const late = await book(body(d, '12:00', '12:30'));
    const longer = await t.call('PUT', `/api/appointments/${late.id}`, {
      body: { ...body(d, '12:00', '12:30', { professionalId: second }), endsAt: at(`${d}T12:30`), version: 1 },
    });
    expect(longer.statusCode, longer.body).toBe(200);
  });

  it('moves: a new scheduled appointment, the old one rescheduled pointing at it, reminders re-planned, both audited', async () => {
    const d = nextDay();
    const original = await book(body(d, '10:00', '10:30'));
    await act(original.id, 'confirm', { channel: 'phone', version: 1 });
    const moved = await t.call('PUT', `/api/appointments/${original.id}`, {
      body: { ...body(d, '10:15', '10:45'), version: 2 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const next = moved.json().data;
    expect(moved.json().code).toBe('appointment_rescheduled');
    expect(next).toMatchObject({
      status: 'scheduled',
      rescheduledFrom: original.id,
      confirmedAt: null,
      reminderState: 'planned',
      version: 1,
    });
    expect(next.id).not.toBe(original.id);
    const old = (await t.call('GET', `/api/appointments/${original.id}`)).json().data;
    expect(old).toMatchObject({ status: 'rescheduled', rescheduledTo: next.id });
    const { rows } = await t.db.orm.execute<{ key: string; state: string }>(
      sql`select key, state from jobs where account_id = ${t.clinic.accountId} and key in (${original.id}, ${next.id}) order by created_at`,
    );
    expect(rows).toEqual([
      { key: original.id, state: 'cancelled' },
      { key: next.id, state: 'queued' },
    ]);
    expect((await t.auditEvents('appointment_rescheduled')).some((row) => row.entityId === original.id)).toBe(true);
    expect((await t.auditEvents('appointment_created')).find((row) => row.entityId === next.id)?.after).toMatchObject({
      rescheduledFrom: original.id,
    });
    // The old one is final.
    const again = await t.call('PUT', `/api/appointments/${original.id}`, {
      body: { ...body(d, '11:00', '11:30'), version: old.version },
    });
    expect(again.json()).toMatchObject({ code: 'appointment_not_scheduled', details: { status: 'rescheduled' } });
    // Moving onto another's time is refused and nothing moved.
    const blocker = await book(body(d, '12:00', '12:30'));
    const onto = await t.call('PUT', `/api/appointments/${next.id}`, {
      body: { ...body(d, '12:15', '12:45'), version: 1 },
    });
    expect(onto.json()).toMatchObject({ code: 'appointment_overlaps', details: { appointment: { id: blocker.id } } });
    expect((await t.call('GET', `/api/appointments/${next.id}`)).json().data).toMatchObject({
      status: 'scheduled',
      version: 1,
    });
  });

  it('cancels with a reason, no-show only once started, restores if free, completes; final states refuse changes', async () => {
    const d = nextDay();
    // No-show only once it started: one booked for in two hours, one that started an hour ago.
    const minute = 60_000;
    const now = Math.floor(Date.now() / minute) * minute;
    const slot = (fromNow: number) => ({
      ...body(d),
      startsAt: new Date(now + fromNow * minute).toISOString(),
      endsAt: new Date(now + (fromNow + 30) * minute).toISOString(),
      allowOutsideSchedule: true,
    });
    const later = await book(slot(120));
    const early = await act(later.id, 'cancel', { reason: 'no_show', version: 1 });
    expect(early.json().code).toBe('appointment_not_started');
    const started = await book(slot(-60));
    const noShowNow = await act(started.id, 'cancel', { reason: 'no_show', version: 1 });
    expect(noShowNow.json()).toMatchObject({ code: 'appointment_cancelled', data: { cancelReason: 'no_show' } });

    const a = await book(body(d, '16:00', '16:30'));
    const noNote = await act(a.id, 'cancel', { reason: 'other', version: 1 });
    expect(noNote.json().details.fields).toEqual([{ path: 'note', code: 'required' }]);
    const noShow = await act(a.id, 'cancel', { reason: 'patient_request', version: 1 });
    expectAnswer(noShow, 200, {
      code: 'appointment_cancelled',
      data: { status: 'cancelled', cancelReason: 'patient_request', version: 2 },
    });
    expect(noShow.json().data.cancelledByName).toMatch(/^Ana Pérez/);
    expect((await act(a.id, 'confirm', { channel: 'phone', version: 2 })).json().code).toBe(
      'appointment_not_scheduled',
    );
    expect((await act(a.id, 'cancel', { reason: 'patient_request', version: 2 })).json().code).toBe(
      'appointment_not_scheduled',
    );
    const range = `from=${at(`${d}T00:00`)}&to=${at(`${d}T23:59`)}`;
    const ids = async (query: string) =>
      (await t.call('GET', `/api/appointments/calendar?${query}`)).json().data.map((row: { id: string }) => row.id);
    expect(await ids(range)).not.toContain(a.id);
    expect(await ids(`${range}&inactive=true`)).toContain(a.id);
    const filtered = await t.call(
      'GET',
      `/api/appointments?status=cancelled&professionalId=${t.clinic.userId}&from=${at(`${d}T00:00`)}&to=${at(`${d}T23:59`)}`,
    );
    expect(filtered.json().data.map((row: { id: string }) => row.id)).toEqual([a.id]);
    // Its time was taken meanwhile: restore is refused; freed again, it is restored.
    const taker = await book(body(d, '16:00', '16:30'));
    const refused = await act(a.id, 'restore', { version: 2 });
    expect(refused.json()).toMatchObject({ code: 'appointment_overlaps', details: { appointment: { id: taker.id } } });
    await act(taker.id, 'cancel', { reason: 'patient_request', version: 1 });
    const restored = await act(a.id, 'restore', { version: 2 });
    expect(restored.json()).toMatchObject({
      code: 'appointment_restored',
      data: { status: 'scheduled', cancelReason: null, version: 3 },
    });
    expect((await act(a.id, 'restore', { version: 3 })).json().code).toBe('appointment_not_cancelled');
    const confirmed = await act(a.id, 'confirm', { channel: 'whatsapp', version: 3 });
    expect(confirmed.json()).toMatchObject({
      code: 'appointment_confirmed',
      data: { confirmationChannel: 'whatsapp' },
    });
    expect(confirmed.json().data.confirmedByName).toMatch(/^Ana Pérez/);
    const unconfirmed = await act(a.id, 'unconfirm', { version: 4 });
    expect(unconfirmed.json()).toMatchObject({
      code: 'appointment_unconfirmed',
      data: { confirmedAt: null, confirmationChannel: null },
    });
    const arrived = await act(a.id, 'arrive', { version: 5 });
    expect(arrived.json().code).toBe('appointment_arrived');
    expect(arrived.json().data.arrivedAt).not.toBeNull();
    expect((await act(a.id, 'complete', { version: 5 })).json().code).toBe('version_conflict');
    const completed = await act(a.id, 'complete', { version: 6 });
    expect(completed.json()).toMatchObject({ code: 'appointment_completed', data: { status: 'completed' } });
    for (const action of ['cancel', 'confirm', 'arrive', 'complete', 'unconfirm']) {
      const response = await act(a.id, action, { reason: 'patient_request', channel: 'phone', version: 7 });
      expect(response.json().code, action).toBe('appointment_not_scheduled');
    }
    const actions = (await t.call('GET', `/api/appointments/${a.id}/changes`))
      .json()
      .data.map((row: { action: string }) => row.action);
    expect(actions).toEqual([
      'appointment_completed',
      'appointment_arrived',
      'appointment_unconfirmed',
      'appointment_confirmed',
      'appointment_restored',
      'appointment_cancelled',
      'appointment_created',
    ]);
    const removed = await t.call('DELETE', `/api/appointments/${a.id}`);
    expect(removed.json()).toEqual({ code: 'appointment_deleted' });
    expect((await t.call('GET', `/api/appointments/${a.id}`)).statusCode).toBe(404);
    expect((await t.auditEvents('appointment_deleted')).find((row) => row.entityId === a.id)?.before).toMatchObject({
      status: 'completed',
    });
  });

  it('refuses a booking outside the schedule with its reasons unless confirmed, then marks it', async () => {
    const d = nextDay(); // a weekday
    const saturday = new Date(Date.UTC(2030, 0, 5)).toISOString().slice(0, 10);
    const cases: [Record<string, unknown>, string[]][] = [
      [body(d, '08:30', '09:30'), ['outside_hours']],
      [body(d, '13:45', '14:15'), ['recess']],
      [body(d, '19:45', '20:15'), ['outside_hours']],
      [body(saturday, '10:00', '10:30'), ['closed_day']],
    ];
    for (const [b, reasons] of cases) {
      const response = await t.call('POST', '/api/appointments', { body: b });
      expectAnswer(response, 409, { code: 'appointment_outside_schedule', details: { reasons } });
    }
    await t.db.orm.execute(sql`insert into schedule_exceptions (account_id, id, professional_id, kind, starts_at, ends_at)
      values (${t.clinic.accountId}, ${newId()}, ${t.clinic.userId}, 'vacation', ${at(`${d}T17:00`)}, ${at(`${d}T18:00`)}),
             (${t.clinic.accountId}, ${newId()}, null, 'holiday', ${at(`${d}T18:00`)}, ${at(`${d}T19:00`)}),
             (${t.clinic.accountId}, ${newId()}, ${second}, 'block', ${at(`${d}T16:00`)}, ${at(`${d}T17:00`)})`);
    const vacation = await t.call('POST', '/api/appointments', { body: body(d, '17:30', '18:30') });
    expect(vacation.json().details.reasons).toEqual(['holiday', 'vacation']);
    // Another professional's block is not hers.
    await book(body(d, '16:00', '16:30'));
    const blocked = await t.call('POST', '/api/appointments', {
      body: body(d, '16:00', '16:30', { professionalId: second }),
    });
    expect(blocked.json().details.reasons).toEqual(['block']);
    const confirmed = await book({ ...body(d, '13:45', '14:15'), allowOutsideSchedule: true });
    expect(confirmed.outsideSchedule).toBe(true);
    // A professional with a week of her own follows hers, not the clinic's.
    await setWeek(t.clinic.accountId, second, [
      { weekday: 'saturday', opening: '09:00', closing: '13:00', recessStart: null, recessEnd: null },
    ]);
    expect((await book(body(saturday, '10:00', '10:30', { professionalId: second }))).outsideSchedule).toBe(false);
    const weekday = await t.call('POST', '/api/appointments', {
      body: body(d, '10:00', '10:30', { professionalId: second }),
    });
    expect(weekday.json().details.reasons).toEqual(['closed_day']);
    await setWeek(t.clinic.accountId, second, []);
  });

  it('keeps 10:00 at 10:00 across the DST change and finds the slots of the change day', async () => {
    const before = await book(body('2030-03-25', '10:00', '10:30'));
    const after = await book(body('2030-04-01', '10:00', '10:30'));
    expect(before.startsAt).toBe('2030-03-25T09:00:00.000Z');
    expect(after.startsAt).toBe('2030-04-01T08:00:00.000Z');
    await setWeek(t.clinic.accountId, second, [
      { weekday: 'sunday', opening: '01:00', closing: '04:00', recessStart: null, recessEnd: null },
    ]);
    // 31 March 2030: at 02:00 the clocks jump to 03:00. 01:00–04:00 is two real hours.
    const slots = await t.call(
      'GET',
      `/api/appointments/free-slots?professionalId=${second}&durationMinutes=60&from=2030-03-30T12:00:00Z&days=2&limit=20`,
    );
    expect(slots.statusCode, slots.body).toBe(200);
    expect(slots.json().data.map((slot: { startsAt: string }) => slot.startsAt)).toEqual([
      '2030-03-31T00:00:00.000Z', // 01:00 CET
      '2030-03-31T00:15:00.000Z',
      '2030-03-31T00:30:00.000Z',
      '2030-03-31T00:45:00.000Z',
      '2030-03-31T01:00:00.000Z', // 03:00 CEST, ends 04:00
    ]);
    await setWeek(t.clinic.accountId, second, []);
  });

  it('answers free slots: quarter hours within hours, minus recess, appointments, exceptions and the chair', async () => {
    const d = nextDay();
    await book(body(d, '09:00', '09:45'));
    await book(body(d, '10:00', '10:30', { professionalId: second, chairId: chair }));
    await t.db.orm.execute(sql`insert into schedule_exceptions (account_id, id, professional_id, kind, starts_at, ends_at)
      values (${t.clinic.accountId}, ${newId()}, ${t.clinic.userId}, 'block', ${at(`${d}T11:00`)}, ${at(`${d}T13:30`)})`);
    const url = (extra: string) =>
      `/api/appointments/free-slots?professionalId=${t.clinic.userId}&durationMinutes=30&from=${at(`${d}T00:00`)}&days=1&limit=50${extra}`;
    const starts = async (extra = '') => {
      const response = await t.call('GET', url(extra));
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.map((slot: { startsAt: string }) => slot.startsAt) as string[];
    };
    const free = await starts();
    expect(free.slice(0, 4)).toEqual([at(`${d}T09:45`), at(`${d}T10:00`), at(`${d}T10:15`), at(`${d}T10:30`)]);
    expect(free).not.toContain(at(`${d}T11:00`));
    expect(free).toContain(at(`${d}T13:30`));
    expect(free).not.toContain(at(`${d}T13:45`)); // would end in the recess
    expect(free).toContain(at(`${d}T15:00`));
    expect(free.at(-1)).toBe(at(`${d}T19:30`));
    const withChair = await starts(`&chairId=${chair}`);
    expect(withChair.slice(0, 2)).toEqual([at(`${d}T10:30`), at(`${d}T13:30`)]);
    // Without a professional: everyone, by time then name.
    const everyone = await t.call(
      'GET',
      `/api/appointments/free-slots?durationMinutes=30&from=${at(`${d}T09:00`)}&days=1&limit=3`,
    );
    expect(everyone.json().data.map((slot: { professionalName: string }) => slot.professionalName)[0]).toMatch(
      /^(Ana|Bruno)/,
    );
    expect(everyone.json().data[0].startsAt).toBe(at(`${d}T09:00`));
  });

  it("lists by patient name and status, and a patient's appointments: next soonest first, then past newest first", async () => {
    const patient = await t.newPatient(undefined, { firstName: 'Zoe', lastName: 'Quintana' });
    const d2 = nextDay();
    const pastBody = (daysAgo: number) => {
      const start = Math.floor(Date.now() / 60_000) * 60_000 - daysAgo * 86_400_000;
      return {
        ...body(d2),
        patientId: patient,
        allowOutsideSchedule: true,
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(start + 1_800_000).toISOString(),
      };
    };
    const past1 = await book(pastBody(3));
    const past2 = await book(pastBody(2));
    const next1 = await book(body(d2, '16:00', '16:30', { patientId: patient }));
    const next2 = await book(body(d2, '17:00', '17:30', { patientId: patient }));
    const own = await t.call('GET', `/api/patients/${patient}/appointments`);
    expect(own.json().data.map((row: { id: string }) => row.id)).toEqual([next1.id, next2.id, past2.id, past1.id]);
    // A move is not another appointment (issue 34): the patient's list shows the chain's current link only.
    const moved = await t.call('PUT', `/api/appointments/${next2.id}`, {
      body: { ...body(d2, '18:00', '18:30', { patientId: patient }), version: 1 },
    });
    expect(moved.json().code).toBe('appointment_rescheduled');
    const current = moved.json().data.id as string;
    const afterMove = (await t.call('GET', `/api/patients/${patient}/appointments`)).json();
    expect(afterMove.data.map((row: { id: string }) => row.id)).toEqual([next1.id, current, past2.id, past1.id]);
    expect(afterMove.total).toBe(4);
    const listed = await t.call('GET', '/api/patients?q=Quintana');
    expect(listed.json().data[0].nextAppointment).toMatchObject({ id: next1.id, startsAt: next1.startsAt });
    await act(past1.id, 'cancel', { reason: 'patient_request', version: 1 });
    const search = await t.call('GET', '/api/appointments?q=zoe%20quintana&sort=-startsAt');
    expect(search.json()).toMatchObject({ total: 5 });
    expect(search.json().data[0].id).toBe(current);
    const cancelled = await t.call('GET', '/api/appointments?q=quintana&status=cancelled');
    expect(cancelled.json().data.map((row: { id: string }) => row.id)).toEqual([past1.id]);
  });

  it('starting the attendance from an appointment completes it in the same transaction', async () => {
    const d = nextDay();
    const a = await book(body(d, '10:00', '10:30'));
    const attendance = (appointmentId: string, patientId = t.patientId) =>
      t.call('POST', `/api/patients/${patientId}/attendances`, {
        body: {
          date: at(`${d}T10:05`),
          attendanceType: 'medical_attendance',
          professionalId: t.clinic.userId,
          titleResume: 'Revisión',
          appointmentId,
        },
      });
    const sibling = await t.newPatient();
    expect((await attendance(a.id, sibling)).json().code).toBe('appointment_not_found');
    const saved = await attendance(a.id);
    expect(saved.statusCode, saved.body).toBe(201);
    const done = (await t.call('GET', `/api/appointments/${a.id}`)).json().data;
    expect(done).toMatchObject({ status: 'completed', attendanceId: saved.json().data.id });
    expect((await attendance(a.id)).json().code).toBe('appointment_not_scheduled');
    expect((await t.auditEvents('appointment_completed')).find((row) => row.entityId === a.id)?.after).toMatchObject({
      attendanceId: saved.json().data.id,
    });
  });

  it.each(['administrator', 'supervisor', 'user', 'customer'] as const)(
    'as %s: reads and writes the agenda as the permission matrix says',
    async (level) => {
      const d = nextDay();
      const a = await book(body(d, '10:00', '10:30'));
      await t.asLevel(level, async () => {
        const reads = permissionMatrix[level].has('patients.read');
        const writes = permissionMatrix[level].has('appointments.write');
        expect((await t.call('GET', `/api/appointments/${a.id}`)).statusCode).toBe(reads ? 200 : 403);
        expect(
          (await t.call('GET', `/api/appointments/calendar?from=${at(`${d}T00:00`)}&to=${at(`${d}T23:00`)}`))
            .statusCode,
        ).toBe(reads ? 200 : 403);
        expect((await t.call('POST', '/api/appointments', { body: body(d, '11:00', '11:30') })).statusCode).toBe(
          writes ? 201 : 403,
        );
        expect((await act(a.id, 'confirm', { channel: 'phone', version: 1 })).statusCode).toBe(writes ? 200 : 403);
      });
    },
  );
});

describe.each(availableBackends().filter((backend) => backend === 'postgres'))(
  'appointments under concurrency on %s',
  (backend) => {
    const t = useTestClinic(backend, { patient: true });

    it('20 concurrent bookings of the same slot: exactly one 201, nineteen 409 appointment_overlaps', async () => {
      const startsAt = '2031-06-02T10:00:00.000Z';
      const endsAt = '2031-06-02T10:30:00.000Z';
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          t.call('POST', '/api/appointments', {
            body: { patientId: t.patientId, professionalId: t.clinic.userId, startsAt, endsAt },
          }),
        ),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      const refused = responses.filter((response) => response.statusCode === 409);
      expect(refused).toHaveLength(19);
      const winner = responses.find((response) => response.statusCode === 201)?.json().data.id;
      for (const response of refused) {
        expect(response.json()).toMatchObject({
          code: 'appointment_overlaps',
          details: { appointment: { id: winner } },
        });
      }
    });
  },
);
