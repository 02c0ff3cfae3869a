import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addStaff, addTreatment, openBookingClinic, saveBookingRules, wall } from '../../../test/online-booking.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * Online booking's routes (issue 37): the portal's, scoped by the session's patient, and the
 * public page's pending bookings (held until the e-mailed link confirms them; once; expiring),
 * with its rate limits. Bookings are a few weeks ahead of today, inside the default horizon.
 */

/** The Tuesday `weeks` weeks from now, at `time` in Madrid. */
function tuesday(weeks: number, time: string): Date {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + 7 * weeks + ((2 - day.getUTCDay() + 7) % 7));
  return wall(`${day.toISOString().slice(0, 10)}T${time}`);
}

describe.each(availableBackends())('online booking routes on %s', (backend) => {
  const t = useTestClinic(backend, { patient: { email: 'lucia@correo.test' } });
  let treatment: string;
  let professional: string;
  let slug: string;

  beforeAll(async () => {
    await openBookingClinic(t);
    treatment = await addTreatment(t, 'Limpieza', 30);
    professional = await addStaff(t, 'Bruno Alvarado');
    await saveBookingRules(t, {
      enabled: true,
      treatmentIds: [treatment],
      professionalIds: [professional],
      leadHours: 1,
      horizonDays: 60,
      maxPending: 3,
      newPatients: true,
      changeHours: 24,
    });
    const { rows } = await t.db.orm.execute<{ public_slug: string }>(
      sql`select public_slug from accounts where id = ${t.clinic.accountId}`,
    );
    slug = rows[0]?.public_slug ?? '';
  });
  beforeEach(async () => {
    await t.db.orm.execute(sql`delete from auth_failures`);
  });

  const booking = (start: Date) => ({
    treatmentId: treatment,
    professionalId: professional,
    startsAt: start.toISOString(),
  });

  it('books, confirms, reschedules and cancels for the signed-in patient only', async () => {
    expect((await t.call('GET', `/api/portal/free-slots?treatmentId=${treatment}`)).statusCode).toBe(403);
    // Another patient's appointment, booked by the staff.
    const theirs = await t.created('/api/appointments', {
      body: {
        patientId: t.patientId,
        professionalId: professional,
        startsAt: tuesday(2, '09:00').toISOString(),
        endsAt: tuesday(2, '09:30').toISOString(),
      },
    });
    await t.asLevel('customer', async () => {
      const from = encodeURIComponent(tuesday(2, '00:00').toISOString());
      const slots = await t.call('GET', `/api/portal/free-slots?treatmentId=${treatment}&from=${from}&days=1`);
      expect(slots.statusCode, slots.body).toBe(200);
      const starts = slots.json().data.map((slot: { startsAt: string }) => slot.startsAt);
      // The other patient's appointment is busy time, though the patient cannot see it.
      expect(starts).not.toContain(tuesday(2, '09:00').toISOString());
      expect(starts).toContain(tuesday(2, '09:30').toISOString());
      const booked = await t.call('POST', '/api/portal/bookings', { body: booking(tuesday(2, '10:00')) });
      expect(booked.statusCode, booked.body).toBe(201);
      expect(booked.json()).toMatchObject({ code: 'appointment_booked_online', data: { origin: 'online' } });
      const id = booked.json().data.id;
      const taken = await t.call('POST', '/api/portal/bookings', { body: booking(tuesday(2, '09:00')) });
      expect(taken.statusCode).toBe(409);
      for (const action of ['confirm', 'cancel']) {
        const other = await t.call('POST', `/api/portal/appointments/${theirs.id}/${action}`);
        expect(other.statusCode).toBe(404);
      }
      const confirmed = await t.call('POST', `/api/portal/appointments/${id}/confirm`);
      expect(confirmed.json()).toMatchObject({ code: 'appointment_confirmed' });
      const moved = await t.call('POST', `/api/portal/appointments/${id}/reschedule`, {
        body: { startsAt: tuesday(2, '11:00').toISOString() },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const cancelled = await t.call('POST', `/api/portal/appointments/${moved.json().data.id}/cancel`);
      expect(cancelled.json()).toMatchObject({ code: 'appointment_cancelled', data: { status: 'cancelled' } });
    });
  });

  it("answers the portal's appointments with their treatment, professional and confirmation; a move may change the treatment", async () => {
    const longer = await addTreatment(t, 'Blanqueamiento', 60);
    const notOffered = await addTreatment(t, 'Implante', 90);
    await saveBookingRules(t, { treatmentIds: [treatment, longer] });
    try {
      await t.asLevel('customer', async () => {
        const booked = await t.call('POST', '/api/portal/bookings', { body: booking(tuesday(4, '10:00')) });
        expect(booked.statusCode, booked.body).toBe(201);
        const id = booked.json().data.id;
        const listed = async () =>
          (await t.call('GET', '/api/portal/appointments'))
            .json()
            .data.upcoming.find((row: { id: string }) => row.id === id);
        expect(await listed()).toMatchObject({
          treatmentId: treatment,
          treatmentName: 'Limpieza',
          professionalId: professional,
          professionalName: 'Bruno Alvarado',
          confirmedAt: null,
        });
        expect((await t.call('POST', `/api/portal/appointments/${id}/confirm`)).statusCode).toBe(200);
        const confirmedAt = (await listed()).confirmedAt;
        expect(new Date(confirmedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

        // A treatment not offered online is refused; an offered one brings its duration and name.
        const refused = await t.call('POST', `/api/portal/appointments/${id}/reschedule`, {
          body: { startsAt: tuesday(4, '11:00').toISOString(), treatmentId: notOffered },
        });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().details.fields).toEqual([
          expect.objectContaining({ path: 'treatmentId', code: 'invalid_value' }),
        ]);
        const moved = await t.call('POST', `/api/portal/appointments/${id}/reschedule`, {
          body: { startsAt: tuesday(4, '11:00').toISOString(), treatmentId: longer, professionalId: professional },
        });
        expect(moved.statusCode, moved.body).toBe(200);
        expect(moved.json().data).toMatchObject({
          treatmentId: longer,
          treatmentName: 'Blanqueamiento',
          startsAt: tuesday(4, '11:00').toISOString(),
          endsAt: tuesday(4, '12:00').toISOString(),
        });
        // The move is a new appointment: the same treatment named again keeps its duration.
        const again = await t.call('POST', `/api/portal/appointments/${moved.json().data.id}/reschedule`, {
          body: { startsAt: tuesday(4, '12:00').toISOString(), treatmentId: longer },
        });
        expect(again.statusCode, again.body).toBe(200);
        expect(again.json().data).toMatchObject({ treatmentId: longer, endsAt: tuesday(4, '13:00').toISOString() });
        expect((await t.call('POST', `/api/portal/appointments/${again.json().data.id}/cancel`)).statusCode).toBe(200);
      });
    } finally {
      await saveBookingRules(t, { treatmentIds: [treatment] });
    }
  });

  const person = (email: string, start: Date, idNumber = email) => ({
    ...booking(start),
    firstName: 'Nuevo',
    lastName: 'Paciente',
    email,
    phone: '+34 600 111 222',
    idNumber,
    sex: 'female',
    birthdate: '1990-05-01',
  });
  const hold = (body: Record<string, unknown>, remoteAddress = '198.51.100.7') =>
    t.call('POST', `/api/public/clinics/${slug}/bookings`, { token: null, body, remoteAddress });
  const confirm = (token: string) => t.call('POST', `/api/public/online-bookings/${token}`, { token: null });

  it('holds a public booking until its link confirms it, once; the patient is created', async () => {
    const page = await t.call('GET', `/api/public/clinics/${slug}/booking`, { token: null });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data).toMatchObject({ newPatients: true, treatments: [{ id: treatment, name: 'Limpieza' }] });
    expect((await t.call('GET', '/api/public/clinics/no-such-clinic/booking', { token: null })).statusCode).toBe(404);

    const start = tuesday(3, '10:00');
    const held = await hold(person('nueva@correo.test', start));
    expect(held.statusCode, held.body).toBe(201);
    expect(held.json().code).toBe('online_booking_held');
    // The held slot is not offered, and the same e-mail cannot hold another.
    const from = encodeURIComponent(tuesday(3, '00:00').toISOString());
    const slots = await t.call(
      'GET',
      `/api/public/clinics/${slug}/free-slots?treatmentId=${treatment}&from=${from}&days=1`,
      {
        token: null,
      },
    );
    expect(slots.json().data.map((slot: { startsAt: string }) => slot.startsAt)).not.toContain(start.toISOString());
    // Not offered while held (a race between two holds is the exclusion constraint's: slot_taken).
    expect((await hold(person('otra@correo.test', start))).json().code).toBe('slot_unavailable');
    expect((await hold(person('nueva@correo.test', tuesday(3, '11:00')))).json().code).toBe(
      'online_booking_pending_exists',
    );
    const mail = t.mailer.lastTo('nueva@correo.test');
    expect(mail?.subject).toMatch(/^Confirme su reserva en /);
    const token = t.mailer.tokenFor('nueva@correo.test');
    const confirmed = await confirm(token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ code: 'appointment_booked_online', data: { origin: 'online' } });
    const again = await confirm(token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'online_booking_link_stale', details: { why: 'used' } });
    const { rows } = await t.db.orm.execute<{ n: number }>(sql`
      select count(*)::int as n from patients where account_id = ${t.clinic.accountId} and email = 'nueva@correo.test'`);
    expect(rows[0]?.n).toBe(1);
  });

  it('lets an unconfirmed hold expire: the link no longer works and the slot is free again', async () => {
    const start = tuesday(4, '10:00');
    expect((await hold(person('tarde@correo.test', start))).statusCode).toBe(201);
    const token = t.mailer.tokenFor('tarde@correo.test');
    await t.db.orm.execute(sql`update online_booking_holds set expires_at = now() - interval '1 minute'
      where account_id = ${t.clinic.accountId} and email = 'tarde@correo.test'`);
    const late = await confirm(token);
    expect(late.json()).toMatchObject({ code: 'online_booking_link_stale', details: { why: 'expired' } });
    expect((await hold(person('pronto@correo.test', start))).statusCode).toBe(201);
  });

  it('releases the hold when its mail cannot leave, so the person may try again', async () => {
    const start = tuesday(4, '12:00');
    t.mailer.failing = true;
    try {
      const failed = await hold(person('sinmail@correo.test', start));
      expect(failed.statusCode).toBe(502);
      expect(failed.json().code).toBe('error_sending_email');
    } finally {
      t.mailer.failing = false;
    }
    expect((await hold(person('sinmail@correo.test', start))).statusCode).toBe(201);
  });

  it('refuses new patients when the clinic books only its own', async () => {
    await saveBookingRules(t, { newPatients: false });
    const refused = await hold(person('desconocida@correo.test', tuesday(5, '10:00')));
    expect(refused.json().code).toBe('online_booking_new_patients_closed');
    // A patient of the clinic (ID number and e-mail) still books.
    await t.db.orm.execute(sql`update patients set ssn = 'X-1' where id = ${t.patientId}`);
    expect((await hold(person('lucia@correo.test', tuesday(5, '10:00'), 'X-1'))).statusCode).toBe(201);
    await saveBookingRules(t, { newPatients: true });
  });

  it('limits attempts per address and per e-mail', async () => {
    for (let i = 0; i < 3; i += 1) {
      expect((await hold(person('spam@correo.test', new Date(0)), `192.0.2.${i + 1}`)).statusCode).toBe(409);
    }
    const byEmail = await hold(person('spam@correo.test', new Date(0)), '192.0.2.50');
    expect(byEmail.statusCode).toBe(429);
    for (let i = 0; i < 10; i += 1) {
      expect((await hold(person(`p${i}@correo.test`, new Date(0)), '203.0.113.77')).statusCode).toBe(409);
    }
    const byAddress = await hold(person('p99@correo.test', new Date(0)), '203.0.113.77');
    expect(byAddress.statusCode).toBe(429);
    expect(byAddress.json().code).toBe('too_many_requests');
  });
});
