import { brandPalette } from '@odontia/shared/brand-color';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  appointmentRow,
  bookAppointment,
  hoursFromNow,
  linksOf,
  makeJobsDue,
  reminderJobs,
  setClinicContact,
  tokenIn,
} from '../../../test/reminders.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { appointments, jobs } from '../../db/schema/index.ts';
import { backoffAfter } from '../jobs/jobs.worker.ts';
import { dropReminder, planReminder } from './reminder-plan.ts';

describe.each(availableBackends())('appointment reminders on %s', (backend) => {
  const t = useTestClinic(backend, { env: { PUBLIC_URL: 'https://odontia.example.com/clinica/' } });
  let seq = 0;
  /** A patient with an e-mail, and a free hour for the next appointment (the professional cannot overlap). */
  const scene = async (language = 'es') => {
    seq += 1;
    const email = `paciente.${seq}.${Date.now()}@correo.test`;
    const patientId = await t.newPatient(undefined, { email, language, firstName: 'Marta' });
    return { email, patientId, startsAt: hoursFromNow(3 + seq) };
  };
  const book = (patientId: string, startsAt: Date, plan = true) =>
    bookAppointment(t.db, {
      accountId: t.clinic.accountId,
      patientId,
      professionalId: t.clinic.userId,
      startsAt,
      plan,
    });
  const row = (id: string) => appointmentRow(t.db, t.clinic.accountId, id);
  const run = () => t.app.jobs.runDue();
  const mailsTo = (email: string) => t.mailer.sent.filter((mail) => mail.to === email);

  it('sends the reminder once, in the patient language, with the clinic, the time in its zone and two links', async () => {
    await setClinicContact(t.db, t.clinic.accountId, { address: 'Rua Augusta 12, Lisboa', phone: '+351 21 000 0000' });
    const { email, patientId } = await scene('pt');
    const startsAt = new Date('2099-03-03T09:30:00Z'); // 10:30 in Madrid
    const id = await book(patientId, startsAt);
    expect((await row(id)).reminderState).toBe('planned');
    // Far ahead: not due yet.
    await run();
    expect(mailsTo(email)).toHaveLength(0);
    await makeJobsDue(t.db, t.clinic.accountId);
    await run();
    await run();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail?.subject).toContain('Lembrete da sua consulta');
    expect(mail?.text).toContain('Rua Augusta 12, Lisboa');
    expect(mail?.text).toContain('+351 21 000 0000');
    expect(mail?.text).toContain('10:30');
    expect(mail?.text).toContain('2099');
    expect(mail?.text).toContain('https://odontia.example.com/clinica/appointment/confirm/');
    expect(mail?.text).toContain('https://odontia.example.com/clinica/appointment/cancel/');
    const stored = await row(id);
    expect(stored.reminderState).toBe('sent');
    expect(stored.reminderSentAt).not.toBeNull();
    const links = await linksOf(t.db, t.clinic.accountId, id);
    expect(links.map((link) => link.purpose).sort()).toEqual(['cancel', 'confirm']);
    // Stored hashed, expiring at the appointment's end.
    expect(links.every((link) => !mail?.text.includes(link.tokenHash))).toBe(true);
    expect(links[0]?.expiresAt.getTime()).toBe(stored.endsAt.getTime());
    const [job] = await reminderJobs(t.db, t.clinic.accountId, id);
    expect(job).toMatchObject({ state: 'done', attempts: 1, lockedBy: null });
    const audit = (await t.auditEvents('appointment_reminder_sent')).filter((event) => event.entityId === id);
    expect(audit).toHaveLength(1);
    expect(audit[0]?.userId).toBeNull();
  });

  it('is not sent after a cancel, and a move re-plans it for the new time', async () => {
    const cancelled = await scene();
    const cancelledId = await book(cancelled.patientId, cancelled.startsAt);
    await t.db.withTenant(t.clinic.accountId, async (tx) => {
      await tx
        .update(appointments)
        .set({ status: 'cancelled', cancelReason: 'other' })
        .where(eq(appointments.id, cancelledId));
      await dropReminder({ tx, accountId: t.clinic.accountId }, cancelledId);
    });

    // Cancelled without dropping the job (a bug elsewhere): the worker checks again and sends nothing.
    const raced = await scene();
    const racedId = await book(raced.patientId, raced.startsAt);
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.update(appointments).set({ status: 'cancelled', cancelReason: 'other' }).where(eq(appointments.id, racedId)),
    );

    // Moved: the old job is dropped, a new one carries the new start.
    const moved = await scene();
    const movedId = await book(moved.patientId, moved.startsAt);
    const newStart = hoursFromNow(40);
    await t.db.withTenant(t.clinic.accountId, async (tx) => {
      await tx
        .update(appointments)
        .set({ startsAt: newStart, endsAt: new Date(newStart.getTime() + 30 * 60_000) })
        .where(eq(appointments.id, movedId));
      await planReminder(
        { tx, accountId: t.clinic.accountId },
        { id: movedId, startsAt: newStart, patientHasEmail: true },
      );
    });
    // Moved without a new plan: the job's start no longer matches.
    const stale = await scene();
    const staleId = await book(stale.patientId, stale.startsAt);
    const staleStart = hoursFromNow(60);
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx
        .update(appointments)
        .set({ startsAt: staleStart, endsAt: new Date(staleStart.getTime() + 30 * 60_000) })
        .where(eq(appointments.id, staleId)),
    );

    await run();
    await makeJobsDue(t.db, t.clinic.accountId);
    await run();

    expect(mailsTo(cancelled.email)).toHaveLength(0);
    expect((await reminderJobs(t.db, t.clinic.accountId, cancelledId))[0]?.state).toBe('cancelled');
    expect(mailsTo(raced.email)).toHaveLength(0);
    expect((await reminderJobs(t.db, t.clinic.accountId, racedId))[0]?.state).toBe('done');
    expect(mailsTo(stale.email)).toHaveLength(0);
    expect((await row(staleId)).reminderState).toBe('planned');
    const movedJobs = await reminderJobs(t.db, t.clinic.accountId, movedId);
    expect(movedJobs.map((job) => job.state)).toEqual(['cancelled', 'done']);
    expect(mailsTo(moved.email)).toHaveLength(1);
    expect((await row(movedId)).reminderState).toBe('sent');
  });

  it('retries after a failed send with backoff, then sends (attempts = 2)', async () => {
    const { email, patientId, startsAt } = await scene();
    const id = await book(patientId, startsAt);
    t.mailer.failing = true;
    try {
      await run();
    } finally {
      t.mailer.failing = false;
    }
    const [waiting] = await reminderJobs(t.db, t.clinic.accountId, id);
    expect(waiting).toMatchObject({ state: 'queued', attempts: 1, lockedBy: null });
    expect(waiting?.lastError).toContain('SMTP');
    const delay = (waiting?.runAt.getTime() ?? 0) - Date.now();
    expect(delay).toBeGreaterThan(backoffAfter(1) - 10_000);
    expect(delay).toBeLessThanOrEqual(backoffAfter(1) + 1000);
    // Nothing of the failed attempt stayed: no links, still planned.
    expect(await linksOf(t.db, t.clinic.accountId, id)).toHaveLength(0);
    expect((await row(id)).reminderState).toBe('planned');
    await run();
    expect(mailsTo(email)).toHaveLength(0); // not due yet
    await makeJobsDue(t.db, t.clinic.accountId);
    await run();
    expect(mailsTo(email)).toHaveLength(1);
    const [job] = await reminderJobs(t.db, t.clinic.accountId, id);
    expect(job).toMatchObject({ state: 'done', attempts: 2 });
    expect((await row(id)).reminderState).toBe('sent');
  });

  it('ends failed after max attempts, visible on the appointment, audited', async () => {
    const { patientId, startsAt } = await scene();
    const id = await book(patientId, startsAt);
    await t.db.withTenant(t.clinic.accountId, (tx) => tx.update(jobs).set({ maxAttempts: 2 }).where(eq(jobs.key, id)));
    t.mailer.failing = true;
    try {
      await run();
      await makeJobsDue(t.db, t.clinic.accountId);
      await run();
    } finally {
      t.mailer.failing = false;
    }
    const [job] = await reminderJobs(t.db, t.clinic.accountId, id);
    expect(job).toMatchObject({ state: 'failed', attempts: 2 });
    const stored = await row(id);
    expect(stored.reminderState).toBe('failed');
    expect(stored.reminderError).toBe('The reminder e-mail could not be sent');
    const audit = (await t.auditEvents('appointment_reminder_failed')).filter((event) => event.entityId === id);
    expect(audit).toHaveLength(1);
    await makeJobsDue(t.db, t.clinic.accountId);
    await run();
    expect((await reminderJobs(t.db, t.clinic.accountId, id))[0]?.state).toBe('failed');
  });

  it('claims again a running job whose lock expired (a crashed process)', async () => {
    const { email, patientId, startsAt } = await scene();
    const id = await book(patientId, startsAt);
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx
        .update(jobs)
        .set({ state: 'running', attempts: 1, lockedBy: 'crashed', lockedUntil: sql`now() - interval '1 minute'` })
        .where(and(eq(jobs.key, id), eq(jobs.state, 'queued'))),
    );
    await run();
    expect(mailsTo(email)).toHaveLength(1);
    expect((await reminderJobs(t.db, t.clinic.accountId, id))[0]).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('through the appointments API: a move re-plans, a cancel drops, a link of the moved one is stale', async () => {
    const { email, patientId, startsAt } = await scene();
    const body = (start: Date) => ({
      patientId,
      professionalId: t.clinic.userId,
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 30 * 60_000).toISOString(),
      allowOutsideSchedule: true,
    });
    const booked = await t.call('POST', '/api/appointments', { body: body(startsAt) });
    expect(booked.statusCode).toBe(201);
    const first = booked.json().data;
    expect((await reminderJobs(t.db, t.clinic.accountId, first.id)).map((job) => job.state)).toEqual(['queued']);
    await run();
    expect(mailsTo(email)).toHaveLength(1);
    const token = tokenIn(mailsTo(email)[0]?.text ?? '', 'confirm');

    const later = hoursFromNow(80);
    const moved = await t.call('PUT', `/api/appointments/${first.id}`, {
      body: { ...body(later), version: (await row(first.id)).version },
    });
    expect(moved.statusCode).toBe(200);
    const second = moved.json().data;
    expect(second.id).not.toBe(first.id);
    const stale = await t.call('POST', `/api/public/appointment-links/${token}`, { token: null });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().details.why).toBe('rescheduled');
    expect((await reminderJobs(t.db, t.clinic.accountId, second.id)).map((job) => job.state)).toEqual(['queued']);
    expect((await row(second.id)).reminderState).toBe('planned');

    const cancelled = await t.call('POST', `/api/appointments/${second.id}/cancel`, {
      body: { reason: 'patient_request', version: (await row(second.id)).version },
    });
    expect(cancelled.statusCode).toBe(200);
    expect((await reminderJobs(t.db, t.clinic.accountId, second.id)).map((job) => job.state)).toEqual(['cancelled']);
    await makeJobsDue(t.db, t.clinic.accountId);
    await run();
    expect(mailsTo(email)).toHaveLength(1);
  });

  describe('public links', () => {
    const linkUrl = (token: string) => `/api/public/appointment-links/${token}`;
    const send = async () => {
      const { email, patientId, startsAt } = await scene('en');
      const id = await book(patientId, startsAt);
      await run();
      const mail = mailsTo(email).at(-1);
      if (!mail) throw new Error('no reminder');
      return { id, confirm: tokenIn(mail.text, 'confirm'), cancel: tokenIn(mail.text, 'cancel') };
    };

    it('shows the appointment without a session, confirms once, then says answered', async () => {
      const { id, confirm } = await send();
      const shown = await t.call('GET', linkUrl(confirm), { token: null });
      expect(shown.statusCode).toBe(200);
      expect(shown.json().data).toMatchObject({
        purpose: 'confirm',
        patientFirstName: 'Marta',
        language: 'en',
        status: 'scheduled',
        stale: null,
        timeZone: 'Europe/Madrid',
        // The product's own look until the clinic chooses a colour (issue 37)…
        clinicBrand: { color: null, palette: null, logoPath: null },
      });
      // …then the page wears it, in the shades the API chose to keep 4.5:1.
      const {
        uploadMaxMbLimit: _limit,
        updatedAt: _at,
        ...settings
      } = (await t.call('GET', '/api/settings/clinic')).json().data;
      const saved = await t.call('PUT', '/api/settings/clinic', { body: { ...settings, brandColor: '#0f766e' } });
      expect(saved.statusCode, saved.body).toBe(200);
      const branded = await t.call('GET', linkUrl(confirm), { token: null });
      expect(branded.json().data.clinicBrand).toEqual({
        color: '#0f766e',
        palette: brandPalette('#0f766e'),
        logoPath: null,
      });
      const answered = await t.call('POST', linkUrl(confirm), { token: null });
      expect(answered.statusCode).toBe(200);
      expect(answered.json().code).toBe('appointment_confirmed');
      const stored = await row(id);
      expect(stored).toMatchObject({
        confirmationChannel: 'reminder_link',
        confirmedBy: null,
        reminderState: 'confirmed',
        status: 'scheduled',
        version: 2,
      });
      expect(stored.confirmedAt).not.toBeNull();
      const again = await t.call('POST', linkUrl(confirm), { token: null });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'appointment_link_stale', details: { why: 'answered' } });
      expect((await row(id)).version).toBe(2);
      expect((await t.call('GET', linkUrl(confirm), { token: null })).json().data.stale).toBe('answered');
      const audit = (await t.auditEvents('appointment_confirmed')).filter((event) => event.entityId === id);
      expect(audit).toHaveLength(1);
      expect(audit[0]?.userId).toBeNull();
    });

    it('cancels through the cancel link; the confirm link is then stale', async () => {
      const { id, confirm, cancel } = await send();
      const answered = await t.call('POST', linkUrl(cancel), { token: null });
      expect(answered.statusCode).toBe(200);
      expect(answered.json().code).toBe('appointment_cancelled');
      expect(await row(id)).toMatchObject({
        status: 'cancelled',
        cancelReason: 'patient_request',
        cancelledBy: null,
        reminderState: 'cancelled_by_patient',
      });
      const late = await t.call('POST', linkUrl(confirm), { token: null });
      expect(late.statusCode).toBe(409);
      expect(late.json().details.why).toBe('cancelled');
      expect((await row(id)).status).toBe('cancelled');
      expect((await t.auditEvents('appointment_cancelled')).some((event) => event.entityId === id)).toBe(true);
    });

    it('a moved, completed or past appointment: the link says so and changes nothing', async () => {
      const moved = await send();
      await t.db.withTenant(t.clinic.accountId, (tx) =>
        tx.update(appointments).set({ status: 'rescheduled' }).where(eq(appointments.id, moved.id)),
      );
      expect((await t.call('GET', linkUrl(moved.confirm), { token: null })).json().data.stale).toBe('rescheduled');
      const refused = await t.call('POST', linkUrl(moved.cancel), { token: null });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().details.why).toBe('rescheduled');
      expect(await row(moved.id)).toMatchObject({ status: 'rescheduled', version: 1 });

      const done = await send();
      await t.db.withTenant(t.clinic.accountId, (tx) =>
        tx.update(appointments).set({ status: 'completed' }).where(eq(appointments.id, done.id)),
      );
      expect((await t.call('POST', linkUrl(done.cancel), { token: null })).json().details.why).toBe('completed');

      const past = await send();
      const before = hoursFromNow(-2);
      await t.db.withTenant(t.clinic.accountId, (tx) =>
        tx
          .update(appointments)
          .set({ startsAt: before, endsAt: new Date(before.getTime() + 30 * 60_000) })
          .where(eq(appointments.id, past.id)),
      );
      expect((await t.call('GET', linkUrl(past.confirm), { token: null })).json().data.stale).toBe('past');
      expect((await t.call('POST', linkUrl(past.confirm), { token: null })).statusCode).toBe(409);
      expect((await row(past.id)).confirmedAt).toBeNull();
    });

    it('a token acts on its own appointment only; unknown and hostile tokens are 404/400 (414 over the path limit), never 500', async () => {
      const first = await send();
      const second = await send();
      expect((await t.call('POST', linkUrl(first.cancel), { token: null })).statusCode).toBe(200);
      expect(await row(second.id)).toMatchObject({ status: 'scheduled', version: 1 });
      const unknown = await t.call('GET', linkUrl('A'.repeat(43)), { token: null });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('invalid_token');
      expect((await t.call('POST', linkUrl('A'.repeat(43)), { token: null })).statusCode).toBe(404);
      for (const hostile of [
        '%00'.repeat(30),
        'x'.repeat(5000),
        `${'a'.repeat(30)}%00`,
        'short',
        '%F0%9F%98%80'.repeat(10),
      ]) {
        const response = await t.call('GET', linkUrl(hostile), { token: null });
        expect([400, 404, 414]).toContain(response.statusCode);
        const posted = await t.call('POST', linkUrl(hostile), { token: null });
        expect([400, 404, 414]).toContain(posted.statusCode);
      }
    });
  });
});
