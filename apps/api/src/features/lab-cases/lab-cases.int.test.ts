import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedClinicalPlan } from '../../../bench/clinical-plan-seed.ts';
import { restoreClock, setClock } from '../../../test/clock.ts';
import { insertProvider } from '../../../test/commercial.ts';
import { counter } from '../../../test/counter.ts';
import { expectFieldErrors, expectRefusedAsClinic, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/**
 * Dental lab cases (issue 41): the state machine and its events, stale versions, the seating
 * warning around the day before the appointment (the clinic's today, in its zone) in the case list
 * and in the agenda's calendar, the overdue list, the invoice of the same lab, isolation, levels,
 * audit and the database keeping cases and events.
 */
describe.each(availableBackends())('lab cases on %s', (backend) => {
  const t = useTestClinic(backend, { patient: { firstName: 'Lucía', lastName: 'Fernández' } });
  const zone = 'America/Argentina/Buenos_Aires';
  const next = counter();
  let lab: string;
  let otherLab: string;

  beforeAll(async () => {
    await t.db.orm.execute(sql`update accounts set time_zone = ${zone} where id = ${t.clinic.accountId}`);
    lab = await insertProvider(t, { fantasyName: 'Laboratorio Dental Sur' });
    otherLab = await insertProvider(t, { fantasyName: 'Ortolab' });
  });
  afterEach(() => restoreClock());

  /** Noon in Buenos Aires (UTC−3) of `day`: the clinic's today is `day` (days before the sessions' own, which stay valid). */
  const today = (day: string) => setClock(`${day}T15:00:00Z`);

  const newCase = (body: Record<string, unknown> = {}, token?: string) =>
    t.call('POST', '/api/lab-cases', {
      body: { patientId: t.patientId, providerId: lab, workType: 'crown', teeth: [21], shade: 'A2', ...body },
      ...(token ? { token } : {}),
    });
  async function created(body: Record<string, unknown> = {}) {
    const response = await newCase(body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; version: number; [key: string]: unknown };
  }
  const step = (id: string, name: string, body: Record<string, unknown>) =>
    t.call('POST', `/api/lab-cases/${id}/${name}`, { body });
  async function stepped(id: string, name: string, body: Record<string, unknown>) {
    const response = await step(id, name, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: string; version: number; status: string; [key: string]: unknown };
  }
  const getCase = async (id: string) => (await t.call('GET', `/api/lab-cases/${id}`)).json().data;

  /** A scheduled ten-minute appointment of the patient on `day` (from 08:00 in Buenos Aires, each after the last). */
  async function appointment(
    day: string,
    patientId = t.patientId,
    accountId = t.clinic.accountId,
    userId = t.clinic.userId,
  ) {
    const id = newId();
    const startsAt = new Date(Date.parse(`${day}T11:00:00Z`) + (next() % 60) * 11 * 60_000);
    const endsAt = new Date(startsAt.getTime() + 10 * 60_000);
    await t.db.orm.execute(sql`insert into appointments (account_id, id, patient_id, professional_id, starts_at, ends_at, time_zone)
      values (${accountId}, ${id}, ${patientId}, ${userId}, ${startsAt.toISOString()}, ${endsAt.toISOString()}, ${zone})`);
    return { id, startsAt };
  }

  it('validates each field with its code and never answers 500', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ workType: 'tiara' }, 'workType'],
      [{ teeth: [19] }, 'teeth'],
      [{ teeth: [21, 21] }, 'teeth'],
      [{ shade: 'x'.repeat(41) }, 'shade'],
      [{ instructions: 'a\u0000b' }, 'instructions'],
      [{ dueOn: '2030-02-30' }, 'dueOn'],
      [{ providerId: 'nope' }, 'providerId'],
      [{ appointmentId: 'nope' }, 'appointmentId'],
    ];
    for (const [body, field] of cases) {
      const response = await newCase(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const paths = response.json().details.fields.map((f: { path: string }) => f.path.split('.')[0]);
      expect(paths, JSON.stringify(body)).toContain(field);
    }
    const draft = await created();
    expectFieldErrors(
      await step(draft.id, 'send', { version: draft.version, sentOn: '2026-03-10', dueOn: '2026-03-09' }),
      [{ path: 'dueOn', code: 'due_before_date' }],
    );
    expectFieldErrors(await step(draft.id, 'cancel', { version: draft.version, reason: '' }), [
      { path: 'reason', code: 'required' },
    ]);
  });

  it('sends, receives, checks, returns for a remake, sends again and seats, each step an event and an audit', async () => {
    today('2026-03-10');
    const visit = await appointment('2026-03-20');
    const draft = await created({ material: 'Zirconio', instructions: 'Margen subgingival' });
    expect(draft).toMatchObject({
      status: 'draft',
      providerName: 'Laboratorio Dental Sur',
      patientName: 'Lucía Fernández',
    });
    let current = await stepped(draft.id, 'send', {
      version: draft.version,
      sentOn: '2026-03-10',
      dueOn: '2026-03-15',
    });
    expect(current).toMatchObject({ status: 'sent', sentOn: '2026-03-10', dueOn: '2026-03-15' });
    current = await stepped(current.id, 'receive', { version: current.version, receivedOn: '2026-03-14' });
    current = await stepped(current.id, 'check', { version: current.version, checkedOn: '2026-03-14' });
    current = await stepped(current.id, 'return', {
      version: current.version,
      returnedOn: '2026-03-14',
      reason: 'Color más claro que A2',
    });
    expect(current).toMatchObject({ status: 'returned', remakeCount: 1, returnReason: 'Color más claro que A2' });
    current = await stepped(current.id, 'send', {
      version: current.version,
      sentOn: '2026-03-14',
      dueOn: '2026-03-18',
    });
    expect(current).toMatchObject({ status: 'sent', receivedOn: null, checkedOn: null, dueOn: '2026-03-18' });
    current = await stepped(current.id, 'receive', { version: current.version, receivedOn: '2026-03-17' });
    current = await stepped(current.id, 'check', { version: current.version, checkedOn: '2026-03-17' });
    const seated = await t.call('POST', `/api/lab-cases/${current.id}/seat`, {
      body: { version: current.version, seatedOn: '2026-03-20', appointmentId: visit.id },
    });
    expect(seated.statusCode, seated.body).toBe(200);
    expect(seated.json()).toMatchObject({
      code: 'lab_case_seated',
      data: { status: 'seated', seatedOn: '2026-03-20', appointmentId: visit.id, remakeCount: 1 },
    });
    const detail = await getCase(draft.id);
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual([
      'created',
      'sent',
      'received',
      'checked',
      'returned',
      'sent',
      'received',
      'checked',
      'seated',
    ]);
    expect(detail.events[4]).toMatchObject({
      fromStatus: 'checked',
      toStatus: 'returned',
      reason: 'Color más claro que A2',
      onDate: '2026-03-14',
      byName: expect.any(String),
    });
    expect(detail.events[5]).toMatchObject({ fromStatus: 'returned', toStatus: 'sent', dueOn: '2026-03-18' });
    for (const action of ['created', 'sent', 'received', 'checked', 'returned', 'seated']) {
      const events = (await t.auditEvents(`lab_case_${action}`)).filter((e) => e.entityId === draft.id);
      expect(events.length, action).toBeGreaterThan(0);
      expect(events[0]).toMatchObject({ patientId: t.patientId, userId: t.clinic.userId });
    }
    // The patient's list holds it, seated.
    const mine = (await t.call('GET', `/api/lab-cases?patientId=${t.patientId}`)).json();
    expect(mine.data.find((c: { id: string }) => c.id === draft.id)).toMatchObject({ status: 'seated' });
  });

  it('refuses steps the state does not allow, stale versions and edits of a closed case', async () => {
    today('2026-03-10');
    const draft = await created();
    for (const name of ['receive', 'check', 'seat', 'return']) {
      const response = await step(draft.id, name, {
        version: draft.version,
        receivedOn: '2026-03-10',
        checkedOn: '2026-03-10',
        seatedOn: '2026-03-10',
        returnedOn: '2026-03-10',
        reason: 'x',
      });
      expect(response.statusCode, name).toBe(409);
      expect(response.json().code).toBe('lab_case_transition_invalid');
    }
    const sent = await stepped(draft.id, 'send', { version: draft.version, sentOn: '2026-03-10', dueOn: '2026-03-12' });
    const stale = await step(draft.id, 'receive', { version: draft.version, receivedOn: '2026-03-11' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'version_conflict', details: { current: { status: 'sent' } } });
    expect((await getCase(draft.id)).status).toBe('sent');
    const staleEdit = await t.call('PUT', `/api/lab-cases/${draft.id}`, {
      body: { providerId: lab, workType: 'bridge', teeth: [21, 22], version: draft.version },
    });
    expect(staleEdit.json().code).toBe('version_conflict');
    expect((await getCase(draft.id)).workType).toBe('crown');
    const edited = await t.call('PUT', `/api/lab-cases/${draft.id}`, {
      body: { providerId: lab, workType: 'bridge', teeth: [21, 22], dueOn: '2026-03-13', version: sent.version },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ code: 'lab_case_updated', data: { workType: 'bridge', teeth: [21, 22] } });
    const [updatedEvent] = (await t.auditEvents('lab_case_updated')).filter((e) => e.entityId === draft.id);
    expect(updatedEvent).toMatchObject({ before: { workType: 'crown', teeth: [21] }, after: { workType: 'bridge' } });
    const early = await step(draft.id, 'receive', { version: edited.json().data.version, receivedOn: '2026-03-09' });
    expectFieldErrors(early, [{ path: 'receivedOn', code: 'date_before_order' }]);
    const cancelled = await stepped(draft.id, 'cancel', {
      version: edited.json().data.version,
      reason: 'El paciente desiste',
    });
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelReason: 'El paciente desiste' });
    expect(
      (await step(draft.id, 'send', { version: cancelled.version, sentOn: '2026-03-10', dueOn: '2026-03-12' })).json()
        .code,
    ).toBe('lab_case_transition_invalid');
    const closed = await t.call('PUT', `/api/lab-cases/${draft.id}`, {
      body: { providerId: lab, workType: 'crown', version: cancelled.version },
    });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().code).toBe('lab_case_closed');
  });

  it('warns of a seating appointment whose case is not back by the day before, in the list and in the agenda', async () => {
    today('2026-04-01');
    // The appointment is on the 4th: the day before is the 3rd.
    const visit = await appointment('2026-04-04');
    const quiet = await appointment('2026-04-04');
    const draft = await created({ appointmentId: visit.id });
    const onTime = await created({ appointmentId: visit.id, teeth: [11] });
    const late = await created({ appointmentId: visit.id, teeth: [12] });
    const sentOnTime = await stepped(onTime.id, 'send', {
      version: onTime.version,
      sentOn: '2026-04-01',
      dueOn: '2026-04-03',
    });
    await stepped(late.id, 'send', { version: late.version, sentOn: '2026-04-01', dueOn: '2026-04-04' });

    const flags = async () => {
      const list = (await t.call('GET', `/api/lab-cases?appointmentId=${visit.id}`)).json();
      return Object.fromEntries(
        list.data.map((c: { id: string; seatingWarning: boolean; atRisk: boolean }) => [c.id, c.seatingWarning]),
      );
    };
    const calendarFlags = async () => {
      const calendar = (
        await t.call(
          'GET',
          '/api/appointments/calendar?from=2026-04-04T03:00:00Z&to=2026-04-05T03:00:00Z&inactive=true',
        )
      ).json();
      return Object.fromEntries(
        calendar.data.map((a: { id: string; labCaseWarning: boolean }) => [a.id, a.labCaseWarning]),
      );
    };
    // Two days before: the draft (not even sent) and the case due on the day itself warn; the one due the day before does not.
    expect(await flags()).toEqual({ [draft.id]: true, [onTime.id]: false, [late.id]: true });
    expect(await calendarFlags()).toEqual({ [visit.id]: true, [quiet.id]: false });

    // Only the case due the day before left: no warning until the day before comes without it.
    await stepped(draft.id, 'cancel', { version: draft.version, reason: 'Duplicado' });
    const lateNow = await getCase(late.id);
    await t.call('PUT', `/api/lab-cases/${late.id}`, {
      body: {
        providerId: lab,
        workType: 'crown',
        teeth: [12],
        dueOn: '2026-04-02',
        appointmentId: visit.id,
        version: lateNow.version,
      },
    });
    expect(await calendarFlags()).toEqual({ [visit.id]: false, [quiet.id]: false });
    today('2026-04-02');
    expect(await calendarFlags()).toEqual({ [visit.id]: false, [quiet.id]: false });
    today('2026-04-03');
    expect(await flags()).toMatchObject({ [onTime.id]: true, [late.id]: true });
    expect(await calendarFlags()).toEqual({ [visit.id]: true, [quiet.id]: false });
    const received = await stepped(onTime.id, 'receive', { version: sentOnTime.version, receivedOn: '2026-04-03' });
    const lateCase = await getCase(late.id);
    await stepped(late.id, 'receive', { version: lateCase.version, receivedOn: '2026-04-03' });
    expect(received.seatingWarning).toBe(false);
    expect(await calendarFlags()).toEqual({ [visit.id]: false, [quiet.id]: false });
    // The late one, overdue from the 3rd (the clinic's today) while it was not received.
    expect(lateCase).toMatchObject({ overdue: true, atRisk: true });
  });

  it('lists the open cases soonest due first, by lab, state and overdue, paginated', async () => {
    today('2026-05-10');
    const patient = await t.newPatient();
    const a = await created({ patientId: patient, teeth: [31] });
    const b = await created({ patientId: patient, teeth: [32], providerId: otherLab });
    const c = await created({ patientId: patient, teeth: [33] });
    await stepped(a.id, 'send', { version: a.version, sentOn: '2026-05-01', dueOn: '2026-05-08' });
    await stepped(b.id, 'send', { version: b.version, sentOn: '2026-05-01', dueOn: '2026-05-20' });
    const mine = (ids: { id: string }[]) => ids.map((row) => row.id).filter((id) => [a.id, b.id, c.id].includes(id));
    const open = (await t.call('GET', '/api/lab-cases?pageSize=100')).json();
    expect(mine(open.data)).toEqual([a.id, b.id, c.id]);
    const overdue = (await t.call('GET', '/api/lab-cases?overdue=true&pageSize=100')).json();
    expect(mine(overdue.data)).toEqual([a.id]);
    expect(overdue.data.find((row: { id: string }) => row.id === a.id)).toMatchObject({ overdue: true, atRisk: true });
    const byLab = (await t.call('GET', `/api/lab-cases?providerId=${otherLab}&pageSize=100`)).json();
    expect(byLab.data.map((row: { id: string }) => row.id)).toEqual([b.id]);
    const drafts = (await t.call('GET', `/api/lab-cases?status=draft&patientId=${patient}`)).json();
    expect(drafts.data.map((row: { id: string }) => row.id)).toEqual([c.id]);
    const paged = (await t.call('GET', `/api/lab-cases?patientId=${patient}&pageSize=2&page=2`)).json();
    expect(paged).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(paged.data).toHaveLength(1);
    expect((await t.call('GET', '/api/lab-cases?pageSize=101')).statusCode).toBe(400);
  });

  it("links the lab's invoice (a purchase of the same provider) and lists its cases; another provider's is refused", async () => {
    const purchase = async (providerId: string, token = t.clinic.token) => {
      const response = await t.call('POST', '/api/purchases', {
        token,
        body: {
          providerId,
          documentType: 'invoice',
          pointOfService: '0003',
          documentNumber: String(1000 + next()),
          date: '2026-03-10',
          currency: 'argentine_peso',
          lines: [{ description: 'Corona de zirconio', quantity: '1', unitPrice: '100', vatRate: '21' }],
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.id as string;
    };
    const invoice = await purchase(lab);
    const first = await created({ purchaseId: invoice });
    const second = await created({ purchaseId: invoice, teeth: [22] });
    expect(first).toMatchObject({ purchaseId: invoice, purchaseNumber: expect.stringContaining('0003') });
    const ofInvoice = (await t.call('GET', `/api/lab-cases?purchaseId=${invoice}`)).json();
    expect(ofInvoice.data.map((row: { id: string }) => row.id).sort()).toEqual([first.id, second.id].sort());
    const foreign = await purchase(otherLab);
    const refused = await newCase({ purchaseId: foreign });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('lab_case_purchase_other_provider');
    const edit = await t.call('PUT', `/api/lab-cases/${first.id}`, {
      body: { providerId: lab, workType: 'crown', teeth: [21], purchaseId: foreign, version: first.version },
    });
    expect(edit.json().code).toBe('lab_case_purchase_other_provider');
    // Moving the case to the other lab with the first lab's invoice is refused too.
    const moved = await t.call('PUT', `/api/lab-cases/${first.id}`, {
      body: { providerId: otherLab, workType: 'crown', teeth: [21], purchaseId: invoice, version: first.version },
    });
    expect(moved.json().code).toBe('lab_case_purchase_other_provider');
    const theirLab = await insertProvider(t, { fantasyName: 'Lab ajeno' }, t.other);
    const theirs = await purchase(theirLab, t.other.token);
    expect((await newCase({ purchaseId: theirs })).json().code).toBe('purchase_not_found');
  });

  it("answers 404 for another clinic's case, patient, lab and appointment, and 409 for another patient's appointment", async () => {
    const mine = await created();
    for (const [method, url, body] of [
      ['GET', `/api/lab-cases/${mine.id}`, undefined],
      ['PUT', `/api/lab-cases/${mine.id}`, { providerId: lab, workType: 'crown', version: mine.version }],
      ['POST', `/api/lab-cases/${mine.id}/send`, { version: mine.version, sentOn: '2026-03-10', dueOn: '2026-03-12' }],
      ['POST', `/api/lab-cases/${mine.id}/cancel`, { version: mine.version, reason: 'x' }],
    ] as const) {
      const response = await t.call(method, url, { token: t.other.token, ...(body ? { body } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().code).toBe('lab_case_not_found');
    }
    const theirList = (await t.call('GET', '/api/lab-cases?pageSize=100', { token: t.other.token })).json();
    expect(theirList.data.map((row: { id: string }) => row.id)).not.toContain(mine.id);
    expect((await newCase({}, t.other.token)).json().code).toBe('patient_not_found');
    const theirLab = await insertProvider(t, { fantasyName: 'Lab ajeno 2' }, t.other);
    expect((await newCase({ providerId: theirLab })).json().code).toBe('provider_not_found');
    const theirPatient = await t.newPatient(t.other.token);
    const theirVisit = await appointment('2026-06-01', theirPatient, t.other.accountId, t.other.userId);
    expect((await newCase({ appointmentId: theirVisit.id })).json().code).toBe('appointment_not_found');
    const someoneElse = await t.newPatient();
    const otherVisit = await appointment('2026-06-01', someoneElse);
    const wrong = await newCase({ appointmentId: otherVisit.id });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().code).toBe('lab_case_appointment_other_patient');
    expect((await t.call('GET', `/api/lab-cases/${newId()}`)).statusCode).toBe(404);
  });

  it("is for an item of the patient's accepted treatment plan; any other item is refused", async () => {
    const patient = await t.newPatient();
    const plan = await seedClinicalPlan(t.db, t.clinic, patient, { items: 3 });
    const items = await t.call('GET', `/api/patients/${patient}/lab-case-plan-items`);
    expect(items.statusCode, items.body).toBe(200);
    const offered = items.json().data as { id: string; planId: string; label: string; tooth: number | null }[];
    expect(offered).toHaveLength(3);
    expect(offered.every((item) => item.planId === plan.planId)).toBe(true);
    const [crownItem] = offered;
    const mine = await created({ patientId: patient, treatmentPlanItemId: crownItem?.id });
    expect(mine).toMatchObject({ treatmentPlanItemId: crownItem?.id, treatmentPlanItemLabel: crownItem?.label });
    expect((await t.call('GET', `/api/lab-cases/${mine.id}`)).json().data.treatmentPlanItemLabel).toBe(
      crownItem?.label,
    );
    // Another patient's item, an unknown id: 409; another clinic's patient: 404.
    const wrong = await newCase({ treatmentPlanItemId: crownItem?.id });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().code).toBe('lab_case_plan_item_invalid');
    expect((await newCase({ treatmentPlanItemId: newId() })).json().code).toBe('lab_case_plan_item_invalid');
    const theirs = await t.call('GET', `/api/patients/${patient}/lab-case-plan-items`, { token: t.other.token });
    expect(theirs.statusCode).toBe(404);
    // A patient without an accepted plan has nothing to offer.
    expect((await t.call('GET', `/api/patients/${t.patientId}/lab-case-plan-items`)).json().data).toEqual([]);
  });

  it('lets each level read and write as the permission matrix says', async () => {
    await t.asLevel('user', async () => {
      expect((await t.call('GET', '/api/lab-cases')).statusCode).toBe(200);
      expect((await newCase()).statusCode).toBe(201);
    });
    const mine = await created();
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/lab-cases')).statusCode).toBe(403);
      expect((await t.call('GET', `/api/lab-cases/${mine.id}`)).statusCode).toBe(403);
      expect((await newCase()).statusCode).toBe(403);
      expect((await step(mine.id, 'cancel', { version: mine.version, reason: 'x' })).statusCode).toBe(403);
    });
  });

  it('the database keeps cases (never deleted) and their events (never changed)', async () => {
    const mine = await created();
    await expectRefusedAsClinic(t, sql`delete from lab_cases where id = ${mine.id}`);
    await expectRefusedAsClinic(t, sql`update lab_case_events set reason = 'x' where case_id = ${mine.id}`);
    await expectRefusedAsClinic(t, sql`delete from lab_case_events where case_id = ${mine.id}`);
    await expectRefusedAsClinic(t, sql`update lab_cases set status = 'seated' where id = ${mine.id}`);
  });
});
