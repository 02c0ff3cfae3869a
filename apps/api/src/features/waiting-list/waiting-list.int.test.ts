import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addStaff, addTreatment, bookingZone, openBookingClinic, wall } from '../../../test/online-booking.ts';
import { makeJobsDue } from '../../../test/reminders.ts';
import { expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { weekdayOf } from '../appointments/availability.ts';
import { createOfferLinksService } from './offer-links.service.ts';

/**
 * The waiting list (issue 38): an appointment cancelled (or moved) offers its time to the
 * matching entries by e-mail, in order and with their preferences; the first to accept books it —
 * ten patients accepting one slot at once give one booking, the others are told it is gone; holds
 * expire and the next entries are offered what is still free; another clinic's id answers 404.
 */

/** The next `weekday` at least a week ahead, as 'YYYY-MM-DD' in the clinic's zone. */
function nextDay(weekday: string, after = 7): string {
  let day = addDays(clinicToday(bookingZone), after);
  while (weekdayOf(day) !== weekday) day = addDays(day, 1);
  return day;
}

describe.each(availableBackends())('waiting list on %s', (backend) => {
  const t = useTestClinic(backend);
  let cleaning: string;
  let surgery: string;
  let colleague: string;
  const tuesday = nextDay('tuesday');
  let mails = 0;

  const patient = (name: string) =>
    t.newPatient(undefined, { firstName: name, email: `espera-${mails++}@correo.test`, language: 'es' });
  /** Runs the due jobs until none is left (a round claims a batch). */
  const runJobs = async () => {
    while ((await t.app.jobs.runDue()) > 0);
  };
  const emailOf = async (patientId: string) =>
    (await t.call('GET', `/api/patients/${patientId}`)).json().data.email as string;
  const wait = (patientId: string, extra: Record<string, unknown> = {}) =>
    t.created<{ id: string; status: string }>('/api/waiting-list', {
      body: { patientId, treatmentId: cleaning, ...extra },
    });
  const book = async (patientId: string, startsAt: Date, minutes = 30, professionalId = t.clinic.userId) =>
    t.created<{ id: string; version: number }>('/api/appointments', {
      body: {
        patientId,
        professionalId,
        treatmentId: cleaning,
        startsAt: startsAt.toISOString(),
        endsAt: new Date(startsAt.getTime() + minutes * 60_000).toISOString(),
      },
    });
  const cancel = async (appointment: { id: string; version: number }) => {
    const response = await t.call('POST', `/api/appointments/${appointment.id}/cancel`, {
      body: { reason: 'patient_request', version: appointment.version },
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const offersOf = async (entryId: string) => (await t.call('GET', `/api/waiting-list/${entryId}/offers`)).json().data;
  const links = () => createOfferLinksService(t.db);
  const setClinic = (column: 'waiting_list_offers_per_slot' | 'waiting_list_hold_minutes', value: number) =>
    t.db.orm.execute(sql`update accounts set ${sql.raw(column)} = ${value} where id = ${t.clinic.accountId}`);
  /** Each scenario starts with an empty list and no open offer. */
  const closeOpenOffers = async () => {
    await t.db.orm.execute(
      sql`update waiting_list_offers set status = 'expired' where account_id = ${t.clinic.accountId} and status in ('offered', 'sent')`,
    );
    await t.db.orm.execute(
      sql`update waiting_list_entries set deleted_at = now() where account_id = ${t.clinic.accountId} and deleted_at is null`,
    );
  };

  beforeAll(async () => {
    await openBookingClinic(t);
    cleaning = await addTreatment(t, 'Limpieza', 30);
    surgery = await addTreatment(t, 'Cirugía', 120);
    colleague = await addStaff(t, 'Dra. Colega');
  });

  it('a cancellation offers the time by e-mail; the link books it and closes the entry', async () => {
    await setClinic('waiting_list_offers_per_slot', 3);
    const start = wall(`${tuesday}T10:00`);
    const appointment = await book(await patient('Ana'), start);
    const bea = await patient('Bea');
    const entry = await wait(bea);
    expect(entry.status).toBe('waiting');
    expect(await offersOf(entry.id)).toEqual([]);

    await cancel(appointment);
    const [offer] = await offersOf(entry.id);
    expect(offer).toMatchObject({ status: 'offered', startsAt: start.toISOString(), professionalId: t.clinic.userId });
    expect(new Date(offer.expiresAt).getTime() - new Date(offer.createdAt).getTime()).toBeGreaterThan(14 * 60_000);

    await runJobs();
    await runJobs(); // a second round sends nothing again
    const email = await emailOf(bea);
    const sent = t.mailer.sent.filter((mail) => mail.to === email);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toMatch(/Se ha liberado un horario/);
    expect(sent[0]?.text).toMatch(/Está usted en nuestra lista de espera/);
    expect((await offersOf(entry.id))[0].status).toBe('sent');

    const token = t.mailer.tokenFor(email);
    const shown = await t.call('GET', `/api/public/waiting-list-offers/${token}`, { token: null });
    expect(shown.json().data).toMatchObject({ state: 'open', treatmentName: 'Limpieza', language: 'es' });
    const accepted = await t.call('POST', `/api/public/waiting-list-offers/${token}`, { token: null });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ data: { state: 'accepted' }, code: 'waiting_list_offer_accepted' });

    const booked = (await t.call('GET', `/api/waiting-list/${entry.id}`)).json().data;
    expect(booked).toMatchObject({ status: 'booked', lastOfferStatus: 'accepted' });
    const made = (await t.call('GET', `/api/appointments/${booked.appointmentId}`)).json().data;
    expect(made).toMatchObject({ patientId: bea, status: 'scheduled', startsAt: start.toISOString() });
    const again = await t.call('POST', `/api/public/waiting-list-offers/${token}`, { token: null });
    expect(again.json().data.state).toBe('accepted');
    expect((await t.auditEvents('waiting_list_entry_booked')).some((event) => event.entityId === entry.id)).toBe(true);
  });

  it("offers only entries whose treatment, professional, days, times and 'until' suit the freed time", async () => {
    await closeOpenOffers();
    await setClinic('waiting_list_offers_per_slot', 10);
    const start = wall(`${tuesday}T11:00`);
    const appointment = await book(await patient('Carla'), start);
    const fits = await wait(await patient('Dora'), {
      weekdays: ['tuesday'],
      timeRanges: [{ from: '10:30', to: '12:00' }],
    });
    const otherDay = await wait(await patient('Eva'), { weekdays: ['friday'] });
    const otherTime = await wait(await patient('Fina'), { timeRanges: [{ from: '12:00', to: '14:00' }] });
    const otherProfessional = await wait(await patient('Gala'), { professionalId: colleague });
    const tooLong = await wait(await patient('Hilda'), { treatmentId: surgery });
    const tooLate = await wait(await patient('Inés'), { until: addDays(tuesday, -1) });
    const urgent = await wait(await patient('Juana'), { priority: 'high' });

    await cancel(appointment);
    expect((await offersOf(fits.id)).length).toBe(1);
    expect((await offersOf(urgent.id)).length).toBe(1);
    for (const entry of [otherDay, otherTime, otherProfessional, tooLong, tooLate]) {
      expect(await offersOf(entry.id), entry.id).toEqual([]);
    }
    // Listed high priority first, then by arrival.
    const list = (await t.call('GET', '/api/waiting-list?pageSize=100')).json();
    expect(list.data[0].id).toBe(urgent.id);
    const arrival = (await t.call('GET', '/api/waiting-list?sort=createdAt&pageSize=100')).json().data;
    expect(arrival.findIndex((row: { id: string }) => row.id === urgent.id)).toBeGreaterThan(0);
  });

  it('ten patients accept one slot at once: one booking, the others told it is gone', async () => {
    await closeOpenOffers();
    await setClinic('waiting_list_offers_per_slot', 10);
    const start = wall(`${tuesday}T12:30`);
    const appointment = await book(await patient('Karen'), start);
    const waiting = [];
    for (let index = 0; index < 10; index++) {
      const id = await patient(`Espera${index}`);
      waiting.push({ patientId: id, entry: await wait(id, { timeRanges: [{ from: '12:30', to: '13:00' }] }) });
    }
    await cancel(appointment);
    await runJobs();
    const tokens = await Promise.all(waiting.map(async ({ patientId }) => t.mailer.tokenFor(await emailOf(patientId))));
    const answers = await Promise.all(
      tokens.map((token) => t.call('POST', `/api/public/waiting-list-offers/${token}`, { token: null })),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const states = answers.map((answer) => answer.json().data.state).sort();
    expect(states).toEqual(['accepted', ...Array(9).fill('gone')]);
    const [{ n }] = (
      await t.db.orm.execute<{ n: number }>(sql`select count(*)::int as n from appointments
        where account_id = ${t.clinic.accountId} and status = 'scheduled' and starts_at = ${start}`)
    ).rows as [{ n: number }];
    expect(n).toBe(1);
    const loser = answers.findIndex((answer) => answer.json().data.state === 'gone');
    const shown = await t.call('GET', `/api/public/waiting-list-offers/${tokens[loser]}`, { token: null });
    expect(shown.json().data.state).toBe('gone');
    const entries = await Promise.all(
      waiting.map(async ({ entry }) => (await t.call('GET', `/api/waiting-list/${entry.id}`)).json().data.status),
    );
    expect(entries.sort()).toEqual(['booked', ...Array(9).fill('waiting')]);
  });

  it('a hold expires: its link says so, the entry keeps waiting, and the next entry is offered the time', async () => {
    await closeOpenOffers();
    await setClinic('waiting_list_offers_per_slot', 1);
    const start = wall(`${tuesday}T13:30`);
    const appointment = await book(await patient('Lola'), start);
    const first = await wait(await patient('Mara'), { timeRanges: [{ from: '13:30', to: '14:00' }] });
    const second = await wait(await patient('Nora'), { timeRanges: [{ from: '13:30', to: '14:00' }] });
    await cancel(appointment);
    expect((await offersOf(first.id)).length).toBe(1);
    expect(await offersOf(second.id)).toEqual([]);
    await runJobs();
    const token = t.mailer.tokenFor(
      await emailOf((await t.call('GET', `/api/waiting-list/${first.id}`)).json().data.patientId),
    );

    const later = new Date(Date.now() + 16 * 60_000);
    expect((await links().accept(token, '203.0.113.9', later)).data.state).toBe('expired');
    expect((await t.call('GET', `/api/waiting-list/${first.id}`)).json().data.status).toBe('waiting');

    // The hold's end: the next entry is offered what is still free.
    await t.db.orm.execute(
      sql`update waiting_list_offers set expires_at = now() - interval '1 second' where account_id = ${t.clinic.accountId}`,
    );
    await makeJobsDue(t.db, t.clinic.accountId);
    await runJobs();
    const [next] = await offersOf(second.id);
    expect(next).toMatchObject({ startsAt: start.toISOString() });
    expect((await offersOf(first.id)).length).toBe(1);
  });

  it('staff offer a free start by hand; a busy one is refused', async () => {
    await closeOpenOffers();
    const thursday = nextDay('thursday');
    const entry = await wait(await patient('Olga'));
    const free = wall(`${thursday}T09:00`);
    const offered = await t.call('POST', `/api/waiting-list/${entry.id}/offers`, {
      body: { professionalId: t.clinic.userId, startsAt: free.toISOString() },
    });
    expect(offered.statusCode, offered.body).toBe(201);
    expect(offered.json()).toMatchObject({ code: 'waiting_list_offer_sent', data: { status: 'offered' } });
    await book(await patient('Paula'), wall(`${thursday}T10:00`));
    const busy = await t.call('POST', `/api/waiting-list/${entry.id}/offers`, {
      body: { professionalId: t.clinic.userId, startsAt: wall(`${thursday}T10:00`).toISOString() },
    });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe('waiting_list_slot_unavailable');
  });

  it("edits, removes (kept, audited), validates, and answers 404 for another clinic's entry", async () => {
    const entry = await wait(await patient('Rita'), { notes: 'Prefiere mañanas' });
    const bad = await t.call('POST', '/api/waiting-list', {
      body: {
        patientId: entry.id,
        treatmentId: cleaning,
        timeRanges: [{ from: '12:00', to: '10:00' }],
        weekdays: ['someday'],
      },
    });
    expect(bad.statusCode).toBe(400);
    expectFieldErrors(bad, [
      { path: 'weekdays.0', code: 'invalid_value' },
      { path: 'timeRanges.0.to', code: 'end_before_start' },
    ]);
    const stranger = await t.call('GET', `/api/waiting-list/${entry.id}`, { token: t.other.token });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().code).toBe('waiting_list_entry_not_found');
    for (const [method, url, body] of [
      ['PUT', `/api/waiting-list/${entry.id}`, { patientId: entry.id, treatmentId: cleaning, version: 1 }],
      ['DELETE', `/api/waiting-list/${entry.id}`, undefined],
      ['GET', `/api/waiting-list/${entry.id}/offers`, undefined],
      [
        'POST',
        `/api/waiting-list/${entry.id}/offers`,
        { professionalId: t.clinic.userId, startsAt: new Date().toISOString() },
      ],
    ] as const) {
      const answer = await t.call(method, url, { token: t.other.token, body });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
    }
    const current = (await t.call('GET', `/api/waiting-list/${entry.id}`)).json().data;
    const edited = await t.call('PUT', `/api/waiting-list/${entry.id}`, {
      body: { patientId: current.patientId, treatmentId: cleaning, priority: 'high', version: current.version },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      code: 'waiting_list_entry_updated',
      data: { priority: 'high', notes: null },
    });
    const removed = await t.call('DELETE', `/api/waiting-list/${entry.id}`);
    expect(removed.json()).toEqual({ code: 'waiting_list_entry_deleted' });
    expect((await t.call('GET', `/api/waiting-list/${entry.id}`)).statusCode).toBe(404);
    const [kept] = (
      await t.db.orm.execute<{ deleted: boolean }>(
        sql`select deleted_at is not null as deleted from waiting_list_entries where id = ${entry.id}`,
      )
    ).rows;
    expect(kept?.deleted).toBe(true);
    expect((await t.auditEvents('waiting_list_entry_deleted')).some((event) => event.entityId === entry.id)).toBe(true);
  });
});
