import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addStaff,
  addTreatment,
  bookingZone,
  openBookingClinic,
  saveBookingRules,
  wall,
} from '../../../test/online-booking.ts';
import { expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { type OnlineContext, onlineBookingService } from './online-booking.service.ts';

/**
 * Online booking (issue 37): the clinic's rules, the free slots they narrow, the booking write
 * (20 patients racing for one slot: exactly one wins), the patient's confirm, cancel and
 * reschedule within the window, and the confirmation e-mail with its .ics.
 */

const zone = bookingZone;
const at = wall;
// "Now" of every scenario: Monday 2030-01-07 08:00 in Madrid; bookings on the following weeks.
const now = at('2030-01-07T08:00');

describe.each(availableBackends())('online booking on %s', (backend) => {
  const t = useTestClinic(backend, { patient: { email: 'lucia@correo.test', language: 'es' } });
  let treatment: string;
  let hidden: string;
  let second: string;
  let unlisted: string;

  const settings = async () => (await t.call('GET', '/api/settings/online-booking')).json().data;
  const saveRules = (changes: Record<string, unknown>) => saveBookingRules(t, changes);

  const online = <T>(work: (ctx: OnlineContext) => Promise<T>) =>
    t.db.withTenant(t.clinic.accountId, (tx) =>
      work({ tx, accountId: t.clinic.accountId, userId: null, ip: '203.0.113.9', timeZone: zone }),
    );
  const book = (patientId: string, start: Date, extra: { treatmentId?: string; professionalId?: string } = {}) =>
    online((ctx) =>
      onlineBookingService.bookOnline({
        ctx,
        patientId,
        treatmentId: extra.treatmentId ?? treatment,
        professionalId: extra.professionalId ?? t.clinic.userId,
        start,
        now,
      }),
    );
  const codeOf = async (work: Promise<unknown>) => {
    try {
      await work;
      return 'ok';
    } catch (error) {
      if (error instanceof AppError) return error.code;
      throw error;
    }
  };

  beforeAll(async () => {
    await openBookingClinic(t);
    treatment = await addTreatment(t, 'Limpieza', 45);
    hidden = await addTreatment(t, 'Implante', 90);
    second = await addStaff(t, 'Bruno Alvarado');
    unlisted = await addStaff(t, 'Carla Domínguez');
  });

  it('keeps the rules in the settings: validated, versioned and audited', async () => {
    const before = await settings();
    expect(before).toMatchObject({ enabled: false, treatmentIds: [], professionalIds: [], leadHours: 24 });
    expect(before.treatments.map((row: { name: string }) => row.name)).toEqual(['Implante', 'Limpieza']);
    const bad = await t.call('PUT', '/api/settings/online-booking', {
      body: {
        ...{ enabled: true, leadHours: 2, horizonDays: 30, maxPending: 2, newPatients: true, changeHours: 24 },
        treatmentIds: [newId()],
        professionalIds: [t.clinic.userId],
        version: before.version,
      },
    });
    expectFieldErrors(bad, [{ path: 'treatmentIds.0', code: 'invalid_value' }]);
    const saved = await saveRules({
      enabled: true,
      treatmentIds: [treatment],
      professionalIds: [t.clinic.userId, second],
      leadHours: 2,
      horizonDays: 30,
      maxPending: 2,
      newPatients: true,
      changeHours: 24,
    });
    expect(saved.code).toBe('online_booking_settings_updated');
    expect(saved.data).toMatchObject({ enabled: true, treatmentIds: [treatment], leadHours: 2 });
    const stale = await t.call('PUT', '/api/settings/online-booking', {
      body: { ...saved.data, treatments: undefined, professionals: undefined, version: before.version },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('version_conflict');
    const [event] = (await t.auditEvents('online_booking_settings_updated')).slice(-1);
    expect(event?.after).toMatchObject({ enabled: true, leadHours: 2, treatmentIds: treatment });
    const denied = await t.asLevel('user', () => t.call('GET', '/api/settings/online-booking'));
    expect(denied.statusCode).toBe(403);
  });

  it('offers the agenda’s free slots of a bookable treatment, narrowed by the rules', async () => {
    const slots = await online((ctx) =>
      onlineBookingService.freeSlots({ ctx, query: { treatmentId: treatment, days: 1, limit: 200 }, now }),
    );
    // Lead time 2 h from 08:00: nothing before 10:00; 45 minutes within 09:00–14:00; two professionals.
    expect(slots[0]?.startsAt).toBe(at('2030-01-07T10:00').toISOString());
    const monday = slots.filter((slot) => slot.startsAt < at('2030-01-07T23:00').toISOString());
    expect(monday.at(-1)?.endsAt).toBe(at('2030-01-07T14:00').toISOString());
    expect(new Set(slots.map((slot) => slot.professionalId))).toEqual(new Set([t.clinic.userId, second]));
    // An unlisted treatment or professional is refused; the horizon ends the search.
    expect(
      await codeOf(
        online((ctx) =>
          onlineBookingService.freeSlots({ ctx, query: { treatmentId: hidden, days: 1, limit: 5 }, now }),
        ),
      ),
    ).toBe('validation_error');
    expect(
      await codeOf(
        online((ctx) =>
          onlineBookingService.freeSlots({
            ctx,
            query: { treatmentId: treatment, professionalId: unlisted, days: 1, limit: 5 },
            now,
          }),
        ),
      ),
    ).toBe('validation_error');
    const far = await online((ctx) =>
      onlineBookingService.freeSlots({
        ctx,
        query: { treatmentId: treatment, from: at('2030-02-10T00:00').toISOString(), days: 7, limit: 5 },
        now,
      }),
    );
    expect(far).toEqual([]);
  });

  it('books exactly one of 20 patients racing for the same slot; the rest answer 409', async () => {
    const patients = await Promise.all(
      Array.from({ length: 20 }, (_, i) => t.newPatient(undefined, { ssn: `R-${i}` })),
    );
    const start = at('2030-01-08T10:00');
    const results = await Promise.all(patients.map((patientId) => codeOf(book(patientId, start))));
    expect(results.filter((code) => code === 'ok')).toHaveLength(1);
    expect(
      results.filter((code) => code !== 'ok').every((code) => code === 'slot_taken' || code === 'slot_unavailable'),
    ).toBe(true);
    const { rows } = await t.db.orm.execute<{ n: number; origin: string }>(sql`
      select count(*)::int as n, min(origin) as origin from appointments
      where account_id = ${t.clinic.accountId} and starts_at = ${start.toISOString()}::timestamptz and status = 'scheduled'`);
    expect(rows[0]).toMatchObject({ n: 1, origin: 'online' });
  });

  it('refuses what the rules refuse: lead time, horizon, treatment, professional, pending limit, turned off', async () => {
    const patient = await t.newPatient(undefined, { ssn: 'RULES-1' });
    expect(await codeOf(book(patient, at('2030-01-07T09:00')))).toBe('online_booking_too_soon');
    expect(await codeOf(book(patient, at('2030-03-04T10:00')))).toBe('online_booking_too_far');
    expect(await codeOf(book(patient, at('2030-01-09T10:00'), { treatmentId: hidden }))).toBe('validation_error');
    expect(await codeOf(book(patient, at('2030-01-09T10:00'), { professionalId: unlisted }))).toBe('validation_error');
    // Closed hours are not offered.
    expect(await codeOf(book(patient, at('2030-01-09T16:00')))).toBe('slot_unavailable');
    expect(await codeOf(book(patient, at('2030-01-09T10:00')))).toBe('ok');
    expect(await codeOf(book(patient, at('2030-01-09T11:00')))).toBe('ok');
    expect(await codeOf(book(patient, at('2030-01-09T12:00')))).toBe('online_booking_pending_limit');
    await saveRules({ enabled: false });
    expect(await codeOf(book(patient, at('2030-01-09T12:00')))).toBe('online_booking_disabled');
    await saveRules({ enabled: true });
  });

  it('confirms, reschedules and cancels within the window; a cancellation frees the slot at once', async () => {
    const patient = await t.newPatient(undefined, { ssn: 'MOVE-1', email: 'move@correo.test' });
    const start = at('2030-01-10T10:00');
    const booked = await book(patient, start);
    expect(booked).toMatchObject({ status: 'scheduled', origin: 'online', treatmentName: 'Limpieza' });
    // Another patient's appointment is not found.
    const stranger = await t.newPatient(undefined, { ssn: 'MOVE-2' });
    expect(
      await codeOf(
        online((ctx) =>
          onlineBookingService.answer({ ctx, patientId: stranger, id: booked.id, purpose: 'confirm', now }),
        ),
      ),
    ).toBe('appointment_not_found');
    const confirmed = await online((ctx) =>
      onlineBookingService.answer({ ctx, patientId: patient, id: booked.id, purpose: 'confirm', now }),
    );
    expect(confirmed.confirmedAt).not.toBeNull();
    const moved = await online((ctx) =>
      onlineBookingService.reschedule({
        ctx,
        patientId: patient,
        id: booked.id,
        input: { startsAt: at('2030-01-10T12:00').toISOString() },
        now,
      }),
    );
    expect(moved).toMatchObject({ startsAt: at('2030-01-10T12:00').toISOString(), origin: 'online' });
    expect(moved.id).not.toBe(booked.id);
    // Outside the window (24 h): 409 with the code.
    const late = new Date(at('2030-01-10T12:00').getTime() - 3_600_000);
    expect(
      await codeOf(
        online((ctx) =>
          onlineBookingService.answer({ ctx, patientId: patient, id: moved.id, purpose: 'cancel', now: late }),
        ),
      ),
    ).toBe('online_booking_change_closed');
    await online((ctx) =>
      onlineBookingService.answer({ ctx, patientId: patient, id: moved.id, purpose: 'cancel', now }),
    );
    // The slot is offered again and another patient books it.
    const other = await t.newPatient(undefined, { ssn: 'MOVE-3' });
    expect(await codeOf(book(other, at('2030-01-10T12:00')))).toBe('ok');
    const actions = (
      await t.db.orm.execute<{ action: string }>(sql`
        select action from audit_events where account_id = ${t.clinic.accountId}
          and entity_id in (${booked.id}::uuid, ${moved.id}::uuid) order by seq`)
    ).rows.map((row) => row.action);
    expect(actions).toEqual([
      'appointment_booked_online',
      'appointment_confirmed_online',
      'appointment_rescheduled_online',
      'appointment_created',
      'appointment_cancelled_online',
    ]);
    // The agenda shows where it came from.
    const shown = await t.call('GET', `/api/appointments/${moved.id}`);
    expect(shown.json().data).toMatchObject({ origin: 'online', status: 'cancelled', confirmationChannel: null });
  });

  it('e-mails the confirmation with the appointment as an .ics, in the patient’s language', async () => {
    const patient = await t.newPatient(undefined, { ssn: 'MAIL-1', email: 'mail@correo.test', language: 'fr' });
    const booked = await book(patient, at('2030-01-11T10:00'));
    await t.db.orm.execute(sql`update jobs set run_at = now() - interval '1 second'
      where account_id = ${t.clinic.accountId} and kind = 'online_booking_mail' and key = ${booked.id}`);
    await t.app.jobs.runDue();
    const mail = t.mailer.lastTo('mail@correo.test');
    expect(mail?.subject).toMatch(/^Votre rendez-vous chez /);
    const ics = mail?.attachments?.[0];
    expect(ics?.filename).toBe('cita.ics');
    expect(ics?.contentType).toMatch(/^text\/calendar/);
    const text = ics?.content.toString('utf8') ?? '';
    expect(text).toContain(`UID:${booked.id}@odontia\r\n`);
    expect(text).toContain('DTSTART:20300111T090000Z\r\n');
    expect(text).toContain('DTEND:20300111T094500Z\r\n');
  });
});
