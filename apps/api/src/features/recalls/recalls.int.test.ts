import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeJobsDue } from '../../../test/reminders.ts';
import { expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { jobs, recallAttempts } from '../../db/schema/index.ts';
import { recallMessageJobKind } from './recalls.service.ts';

/**
 * Recalls (issue 38): rules on the price list's treatments; one recall per finished attendance's
 * treatment with a rule, never two (finishing, an addendum), a newer one superseding; the list's
 * views and filters; attempts, booking and closing; an appointment of the treatment books it; the
 * automatic e-mail exactly once; the dashboard's figure; permissions and another clinic's ids.
 */

const zone = 'Europe/Madrid';

describe.each(availableBackends())('recalls on %s', (backend) => {
  const t = useTestClinic(backend, { patient: { email: 'lucia@example.com' } });

  beforeAll(async () => {
    await t.db.orm.execute(sql`update accounts set time_zone = ${zone} where id = ${t.clinic.accountId}`);
  });

  let counter = 0;
  async function treatment(rule: Record<string, unknown> = { recallInterval: 6, recallUnit: 'months' }) {
    counter += 1;
    return t.created<{
      id: string;
      recallInterval: number | null;
      recallUnit: string | null;
      recallReason: string | null;
    }>('/api/treatments', { body: { code: `R${counter}`, name: `Limpieza ${counter}`, durationMinutes: 30, ...rule } });
  }
  const attendanceUrl = (patientId: string, id?: string) =>
    `/api/patients/${patientId}/attendances${id ? `/${id}` : ''}`;
  function attendanceBody(treatmentIds: (string | null)[], overrides: Record<string, unknown> = {}) {
    return {
      date: '2026-03-28T23:30:00Z', // 00:30 on 29 March in Madrid (the night summer time starts)
      attendanceType: 'dentistry',
      professionalId: t.clinic.userId,
      titleResume: 'Limpieza',
      billable: false,
      attendanceFee: '0',
      finished: true,
      lines: treatmentIds.map((treatmentId, index) => ({
        description: `Línea ${index + 1}`,
        treatmentId,
        quantity: 1,
        price: '10',
      })),
      ...overrides,
    };
  }
  const attend = (patientId: string, treatmentIds: (string | null)[], overrides: Record<string, unknown> = {}) =>
    t.created<{ id: string; version: number }>(attendanceUrl(patientId), {
      body: attendanceBody(treatmentIds, overrides),
    });
  type RecallAnswer = {
    id: string;
    status: string;
    view: string;
    dueOn: string;
    reason: string | null;
    treatmentId: string;
    appointmentId: string | null;
    closedReason: string | null;
    attemptCount: number;
    attempts?: { channel: string; outcome: string; note: string | null; automatic: boolean }[];
  };
  async function recallsOf(query: Record<string, string>, token?: string) {
    const response = await t.call('GET', `/api/recalls?${new URLSearchParams(query)}`, { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { data: RecallAnswer[]; total: number };
  }
  const oneRecall = async (patientId: string, treatmentId: string, view = 'open') => {
    const { data } = await recallsOf({ patientId, treatmentId, view });
    expect(data).toHaveLength(1);
    return data[0] as RecallAnswer;
  };

  it('keeps a recall rule on the treatment, checked as the database checks it', async () => {
    const created = await treatment({ recallInterval: 6, recallUnit: 'months', recallReason: 'Limpieza semestral' });
    expect(created).toMatchObject({ recallInterval: 6, recallUnit: 'months', recallReason: 'Limpieza semestral' });
    // An edit that leaves the rule out (an older client) keeps it; blank clears it.
    const kept = await t.call('PUT', `/api/treatments/${created.id}`, {
      body: { code: created.id.slice(0, 8), name: 'Limpieza', durationMinutes: 30, version: 1 },
    });
    expect(kept.json().data).toMatchObject({
      recallInterval: 6,
      recallUnit: 'months',
      recallReason: 'Limpieza semestral',
    });
    const cleared = await t.call('PUT', `/api/treatments/${created.id}`, {
      body: { name: 'Limpieza', durationMinutes: 30, recallInterval: '', recallUnit: '', recallReason: '', version: 2 },
    });
    expect(cleared.json().data).toMatchObject({ recallInterval: null, recallUnit: null, recallReason: null });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ recallInterval: 6 }, 'recallUnit', 'required'],
      [{ recallUnit: 'weeks' }, 'recallInterval', 'required'],
      [{ recallInterval: 61, recallUnit: 'months' }, 'recallInterval', 'too_big'],
      [{ recallInterval: 1826, recallUnit: 'days' }, 'recallInterval', 'too_big'],
      [{ recallInterval: 0, recallUnit: 'days' }, 'recallInterval', 'too_small'],
      [{ recallInterval: 2, recallUnit: 'years' }, 'recallUnit', 'invalid_value'],
      [{ recallInterval: 2, recallUnit: 'days', recallReason: 'x'.repeat(201) }, 'recallReason', 'too_long'],
    ];
    for (const [rule, path, code] of cases) {
      const response = await t.call('POST', '/api/treatments', {
        body: { name: 'Mala regla', durationMinutes: 30, ...rule },
      });
      expect(response.statusCode, JSON.stringify(rule)).toBe(400);
      expect(response.json().details.fields).toEqual(expect.arrayContaining([expect.objectContaining({ path, code })]));
    }
  });

  it("makes one recall per treatment of a finished attendance, due from the clinic's day; never two", async () => {
    const patientId = await t.newPatient();
    const cleaning = await treatment({ recallInterval: 6, recallUnit: 'months', recallReason: 'Control de limpieza' });
    const postOp = await treatment({ recallInterval: 1, recallUnit: 'weeks' });
    const noRule = await treatment({});
    // An open attendance makes none; finishing it does.
    const open = await attend(patientId, [cleaning.id, cleaning.id, postOp.id, noRule.id, null], { finished: false });
    expect((await recallsOf({ patientId })).total).toBe(0);
    const finished = await t.call('PUT', attendanceUrl(patientId, open.id), {
      body: { ...attendanceBody([cleaning.id, cleaning.id, postOp.id, noRule.id, null]), version: open.version },
    });
    expect(finished.statusCode, finished.body).toBe(200);
    const made = await recallsOf({ patientId, view: 'closed' }).then(() => recallsOf({ patientId }));
    expect(made.total).toBe(2);
    const recall = await oneRecall(patientId, cleaning.id);
    // 29 March in Madrid + 6 months (UTC still said 28 March).
    expect(recall).toMatchObject({ dueOn: '2026-09-29', reason: 'Control de limpieza', status: 'pending' });
    expect(await oneRecall(patientId, postOp.id)).toMatchObject({ dueOn: '2026-04-05', reason: null });
    // An addendum to the finished attendance makes no second recall.
    const addendum = await t.call('POST', `${attendanceUrl(patientId, open.id)}/addenda`, { body: { text: 'Nota' } });
    expect(addendum.statusCode, addendum.body).toBe(201);
    expect((await recallsOf({ patientId })).total).toBe(2);
    const created = (await t.auditEvents('recall_created')).filter((event) => event.patientId === patientId);
    expect(created).toHaveLength(2);
  });

  it('closes the older open recall of the same treatment as superseded', async () => {
    const patientId = await t.newPatient();
    const cleaning = await treatment();
    await attend(patientId, [cleaning.id], { date: '2026-01-10T10:00:00Z' });
    const first = await oneRecall(patientId, cleaning.id);
    await attend(patientId, [cleaning.id], { date: '2026-02-10T10:00:00Z' });
    const second = await oneRecall(patientId, cleaning.id);
    expect(second.id).not.toBe(first.id);
    expect(second.dueOn).toBe('2026-08-10');
    const closed = await oneRecall(patientId, cleaning.id, 'closed');
    expect(closed).toMatchObject({ id: first.id, status: 'closed', closedReason: 'superseded' });
    const event = (await t.auditEvents('recall_closed')).find((row) => row.entityId === first.id);
    expect(event?.after).toMatchObject({ closedReason: 'superseded', supersededBy: second.id });
  });

  it('logs attempts, closes with a reason, and refuses a step on a closed recall', async () => {
    const patientId = await t.newPatient();
    const cleaning = await treatment();
    await attend(patientId, [cleaning.id]);
    const recall = await oneRecall(patientId, cleaning.id);
    expect(recall.view).toBe('overdue'); // due 2026-09-29, before today
    const attempt = await t.call('POST', `/api/recalls/${recall.id}/attempts`, {
      body: { channel: 'phone', outcome: 'no_answer', note: 'Sin respuesta' },
    });
    expect(attempt.statusCode, attempt.body).toBe(201);
    expect(attempt.json()).toMatchObject({
      code: 'recall_attempt_logged',
      data: {
        status: 'contacted',
        attemptCount: 1,
        attempts: [{ channel: 'phone', outcome: 'no_answer', note: 'Sin respuesta', automatic: false }],
      },
    });
    expect((await recallsOf({ patientId, view: 'contacted' })).total).toBe(1);
    expect((await recallsOf({ patientId, view: 'overdue' })).total).toBe(1);
    const bad = await t.call('POST', `/api/recalls/${recall.id}/attempts`, {
      body: { channel: 'pigeon', outcome: 'reached', note: 'x'.repeat(1001) },
    });
    expectFieldErrors(bad, [
      { path: 'channel', code: 'invalid_value' },
      { path: 'note', code: 'too_long', max: 1000 },
    ]);
    const superseded = await t.call('POST', `/api/recalls/${recall.id}/close`, { body: { reason: 'superseded' } });
    expect(superseded.statusCode).toBe(400);
    const closed = await t.call('POST', `/api/recalls/${recall.id}/close`, {
      body: { reason: 'declined', note: 'Prefiere esperar' },
    });
    expect(closed.json()).toMatchObject({
      code: 'recall_closed',
      data: { status: 'closed', view: 'closed', closedReason: 'declined', closeNote: 'Prefiere esperar' },
    });
    const again = await t.call('POST', `/api/recalls/${recall.id}/attempts`, {
      body: { channel: 'email', outcome: 'sent' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('recall_not_open');
    const audited = (await t.auditEvents('recall_attempt_logged')).find((row) => row.entityId === recall.id);
    expect(audited?.after).toMatchObject({ status: 'contacted', channel: 'phone', outcome: 'no_answer' });
  });

  it("is booked by hand with the patient's appointment, or by itself when the treatment is booked", async () => {
    const patientId = await t.newPatient();
    const otherPatient = await t.newPatient();
    const cleaning = await treatment();
    const postOp = await treatment({ recallInterval: 10, recallUnit: 'days' });
    await attend(patientId, [cleaning.id, postOp.id]);
    const byHand = await oneRecall(patientId, postOp.id);
    const booking = (patient: string, treatmentId: string | null, day: string) =>
      t.created<{ id: string }>('/api/appointments', {
        body: {
          patientId: patient,
          professionalId: t.clinic.userId,
          treatmentId,
          startsAt: `${day}T09:00:00Z`,
          endsAt: `${day}T09:30:00Z`,
          reason: 'Control',
          allowOutsideSchedule: true,
        },
      });
    // Another patient's appointment cannot book it; the patient's can.
    const foreign = await booking(otherPatient, null, '2031-01-06');
    const refused = await t.call('POST', `/api/recalls/${byHand.id}/book`, { body: { appointmentId: foreign.id } });
    expectFieldErrors(refused, [{ path: 'appointmentId', code: 'invalid_value' }]);
    const own = await booking(patientId, null, '2031-01-07');
    const booked = await t.call('POST', `/api/recalls/${byHand.id}/book`, { body: { appointmentId: own.id } });
    expect(booked.json()).toMatchObject({ code: 'recall_booked', data: { status: 'booked', appointmentId: own.id } });
    // An appointment for the cleaning books the cleaning's recall, and only it.
    const cleaningRecall = await oneRecall(patientId, cleaning.id);
    const otherTreatment = await booking(patientId, postOp.id, '2031-01-08');
    expect((await oneRecall(patientId, cleaning.id)).status).toBe('pending');
    expect(otherTreatment.id).toBeTruthy();
    const appointment = await booking(patientId, cleaning.id, '2031-01-09');
    const auto = await oneRecall(patientId, cleaning.id, 'booked');
    expect(auto).toMatchObject({ id: cleaningRecall.id, status: 'booked', appointmentId: appointment.id });
    const event = (await t.auditEvents('recall_booked')).find((row) => row.entityId === cleaningRecall.id);
    expect(event?.after).toMatchObject({ appointmentId: appointment.id, automatic: true });
  });

  it('follows its appointment when moved, and is open again when the appointment is cancelled or deleted', async () => {
    const cleaning = await treatment();
    const book = (patientId: string, day: string) =>
      t.created<{ id: string; version: number }>('/api/appointments', {
        body: {
          patientId,
          professionalId: t.clinic.userId,
          treatmentId: cleaning.id,
          startsAt: `${day}T09:00:00Z`,
          endsAt: `${day}T09:30:00Z`,
          reason: 'Control',
          allowOutsideSchedule: true,
        },
      });
    const reopened = async (recallId: string) =>
      (await t.auditEvents('recall_reopened')).filter((row) => row.entityId === recallId);

    // Called once (an attempt), then booked by the cleaning's appointment.
    const called = await t.newPatient();
    await attend(called, [cleaning.id]);
    const recall = await oneRecall(called, cleaning.id);
    const attempt = await t.call('POST', `/api/recalls/${recall.id}/attempts`, {
      body: { channel: 'phone', outcome: 'reached' },
    });
    expect(attempt.statusCode, attempt.body).toBe(201);
    const first = await book(called, '2031-02-03');
    expect(await oneRecall(called, cleaning.id, 'booked')).toMatchObject({ id: recall.id, appointmentId: first.id });

    // Moved: the new appointment is the recall's.
    const moved = await t.call('PUT', `/api/appointments/${first.id}`, {
      body: {
        patientId: called,
        professionalId: t.clinic.userId,
        treatmentId: cleaning.id,
        startsAt: '2031-02-04T09:00:00Z',
        endsAt: '2031-02-04T09:30:00Z',
        reason: 'Control',
        allowOutsideSchedule: true,
        version: first.version,
      },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const second = moved.json().data as { id: string; version: number };
    expect(second.id).not.toBe(first.id);
    expect(await oneRecall(called, cleaning.id, 'booked')).toMatchObject({ id: recall.id, appointmentId: second.id });

    // Cancelled: open again as contacted (someone had reached the patient), no appointment; audited.
    const cancelled = await t.call('POST', `/api/appointments/${second.id}/cancel`, {
      body: { reason: 'patient_request', version: second.version },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await oneRecall(called, cleaning.id)).toMatchObject({
      id: recall.id,
      status: 'contacted',
      appointmentId: null,
    });
    const [event] = await reopened(recall.id);
    expect(event?.before).toMatchObject({ status: 'booked' });
    expect(event?.after).toMatchObject({ status: 'contacted', why: 'appointment_cancelled' });
    // Restored: it books the recall again.
    const restored = await t.call('POST', `/api/appointments/${second.id}/restore`, {
      body: { version: cancelled.json().data.version, allowOutsideSchedule: true },
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await oneRecall(called, cleaning.id, 'booked')).toMatchObject({ id: recall.id, appointmentId: second.id });

    // Never called, booked, the appointment deleted: pending again.
    const quiet = await t.newPatient();
    await attend(quiet, [cleaning.id]);
    const quietRecall = await oneRecall(quiet, cleaning.id);
    const appointment = await book(quiet, '2031-02-05');
    expect((await oneRecall(quiet, cleaning.id, 'booked')).id).toBe(quietRecall.id);
    expect((await t.call('DELETE', `/api/appointments/${appointment.id}`)).statusCode).toBe(200);
    expect(await oneRecall(quiet, cleaning.id)).toMatchObject({ id: quietRecall.id, status: 'pending' });
    expect((await reopened(quietRecall.id))[0]?.after).toMatchObject({ why: 'appointment_deleted' });
  });

  it('filters by view, professional and treatment, paginated in due order', async () => {
    const patientId = await t.newPatient();
    const weekly = await treatment({ recallInterval: 1, recallUnit: 'weeks' });
    const today = clinicToday(zone);
    // Due in a week from today (due), and one due long ago (overdue).
    await attend(patientId, [weekly.id], { date: `${today}T10:00:00Z` });
    const other = await t.newPatient();
    await attend(other, [weekly.id], { date: '2026-01-05T10:00:00Z' });
    const due = await recallsOf({ treatmentId: weekly.id, view: 'due' });
    expect(due.data.map((row) => row.dueOn)).toEqual([addDays(clinicToday(zone, new Date(`${today}T10:00:00Z`)), 7)]);
    const overdue = await recallsOf({ treatmentId: weekly.id, view: 'overdue' });
    expect(overdue.data.map((row) => row.dueOn)).toEqual(['2026-01-12']);
    const all = await recallsOf({ treatmentId: weekly.id, professionalId: t.clinic.userId, pageSize: '1' });
    expect(all.total).toBe(2);
    expect(all.data.map((row) => row.dueOn)).toEqual(['2026-01-12']);
    const latestFirst = await recallsOf({ treatmentId: weekly.id, sort: '-dueOn', page: '1', pageSize: '1' });
    expect(latestFirst.data[0]?.dueOn).not.toBe('2026-01-12');
    const nobody = await recallsOf({ treatmentId: weekly.id, professionalId: t.other.userId });
    expect(nobody.total).toBe(0);
    const wrong = await t.call('GET', '/api/recalls?view=soon');
    expectFieldErrors(wrong, [{ path: 'querystring.view', code: 'invalid_value' }]);
  });

  it('sends the automatic e-mail once, in the patient language, logged as an attempt', async () => {
    const save = (recallMessageDays: number) =>
      t.call('PUT', '/api/schedules/reminders', {
        body: {
          remindersEnabled: true,
          reminderLeadMinutes: 1440,
          address: null,
          phone: '+34 600 000 000',
          recallMessageDays,
        },
      });
    expect((await save(61)).statusCode).toBe(400);
    expect((await save(7)).statusCode).toBe(200);
    const weekly = await treatment({ recallInterval: 1, recallUnit: 'weeks', recallReason: 'Revisión de la cirugía' });
    const today = clinicToday(zone);
    const english = await t.newPatient(undefined, { email: 'john@example.com', language: 'en' });
    const inactive = await t.newPatient(undefined, { email: 'ines@example.com', active: false });
    const noEmail = await t.newPatient(undefined, { email: '' });
    for (const patientId of [english, inactive, noEmail]) {
      await attend(patientId, [weekly.id], { date: `${addDays(today, -2)}T10:00:00Z` });
    }
    const recall = await oneRecall(english, weekly.id);
    const queued = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, recallMessageJobKind), eq(jobs.key, recall.id))),
    );
    expect(queued).toHaveLength(1);
    const sentBefore = t.mailer.sent.length;
    await makeJobsDue(t.db, t.clinic.accountId);
    await t.app.jobs.runDue();
    await makeJobsDue(t.db, t.clinic.accountId);
    await t.app.jobs.runDue();
    const sent = t.mailer.sent.slice(sentBefore);
    expect(sent.map((message) => message.to)).toEqual(['john@example.com']);
    expect(sent[0]?.subject).toMatch(/time for your check-up/);
    expect(sent[0]?.text).toContain('Revisión de la cirugía');
    const after = await t.call('GET', `/api/recalls/${recall.id}`);
    expect(after.json().data).toMatchObject({
      status: 'contacted',
      attempts: [{ channel: 'email', outcome: 'sent', automatic: true }],
    });
    expect((await oneRecall(inactive, weekly.id)).status).toBe('pending');
    expect((await oneRecall(noEmail, weekly.id)).status).toBe('pending');
    const attempts = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.select().from(recallAttempts).where(eq(recallAttempts.recallId, recall.id)),
    );
    expect(attempts).toHaveLength(1);
    expect((await t.auditEvents('recall_message_sent')).filter((row) => row.entityId === recall.id)).toHaveLength(1);
    await save(0);
  });

  it("counts this month's recalls due and booked on the dashboard", async () => {
    const figure = async () => (await t.call('GET', '/api/dashboard')).json().data.clinical.recalls;
    const before = await figure();
    const today = clinicToday(zone);
    expect(before.from).toBe(`${today.slice(0, 7)}-01`);
    const sameDay = await treatment({ recallInterval: 1, recallUnit: 'days' });
    const patientId = await t.newPatient();
    await attend(patientId, [sameDay.id], { date: `${addDays(`${today.slice(0, 7)}-01`, 0)}T10:00:00Z` });
    const recall = await oneRecall(patientId, sameDay.id);
    expect(recall.dueOn.slice(0, 7)).toBe(today.slice(0, 7));
    expect(await figure()).toMatchObject({ due: before.due + 1, booked: before.booked });
    await t.created('/api/appointments', {
      body: {
        patientId,
        professionalId: t.clinic.userId,
        treatmentId: sameDay.id,
        startsAt: '2031-02-03T09:00:00Z',
        endsAt: '2031-02-03T09:30:00Z',
        allowOutsideSchedule: true,
      },
    });
    expect(await figure()).toMatchObject({ due: before.due + 1, booked: before.booked + 1 });
  });

  it("reads and writes as the agenda does; another clinic's recall is not found", async () => {
    const patientId = await t.newPatient();
    const cleaning = await treatment();
    await attend(patientId, [cleaning.id]);
    const recall = await oneRecall(patientId, cleaning.id);
    await t.asLevel('user', async () => {
      expect((await recallsOf({ patientId })).total).toBe(1);
      const attempt = await t.call('POST', `/api/recalls/${recall.id}/attempts`, {
        body: { channel: 'message', outcome: 'reached' },
      });
      expect(attempt.statusCode).toBe(201);
    });
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/recalls')).statusCode).toBe(403);
      const write = await t.call('POST', `/api/recalls/${recall.id}/close`, { body: { reason: 'other' } });
      expect(write.statusCode).toBe(403);
    });
    expect((await t.call('GET', '/api/recalls', { token: null })).statusCode).toBe(401);
    // The other clinic sees none of them and finds none by id.
    expect((await recallsOf({}, t.other.token)).total).toBe(0);
    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['POST', '/attempts', { channel: 'phone', outcome: 'reached' }],
      ['POST', '/book', { appointmentId: recall.id }],
      ['POST', '/close', { reason: 'other' }],
    ] as const) {
      const response = await t.call(method, `/api/recalls/${recall.id}${path}`, { token: t.other.token, body });
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json().code).toBe('recall_not_found');
    }
    expect((await oneRecall(patientId, cleaning.id)).status).toBe('contacted');
  });
});
