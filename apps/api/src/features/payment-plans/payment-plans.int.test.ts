import { randomUUID } from 'node:crypto';
import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import Big from 'big.js';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { restoreClock, setClock } from '../../../test/clock.ts';
import { customerLedgerMismatches, openAmountOf } from '../../../test/commercial.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { insertIssuedSale } from '../../../test/sales-factory.ts';
import { expectFieldErrors, expectRefusedAsClinic, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { jobs } from '../../db/schema/index.ts';
import { instalmentReminderJobKind } from './payment-plans.service.ts';

/**
 * Payment plans (issue 40): the schedule stored adds up to the plan; collections pay instalments
 * oldest first (partly, then in full); overdue in the clinic's time zone; one reminder per
 * instalment, dropped on cancel; cancel and replace; idempotency; another clinic's ids; levels;
 * stale versions; the database refuses to edit a plan or an instalment.
 */
describe.each(availableBackends())('payment plans on %s', (backend) => {
  const t = useTestClinic(backend, {
    patient: { firstName: 'Lucía', lastName: 'Fernández', email: 'lucia@example.com' },
  });

  beforeAll(async () => {
    await t.db.orm.execute(
      sql`update accounts set time_zone = 'America/Argentina/Buenos_Aires' where id = ${t.clinic.accountId}`,
    );
  });
  afterEach(async () => {
    restoreClock();
    expect(await customerLedgerMismatches(t)).toEqual([]);
  });

  const invoice = (net = '1000') => insertIssuedSale(t, { patientId: t.patientId, net });
  const createPlan = (body: Record<string, unknown>, idempotencyKey: string = `plan-${randomUUID()}`, token?: string) =>
    t.call('POST', '/api/payment-plans', {
      body: { instalmentCount: 6, firstDueOn: '2026-11-10', frequency: 'monthly', ...body },
      idempotencyKey,
      ...(token ? { token } : {}),
    });
  const collect = (documentId: string, amount: string) =>
    t.call('POST', '/api/collections', {
      body: {
        patientId: t.patientId,
        date: '2026-10-15',
        amount,
        currency: 'argentine_peso',
        method: 'cash_payment',
        allocations: [{ documentId, amount }],
      },
    });
  const sum = (values: string[]) => values.reduce((total, value) => total.plus(value), new Big(0)).toFixed(2);

  it('validates each field with its code and never answers 500', async () => {
    const sale = await invoice();
    const cases: [Record<string, unknown>, string][] = [
      [{ documentId: 'nope' }, 'documentId'],
      [{ documentId: sale.id, instalmentCount: 0 }, 'instalmentCount'],
      [{ documentId: sale.id, instalmentCount: 61 }, 'instalmentCount'],
      [{ documentId: sale.id, instalmentCount: 'x' }, 'instalmentCount'],
      [{ documentId: sale.id, firstDueOn: '2026-02-30' }, 'firstDueOn'],
      [{ documentId: sale.id, frequency: 'daily' }, 'frequency'],
      [{ documentId: sale.id, annualRate: '300' }, 'annualRate'],
      [{ documentId: sale.id, annualRate: 'abc' }, 'annualRate'],
      [{ documentId: sale.id, amount: '-5' }, 'amount'],
      [{ documentId: sale.id, amount: '0.05' }, 'amount'],
      [{ documentId: sale.id, notes: 'a\u0000b' }, 'notes'],
    ];
    for (const [body, field] of cases) {
      const response = await createPlan(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        response.json().details.fields.map((f: { path: string }) => f.path),
        JSON.stringify(body),
      ).toContain(field);
    }
    const missingKey = await createPlan({ documentId: sale.id }, undefined as never);
    expect(missingKey.statusCode).toBe(201); // a fresh key by default…
    const none = await t.call('POST', '/api/payment-plans', {
      body: { documentId: sale.id, instalmentCount: 2, firstDueOn: '2026-11-10', frequency: 'monthly' },
      idempotencyKey: null,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('idempotency_key_required');
    const unknown = await createPlan({ documentId: randomUUID() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('sale_not_found');
  });

  it('stores a schedule that adds up to what the invoice owes, and instalments as due items', async () => {
    const sale = await invoice('1000'); // 1,210.00
    const response = await createPlan({ documentId: sale.id, instalmentCount: 7, firstDueOn: '2027-01-31' });
    expect(response.statusCode, response.body).toBe(201);
    const plan = response.json().data;
    expect(response.json().code).toBe('payment_plan_created');
    expect(plan).toMatchObject({
      documentId: sale.id,
      principal: '1210.00',
      interest: '0.00',
      total: '1210.00',
      paid: '0.00',
      pending: '1210.00',
      status: 'active',
      instalmentCount: 7,
      interestDocumentId: null,
    });
    expect(plan.instalments.map((i: { amount: string }) => i.amount)).toEqual([
      '172.85',
      '172.85',
      '172.85',
      '172.85',
      '172.85',
      '172.85',
      '172.90',
    ]);
    expect(plan.instalments.map((i: { dueOn: string }) => i.dueOn).slice(0, 3)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
    ]);
    expect(sum(plan.instalments.map((i: { amount: string }) => i.amount))).toBe('1210.00');
    const { rows } = await t.db.orm.execute<{ total: string }>(
      sql`select sum(amount)::text as total from payment_plan_instalments where plan_id = ${plan.id}`,
    );
    expect(rows[0]?.total).toBe('1210.00');
    // The invoice still owes what it owed: a plan is a schedule, not money.
    expect(await openAmountOf(t, sale.id)).toBe('1210.00');
    const audit = (await t.auditEvents('payment_plan_created')).find((event) => event.entityId === plan.id);
    expect(audit?.patientId).toBe(t.patientId);
    // Listed by document and by patient.
    const byDocument = await t.call('GET', `/api/payment-plans?documentId=${sale.id}`);
    expect(byDocument.json()).toMatchObject({ total: 1, data: [{ id: plan.id, documentNumber: sale.number }] });
    const byPatient = await t.call('GET', `/api/payment-plans?patientId=${t.patientId}&status=active`);
    expect(byPatient.json().data.map((p: { id: string }) => p.id)).toContain(plan.id);
  });

  it('collections pay the instalments oldest first, partly and then in full; paid in full the plan is completed', async () => {
    const sale = await invoice('1000'); // 1,210.00 → 6 × 201.66 + 201.70
    const plan = (await createPlan({ documentId: sale.id, instalmentCount: 6, firstDueOn: '2099-01-10' })).json().data;
    expect((await collect(sale.id, '300.00')).statusCode).toBe(201);
    let read = (await t.call('GET', `/api/payment-plans/${plan.id}`)).json().data;
    expect(read.instalments.slice(0, 3).map((i: { state: string; paid: string }) => [i.state, i.paid])).toEqual([
      ['paid', '201.66'],
      ['partly_paid', '98.34'],
      ['pending', '0.00'],
    ]);
    expect(read).toMatchObject({ paid: '300.00', pending: '910.00', status: 'active' });
    // The collection says which instalments it paid, on its screen and on its receipt.
    const second = await collect(sale.id, '300.00');
    const paidBy = await t.call('GET', `/api/collections/${second.json().data.id}/instalments`);
    expect(paidBy.json().data).toMatchObject([
      { documentId: sale.id, planId: plan.id, numbers: [2, 3], instalmentCount: 6 },
    ]);
    const receipt = await t.call('GET', `/api/collections/${second.json().data.id}/receipt`);
    expect(receipt.statusCode).toBe(200);
    expect(pdfText(receipt.rawPayload)).toContain('Cuotas 2 y 3 de 6');
    expect((await collect(sale.id, '-1')).statusCode).toBe(400);
    read = (await t.call('GET', `/api/payment-plans/${plan.id}`)).json().data;
    expect(read).toMatchObject({ paid: '600.00', pending: '610.00' });
    expect((await collect(sale.id, '610.00')).statusCode).toBe(201);
    read = (await t.call('GET', `/api/payment-plans/${plan.id}`)).json().data;
    expect(read.instalments.every((i: { state: string }) => i.state === 'paid')).toBe(true);
    expect(read.status).toBe('completed');
    const cancelled = await t.call('POST', `/api/payment-plans/${plan.id}/cancel`, {
      body: { version: read.version, reason: 'Error' },
    });
    expect(cancelled.statusCode).toBe(409);
    expect(cancelled.json().code).toBe('payment_plan_not_active');
  });

  it("is overdue from the day after its due date in the clinic's time zone, and listed as such", async () => {
    const sale = await invoice('100'); // 121.00
    const plan = (
      await createPlan({ documentId: sale.id, instalmentCount: 2, firstDueOn: '2026-06-10', frequency: 'weekly' })
    ).json().data;
    // 02:00 UTC on the 11th is still the 10th in Buenos Aires (UTC−3): due today, not overdue.
    setClock('2026-06-11T02:00:00Z');
    let read = (await t.call('GET', `/api/payment-plans/${plan.id}`)).json().data;
    expect(read.instalments[0].state).toBe('pending');
    expect(read.overdueCount).toBe(0);
    let overdue = (await t.call('GET', '/api/payment-plans/instalments?view=overdue')).json();
    expect(overdue.data.map((i: { planId: string }) => i.planId)).not.toContain(plan.id);
    // 03:00 UTC: the 11th in Buenos Aires.
    setClock('2026-06-11T03:00:00Z');
    read = (await t.call('GET', `/api/payment-plans/${plan.id}`)).json().data;
    expect(read.instalments.map((i: { state: string }) => i.state)).toEqual(['overdue', 'pending']);
    expect(read.overdueCount).toBe(1);
    overdue = (await t.call('GET', '/api/payment-plans/instalments?view=overdue&pageSize=100')).json();
    const mine = overdue.data.filter((i: { planId: string }) => i.planId === plan.id);
    expect(mine).toMatchObject([{ number: 1, instalmentCount: 2, amount: '60.50', state: 'overdue', paid: '0.00' }]);
    // The dashboard's figure is the overdue list's: how many, and what is owed of them.
    const dashboard = (await t.call('GET', '/api/dashboard')).json().data;
    const owed = overdue.data.reduce(
      (total: Big, row: { amount: string; paid: string }) => total.plus(row.amount).minus(row.paid),
      new Big(0),
    );
    expect(dashboard.financial.instalmentsOverdue).toEqual({ count: overdue.total, amount: owed.toFixed(2) });
    // Paid, it is no longer overdue.
    restoreClock();
    expect((await collect(sale.id, '60.50')).statusCode).toBe(201);
    setClock('2026-06-11T03:00:00Z');
    read = (await t.call('GET', `/api/payment-plans/${plan.id}`)).json().data;
    expect(read.instalments.map((i: { state: string }) => i.state)).toEqual(['paid', 'pending']);
    const due = (await t.call('GET', '/api/payment-plans/instalments?view=due&to=2026-06-30&pageSize=100')).json();
    expect(
      due.data.filter((i: { planId: string }) => i.planId === plan.id).map((i: { number: number }) => i.number),
    ).toEqual([2]);
  });

  it('reports the unpaid instalments due in a period, with CSV, XLSX and PDF exports', async () => {
    const sale = await invoice('100'); // 121.00 → 60.50 + 60.50
    const plan = (
      await createPlan({ documentId: sale.id, instalmentCount: 2, firstDueOn: '2031-03-03', frequency: 'biweekly' })
    ).json().data;
    expect((await collect(sale.id, '20.00')).statusCode).toBe(201);
    const period = 'from=2031-03-01&to=2031-03-31';
    const report = await t.call('GET', `/api/reports/payment-plan-instalments?${period}`);
    expect(report.statusCode, report.body).toBe(200);
    const { rows, totals } = report.json().data;
    const mine = rows.filter((row: { number: string }) => row.number === sale.number);
    expect(mine).toMatchObject([
      {
        dueOn: '2031-03-03',
        instalment: '1/2',
        amount: '60.50',
        paid: '20.00',
        owed: '40.50',
        instalmentState: 'partly_paid',
      },
      {
        dueOn: '2031-03-17',
        instalment: '2/2',
        amount: '60.50',
        paid: '0.00',
        owed: '60.50',
        instalmentState: 'pending',
      },
    ]);
    expect(totals.owed).toBe(
      rows.reduce((total: Big, row: { owed: string }) => total.plus(row.owed), new Big(0)).toFixed(2),
    );
    const csv = await t.call('GET', `/api/reports/payment-plan-instalments?${period}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Adeudado');
    expect(csv.body).toContain('Pago parcial');
    for (const format of ['xlsx', 'pdf']) {
      const file = await t.call('GET', `/api/reports/payment-plan-instalments?${period}&format=${format}`);
      expect(file.statusCode, format).toBe(200);
      expect(file.rawPayload.length).toBeGreaterThan(500);
    }
    void plan;
  });

  it('queues one reminder before and one after each instalment, once, and drops them when cancelled', async () => {
    const sale = await invoice('100');
    const key = `plan-${randomUUID()}`;
    const first = await createPlan({ documentId: sale.id, instalmentCount: 3, firstDueOn: '2099-03-10' }, key);
    const again = await createPlan({ documentId: sale.id, instalmentCount: 3, firstDueOn: '2099-03-10' }, key);
    expect(again.json().data.id).toBe(first.json().data.id);
    const plan = first.json().data;
    const queued = () =>
      t.db.withTenant(t.clinic.accountId, (tx) =>
        tx
          .select({ key: jobs.key, runAt: jobs.runAt, state: jobs.state })
          .from(jobs)
          .where(and(eq(jobs.kind, instalmentReminderJobKind), like(jobs.key, `${plan.instalments[0].id}%`))),
      );
    const mine = await queued();
    expect(mine.map((job) => job.key).sort()).toEqual([
      `${plan.instalments[0].id}:before`,
      `${plan.instalments[0].id}:overdue`,
    ]);
    // 3 days before at 09:00 in Buenos Aires (12:00 UTC).
    expect(mine.find((job) => job.key.endsWith(':before'))?.runAt.toISOString()).toBe('2099-03-07T12:00:00.000Z');
    const cancelled = await t.call('POST', `/api/payment-plans/${plan.id}/cancel`, {
      body: { version: plan.version, reason: 'El paciente paga de contado' },
    });
    // The clinic's setting: 0 days sends no reminder before, only the overdue one.
    const settings = (await t.call('GET', '/api/settings/clinic')).json().data;
    expect(settings.instalmentReminderDays).toBe(3);
    const { uploadMaxMbLimit: _limit, updatedAt: _updated, ...editable } = settings;
    const saved = await t.call('PUT', '/api/settings/clinic', { body: { ...editable, instalmentReminderDays: 0 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.instalmentReminderDays).toBe(0);
    const tooMany = await t.call('PUT', '/api/settings/clinic', {
      body: { ...editable, version: saved.json().data.version, instalmentReminderDays: 31 },
    });
    expect(tooMany.statusCode).toBe(400);
    const quiet = (
      await createPlan({ documentId: (await invoice('100')).id, instalmentCount: 1, firstDueOn: '2099-03-10' })
    ).json().data;
    const quietJobs = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx
        .select({ key: jobs.key })
        .from(jobs)
        .where(like(jobs.key, `${quiet.instalments[0].id}%`)),
    );
    expect(quietJobs.map((job) => job.key)).toEqual([`${quiet.instalments[0].id}:overdue`]);
    await t.db.orm.execute(sql`update accounts set instalment_reminder_days = 3 where id = ${t.clinic.accountId}`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await queued()).map((job) => job.state)).toEqual(['cancelled', 'cancelled']);
  });

  it('sends the patient one reminder before the due date and one once overdue, in their language, never twice', async () => {
    const sale = await invoice('100'); // 121.00
    const today = clinicToday('America/Argentina/Buenos_Aires');
    // Instalment 1 fell due yesterday; instalment 2 is due in 2 days (inside the 3-day lead).
    const yesterday = addDays(today, -1);
    const plan = (
      await createPlan({ documentId: sale.id, instalmentCount: 2, firstDueOn: yesterday, frequency: 'weekly' })
    ).json().data;
    const [first, second] = plan.instalments;
    const due = (key: string) =>
      t.db.withTenant(t.clinic.accountId, (tx) =>
        tx
          .update(jobs)
          .set({ runAt: new Date(Date.now() - 1000) })
          .where(and(eq(jobs.kind, instalmentReminderJobKind), eq(jobs.key, key))),
      );
    const sentBefore = t.mailer.sent.length;
    await due(`${first.id}:overdue`);
    await t.app.jobs.runDue();
    await due(`${first.id}:overdue`);
    await t.app.jobs.runDue();
    // Other tests' plans fell due too: this plan's mails name its invoice.
    const ours = () => t.mailer.sent.slice(sentBefore).filter((mail) => mail.text.includes(sale.number));
    let sent = ours();
    expect(sent.map((mail) => mail.to)).toEqual(['lucia@example.com']);
    expect(sent[0]?.subject).toMatch(/cuota 1 de 2 está vencida/);
    expect(sent[0]?.text).toContain('Estimada Lucía');
    expect(sent[0]?.text).toContain('venció el');
    expect(sent[0]?.text).toMatch(/60,50/);
    // Paid before its reminder: the one before instalment 2 sends nothing.
    expect((await collect(sale.id, '121.00')).statusCode).toBe(201);
    await due(`${second.id}:before`);
    await t.app.jobs.runDue();
    sent = ours();
    expect(sent).toHaveLength(1);
    const audit = (await t.auditEvents('instalment_reminder_sent')).filter((event) => event.entityId === plan.id);
    expect(audit).toHaveLength(1);
  });

  it('is idempotent, one active plan per invoice; cancel leaves the debt and a new plan replaces it over what is pending', async () => {
    const sale = await invoice('1000'); // 1,210.00
    const key = `plan-${randomUUID()}`;
    const [a, b] = await Promise.all([
      createPlan({ documentId: sale.id, instalmentCount: 3 }, key),
      createPlan({ documentId: sale.id, instalmentCount: 3 }, key),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().data.id).toBe(b.json().data.id);
    const plan = a.json().data;
    const second = await createPlan({ documentId: sale.id, instalmentCount: 3 });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('payment_plan_exists');
    expect((await collect(sale.id, '500.00')).statusCode).toBe(201);
    // A stale version changes nothing.
    const stale = await t.call('POST', `/api/payment-plans/${plan.id}/cancel`, {
      body: { version: plan.version + 1, reason: 'Nuevo plan' },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('version_conflict');
    const cancelKey = `cancel-${randomUUID()}`;
    const cancel = () =>
      t.call('POST', `/api/payment-plans/${plan.id}/cancel`, {
        body: { version: plan.version, reason: 'Nuevo plan' },
        idempotencyKey: cancelKey,
      });
    const cancelled = await cancel();
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({
      code: 'payment_plan_cancelled',
      data: { status: 'cancelled', cancelReason: 'Nuevo plan', paid: '500.00' },
    });
    expect((await cancel()).json().data.version).toBe(cancelled.json().data.version);
    const audit = (await t.auditEvents('payment_plan_cancelled')).filter((event) => event.entityId === plan.id);
    expect(audit).toHaveLength(1);
    expect(await openAmountOf(t, sale.id)).toBe('710.00');
    const replaced = await createPlan({ documentId: sale.id, instalmentCount: 4 });
    expect(replaced.statusCode, replaced.body).toBe(201);
    expect(replaced.json().data).toMatchObject({ principal: '710.00', total: '710.00', paid: '0.00' });
    expect(sum(replaced.json().data.instalments.map((i: { amount: string }) => i.amount))).toBe('710.00');
    const tooMuch = await createPlan({ documentId: (await invoice('10')).id, amount: '12.11' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().code).toBe('payment_plan_amount_exceeds_pending');
  });

  it('charges the interest by a debit note of the invoice: the account owes the plan total', async () => {
    const sale = await invoice('1000'); // 1,210.00
    // The note is issued at the invoice's point of sale, which must be open.
    const withoutPos = await createPlan({ documentId: sale.id, instalmentCount: 12, annualRate: '12' });
    expect(withoutPos.statusCode).toBe(409);
    expect(withoutPos.json().code).toBe('point_of_sale_inactive');
    expect(
      (await t.call('POST', '/api/points-of-sale', { body: { code: '0001', name: 'Recepción', active: true } }))
        .statusCode,
    ).toBe(201);
    const response = await createPlan({ documentId: sale.id, instalmentCount: 12, annualRate: '12' });
    expect(response.statusCode, response.body).toBe(201);
    const plan = response.json().data;
    expect(new Big(plan.interest).gt(0)).toBe(true);
    expect(new Big(plan.principal).plus(plan.interest).toFixed(2)).toBe(plan.total);
    expect(sum(plan.instalments.map((i: { amount: string }) => i.amount))).toBe(plan.total);
    expect(sum(plan.instalments.map((i: { interest: string }) => i.interest))).toBe(plan.interest);
    expect(plan.interestDocumentId).toBeTruthy();
    const note = (await t.call('GET', `/api/sales/${plan.interestDocumentId}`)).json().data;
    expect(note).toMatchObject({
      documentType: 'debit_note',
      status: 'issued',
      total: plan.interest,
      relatedDocumentId: sale.id,
    });
    // Paying the invoice and the note pays the instalments.
    expect((await collect(sale.id, '1210.00')).statusCode).toBe(201);
    expect((await collect(plan.interestDocumentId, plan.interest)).statusCode).toBe(201);
    const read = (await t.call('GET', `/api/payment-plans/${plan.id}`)).json().data;
    expect(read.status).toBe('completed');
  });

  it('refuses a plan on what is not an issued invoice, and the database refuses to edit a plan or an instalment', async () => {
    const sale = await invoice('100');
    const note = await insertIssuedSale(t, {
      patientId: t.patientId,
      documentType: 'credit_note',
      net: '10',
      relatedDocumentId: sale.id,
    });
    const onNote = await createPlan({ documentId: note.id });
    expect(onNote.statusCode).toBe(409);
    expect(onNote.json().code).toBe('payment_plan_document_invalid');
    const plan = (await createPlan({ documentId: sale.id, instalmentCount: 2 })).json().data;
    await expectRefusedAsClinic(t, sql`update payment_plans set total = 1 where id = ${plan.id}`);
    await expectRefusedAsClinic(t, sql`update payment_plan_instalments set amount = 1 where plan_id = ${plan.id}`);
    await expectRefusedAsClinic(t, sql`delete from payment_plans where id = ${plan.id}`);
  });

  it("answers another clinic's ids 404 and keeps to the levels", async () => {
    const sale = await invoice('100');
    const plan = (await createPlan({ documentId: sale.id, instalmentCount: 2 })).json().data;
    const theirs = await t.call('GET', `/api/payment-plans/${plan.id}`, { token: t.other.token });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe('payment_plan_not_found');
    const cancel = await t.call('POST', `/api/payment-plans/${plan.id}/cancel`, {
      token: t.other.token,
      body: { version: 1, reason: 'x' },
    });
    expect(cancel.statusCode).toBe(404);
    const onTheirs = await createPlan({ documentId: sale.id }, undefined, t.other.token);
    expect(onTheirs.statusCode).toBe(404);
    expect(onTheirs.json().code).toBe('sale_not_found');
    expect((await t.call('GET', '/api/payment-plans', { token: t.other.token })).json().total).toBe(0);
    expect(
      (await t.call('GET', '/api/payment-plans/instalments?view=open', { token: t.other.token })).json().total,
    ).toBe(0);
    await t.asLevel('user', async () => {
      expect((await t.call('GET', `/api/payment-plans/${plan.id}`)).statusCode).toBe(200);
    });
    await t.asLevel('customer', async () => {
      for (const [method, url, body] of [
        ['GET', '/api/payment-plans', undefined],
        ['GET', '/api/payment-plans/instalments', undefined],
        ['GET', `/api/payment-plans/${plan.id}`, undefined],
        [
          'POST',
          '/api/payment-plans',
          { documentId: sale.id, instalmentCount: 2, firstDueOn: '2026-11-10', frequency: 'monthly' },
        ],
        ['POST', `/api/payment-plans/${plan.id}/cancel`, { version: 1, reason: 'x' }],
      ] as const) {
        const response = await t.call(method, url, body ? { body } : {});
        expect(response.statusCode, `${method} ${url}`).toBe(403);
      }
    });
  });

  it('validates the cancel and the lists', async () => {
    expectFieldErrors(
      await t.call('POST', `/api/payment-plans/${randomUUID()}/cancel`, { body: { version: 1, reason: '' } }),
      [{ path: 'reason', code: 'required' }],
    );
    expect((await t.call('GET', '/api/payment-plans?status=x')).statusCode).toBe(400);
    expect((await t.call('GET', '/api/payment-plans/instalments?view=x')).statusCode).toBe(400);
    expect((await t.call('GET', '/api/payment-plans/nope')).statusCode).toBe(400);
    expect((await t.call('GET', `/api/payment-plans/${randomUUID()}`)).statusCode).toBe(404);
  });
});

/**
 * Payment plans on accepted budgets (issue 40): an implant budget paid in instalments before and
 * while the work is done. Interest-free; collections against the plan are on-account money tagged
 * to it (instalments paid oldest first); invoicing the budget later allocates that money; a second
 * plan 409; cancel keeps the money on account; another clinic 404; levels; Idempotency-Key.
 */
describe.each(availableBackends())('payment plans on budgets on %s', (backend) => {
  const t = useTestClinic(backend, { patient: { firstName: 'Marta', lastName: 'Gil', email: 'marta@example.com' } });
  const today = () => clinicToday('America/Argentina/Buenos_Aires');

  beforeAll(async () => {
    await t.db.orm.execute(
      sql`update accounts set time_zone = 'America/Argentina/Buenos_Aires' where id = ${t.clinic.accountId}`,
    );
    const pos = await t.call('POST', '/api/points-of-sale', {
      body: { code: '0001', name: 'Caja 0001', active: true },
    });
    expect(pos.statusCode, pos.body).toBe(201);
  });
  afterEach(async () => {
    expect(await customerLedgerMismatches(t)).toEqual([]);
  });

  /** An issued budget of the patient (implant 2,500 + crown 500 = 3,000, no VAT), accepted unless told. */
  async function budget(accept = true, patientId = t.patientId) {
    const created = await t.created<{ id: string; number: string }>('/api/sales', {
      body: {
        documentType: 'budget',
        patientId,
        pointOfService: '0001',
        date: today(),
        currency: 'argentine_peso',
        issue: true,
        lines: [
          { description: 'Implante pieza 36', quantity: '1', unitPrice: '2500', vatRate: '0', tooth: '36' },
          { description: 'Corona sobre implante', quantity: '1', unitPrice: '500', vatRate: '0', tooth: '36' },
        ],
      },
    });
    if (accept) {
      const decided = await t.call('POST', `/api/sales/${created.id}/decision`, {
        body: { decision: 'accepted', decidedOn: today() },
      });
      expect(decided.statusCode, decided.body).toBe(201);
    }
    return created;
  }
  const createPlan = (body: Record<string, unknown>, options: { idempotencyKey?: string; token?: string } = {}) =>
    t.call('POST', '/api/payment-plans', {
      body: { instalmentCount: 6, firstDueOn: addDays(today(), 10), frequency: 'monthly', ...body },
      idempotencyKey: options.idempotencyKey ?? `plan-${randomUUID()}`,
      ...(options.token ? { token: options.token } : {}),
    });
  const collect = (planId: string, amount: string, idempotencyKey = `c-${randomUUID()}`) =>
    t.call('POST', '/api/collections', {
      body: {
        patientId: t.patientId,
        date: today(),
        amount,
        currency: 'argentine_peso',
        method: 'cash_payment',
        paymentPlanId: planId,
      },
      idempotencyKey,
    });
  const states = async (planId: string) =>
    (await t.call('GET', `/api/payment-plans/${planId}`))
      .json()
      .data.instalments.map((i: { state: string; paid: string }) => `${i.state}:${i.paid}`);

  it('schedules what the budget still has to invoice, interest-free; a second plan is 409', async () => {
    const sale = await budget();
    const withRate = await createPlan({ documentId: sale.id, annualRate: '12' });
    expect(withRate.statusCode).toBe(409);
    expect(withRate.json().code).toBe('payment_plan_budget_interest');
    const too = await createPlan({ documentId: sale.id, amount: '3000.01' });
    expect(too.json().code).toBe('payment_plan_amount_exceeds_pending');
    const key = `plan-${randomUUID()}`;
    const response = await createPlan({ documentId: sale.id }, { idempotencyKey: key });
    expect(response.statusCode, response.body).toBe(201);
    const plan = response.json().data;
    expect(plan).toMatchObject({
      documentId: sale.id,
      documentType: 'budget',
      documentNumber: sale.number,
      principal: '3000.00',
      interest: '0.00',
      total: '3000.00',
      paid: '0.00',
      annualRate: null,
      interestDocumentId: null,
      status: 'active',
    });
    expect(plan.instalments.map((i: { amount: string }) => i.amount)).toEqual(Array(6).fill('500.00'));
    // The same key answers the same plan; another key is a second plan: 409.
    const again = await createPlan({ documentId: sale.id }, { idempotencyKey: key });
    expect(again.json().data.id).toBe(plan.id);
    const second = await createPlan({ documentId: sale.id });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('payment_plan_exists');
    // Its instalments are the patient's due items.
    const open = await t.call('GET', `/api/payment-plans/instalments?view=open&customerId=${plan.customerId}`);
    expect(open.json().data.filter((i: { planId: string }) => i.planId === plan.id)).toHaveLength(6);
    expect((await t.auditEvents('payment_plan_created')).some((event) => event.entityId === plan.id)).toBe(true);
    // Reminders are queued as for an invoice's plan.
    const queued = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, instalmentReminderJobKind), like(jobs.key, `${plan.instalments[0].id}:%`))),
    );
    expect(queued.length).toBeGreaterThan(0);
  });

  it('refuses a budget not accepted', async () => {
    const pending = await budget(false);
    const response = await createPlan({ documentId: pending.id });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('budget_not_accepted');
  });

  it('collections against the plan stay on account and pay instalments oldest first; invoicing the budget allocates them', async () => {
    const sale = await budget();
    const plan = (await createPlan({ documentId: sale.id })).json().data;
    const key = `c-${randomUUID()}`;
    const first = await collect(plan.id, '750', key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({ allocatedAmount: '0.00', unallocatedAmount: '750.00' });
    // The same key is the same collection, not a second one.
    expect((await collect(plan.id, '750', key)).json().data.id).toBe(first.json().data.id);
    expect(await states(plan.id)).toEqual([
      'paid:500.00',
      'partly_paid:250.00',
      'pending:0.00',
      'pending:0.00',
      'pending:0.00',
      'pending:0.00',
    ]);
    const paidBy = (await t.call('GET', `/api/collections/${first.json().data.id}/instalments`)).json().data;
    expect(paidBy).toMatchObject([{ planId: plan.id, numbers: [1, 2], instalmentCount: 6 }]);
    await collect(plan.id, '250');
    expect((await t.call('GET', `/api/payment-plans/${plan.id}`)).json().data).toMatchObject({
      paid: '1000.00',
      pending: '2000.00',
    });
    // The instalments report reads the plan's collections too: the first two are paid, the third is not.
    const from = addDays(today(), 10);
    const report = await t.call('GET', `/api/reports/payment-plan-instalments?from=${from}&to=${addDays(from, 75)}`);
    expect(report.statusCode, report.body).toBe(200);
    const reported = report.json().data.rows.filter((row: { number: string }) => row.number === sale.number);
    expect(reported).toMatchObject([{ instalment: '3/6', paid: '0.00', owed: '500.00' }]);
    const over = await collect(plan.id, '2000.01');
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('payment_plan_amount_exceeds_pending');
    // The customer's account: 1,000 on account, nothing owed yet.
    const account = (await t.call('GET', `/api/patients/${t.patientId}/balance`)).json().data;
    expect(account).toMatchObject({ onAccount: '1000.00', overdue: '0.00' });

    // The budget is invoiced: the plan's money pays the invoice.
    const draft = await t.call('POST', `/api/sales/${sale.id}/convert`, { body: { documentType: 'invoice' } });
    expect(draft.statusCode, draft.body).toBe(201);
    const current = (await t.call('GET', `/api/sales/${draft.json().data.id}`)).json().data;
    const issued = await t.call('POST', `/api/sales/${current.id}/issue`, { body: { version: current.version } });
    expect(issued.statusCode, issued.body).toBe(200);
    expect(await openAmountOf(t, current.id)).toBe('2000.00');
    // A later collection against the plan goes straight to the invoice.
    const later = await collect(plan.id, '500');
    expect(later.json().data).toMatchObject({ allocatedAmount: '500.00', unallocatedAmount: '0.00' });
    expect(await openAmountOf(t, current.id)).toBe('1500.00');
    expect((await t.call('GET', `/api/payment-plans/${plan.id}`)).json().data.paid).toBe('1500.00');
    expect((await t.auditEvents('collection_allocated')).length).toBeGreaterThan(0);
  });

  it('cancelling keeps the money on account; a reversed collection no longer pays the plan', async () => {
    const sale = await budget();
    const plan = (await createPlan({ documentId: sale.id })).json().data;
    const collection = (await collect(plan.id, '600')).json().data;
    const missing = await t.call('POST', `/api/payment-plans/${plan.id}/cancel`, { body: { version: plan.version } });
    expect(missing.statusCode).toBe(400);
    const cancelled = await t.call('POST', `/api/payment-plans/${plan.id}/cancel`, {
      body: { version: plan.version, reason: 'El paciente pospone el implante' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data).toMatchObject({ status: 'cancelled', paid: '600.00' });
    const kept = (await t.call('GET', `/api/collections/${collection.id}`)).json().data;
    expect(kept).toMatchObject({ unallocatedAmount: '600.00', reversedAt: null });
    // No more collections against a cancelled plan.
    expect((await collect(plan.id, '10')).json().code).toBe('payment_plan_collection_invalid');
    // A new plan replaces it; a reversed collection does not count.
    const next = (await createPlan({ documentId: sale.id, instalmentCount: 3 })).json().data;
    const paid = (await collect(next.id, '300')).json().data;
    const reversed = await t.call('POST', `/api/collections/${paid.id}/reverse`, {
      body: { version: paid.version, reason: 'Error de importe' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect((await t.call('GET', `/api/payment-plans/${next.id}`)).json().data.paid).toBe('0.00');
  });

  it("answers another clinic's budget and plan 404, keeps to the levels and requires an Idempotency-Key", async () => {
    const sale = await budget();
    const onTheirs = await createPlan({ documentId: sale.id }, { token: t.other.token });
    expect(onTheirs.statusCode).toBe(404);
    expect(onTheirs.json().code).toBe('sale_not_found');
    const plan = (await createPlan({ documentId: sale.id })).json().data;
    expect((await t.call('GET', `/api/payment-plans/${plan.id}`, { token: t.other.token })).statusCode).toBe(404);
    const none = await t.call('POST', '/api/collections', {
      body: {
        patientId: t.patientId,
        date: today(),
        amount: '10',
        currency: 'argentine_peso',
        method: 'cash_payment',
        paymentPlanId: plan.id,
      },
      idempotencyKey: null,
    });
    expect(none.json().code).toBe('idempotency_key_required');
    const noKeyPlan = await t.call('POST', '/api/payment-plans', {
      body: { documentId: sale.id, instalmentCount: 2, firstDueOn: today(), frequency: 'monthly' },
      idempotencyKey: null,
    });
    expect(noKeyPlan.json().code).toBe('idempotency_key_required');
    // Another patient's collection cannot be tagged to this plan.
    const stranger = await t.newPatient();
    const wrong = await t.call('POST', '/api/collections', {
      body: {
        patientId: stranger,
        date: today(),
        amount: '10',
        currency: 'argentine_peso',
        method: 'cash_payment',
        paymentPlanId: plan.id,
      },
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().code).toBe('payment_plan_collection_invalid');
    await t.asLevel('customer', async () => {
      expect((await createPlan({ documentId: sale.id })).statusCode).toBe(403);
      expect((await collect(plan.id, '10')).statusCode).toBe(403);
    });
  });
});
