import { randomUUID } from 'node:crypto';
import { settlementRuleRecord } from '@odontia/shared/routes/settlements';
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerMismatches } from '../../../test/commercial.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { declaredRecord, describeRecordContract } from '../../../test/record-contract.ts';
import { expectRefusedAsClinic, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * Professional settlements (issue 40): the lines add up to their sources to the cent (percentage,
 * fixed, invoiced, collected, lab cost), the most specific rule wins, a period is settled once
 * (also under concurrency), what changes later lands in the next period as adjustments, a settled
 * document never changes, its payable is in the professional's provider account and a payment
 * settles it; idempotency, isolation and levels.
 */
describe.each(availableBackends())('professional settlements on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });

  afterEach(async () => {
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  let posCounter = 10;
  /** A point of sale of its own per test: each test dates its sales freely. */
  async function pointOfSale(): Promise<string> {
    posCounter += 1;
    const code = String(posCounter).padStart(4, '0');
    const made = await t.call('POST', '/api/points-of-sale', { body: { code, name: `Caja ${code}` } });
    expect(made.statusCode, made.body).toBe(201);
    return code;
  }

  async function professional(name: string): Promise<string> {
    return (
      await t.created<{ id: string }>('/api/users', {
        body: { completeName: name, email: `prof.${randomUUID()}@clinica.test`, level: 'user' },
      })
    ).id;
  }

  async function treatment(name: string, values: Record<string, unknown> = {}): Promise<string> {
    return (
      await t.created<{ id: string }>('/api/treatments', {
        body: { name: `${name} ${randomUUID().slice(0, 6)}`, durationMinutes: 30, price: '100', ...values },
      })
    ).id;
  }

  async function rule(values: Record<string, unknown>) {
    const response = await t.call('POST', '/api/settlement-rules', {
      body: { scope: 'default', method: 'percentage', basis: 'invoiced', validFrom: '2026-01-01', ...values },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string };
  }

  interface SaleLine {
    professionalId?: string | null;
    treatmentId?: string;
    quantity?: string;
    unitPrice: string;
    vatRate?: string;
    description?: string;
  }

  async function invoice(pos: string, date: string, lines: SaleLine[], documentType = 'invoice') {
    const response = await t.call('POST', '/api/sales', {
      body: {
        documentType,
        patientId: t.patientId,
        pointOfService: pos,
        date,
        currency: 'argentine_peso',
        conditionSale: 'current_account',
        issue: true,
        lines: lines.map((line) => ({
          description: line.description ?? 'Prestación',
          quantity: line.quantity ?? '1',
          vatRate: line.vatRate ?? '0',
          ...line,
        })),
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; total: string; customerId: string; version: number };
  }

  async function collect(documentId: string, amount: string, date: string) {
    const response = await t.call('POST', '/api/collections', {
      body: {
        patientId: t.patientId,
        date,
        amount,
        currency: 'argentine_peso',
        method: 'bank_transfer',
        allocations: [{ documentId, amount }],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; version: number };
  }

  const preview = (professionalId: string, from: string, to: string, token?: string) =>
    t.call('GET', `/api/settlements/preview?professionalId=${professionalId}&from=${from}&to=${to}`, {
      ...(token ? { token } : {}),
    });

  async function previewed(professionalId: string, from: string, to: string) {
    const response = await preview(professionalId, from, to);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as {
      total: string;
      baseTotal: string;
      labCostTotal: string;
      adjustmentTotal: string;
      lineCount: number;
      lines: {
        sourceKind: string;
        kind: string;
        base: string;
        labCost: string;
        amount: string;
        ruleId: string;
        documentLineId: string;
        sourceDate: string;
      }[];
    };
  }

  const confirm = (body: Record<string, unknown>, idempotencyKey?: string) =>
    t.call('POST', '/api/settlements', { body, ...(idempotencyKey ? { idempotencyKey } : {}) });

  async function confirmed(professionalId: string, from: string, to: string) {
    const response = await confirm({ professionalId, from, to });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as {
      id: string;
      number: string;
      total: string;
      documentId: string;
      providerId: string;
      status: string;
      openAmount: string;
      lines: { kind: string; sourceKind: string; amount: string; base: string }[];
    };
  }

  const sum = (values: string[]) => values.reduce((total, value) => total.plus(value), new Big(0)).toFixed(2);

  describeRecordContract(t, {
    ...declaredRecord(settlementRuleRecord),
    table: 'settlement_rules',
    body: () => ({
      professionalId: t.clinic.userId,
      scope: 'group',
      groupName: `Grupo ${randomUUID()}`,
      method: 'percentage',
      value: '40',
      basis: 'invoiced',
      validFrom: '2026-01-01',
    }),
    update: {
      body: () => ({
        professionalId: t.clinic.userId,
        scope: 'group',
        groupName: `Grupo ${randomUUID()}`,
        method: 'percentage',
        value: '45',
        basis: 'collected',
        validFrom: '2026-01-01',
      }),
      shows: { value: '45.00', basis: 'collected' },
    },
    history: { before: { value: '40.00' }, after: { value: '45.00' } },
    softDelete: { auditBefore: { value: '40.00' } },
    permissions: { read: 'reports.read', write: 'settings.manage' },
  });

  it('percentage on invoiced, the lab cost deducted, and the most specific rule wins (treatment > group > default)', async () => {
    const pos = await pointOfSale();
    const who = await professional('Dra. Lucía Paz');
    const crown = await treatment('Corona', { groupName: 'Prótesis', labCost: '1.000,50' });
    const bridge = await treatment('Puente', { groupName: 'Prótesis', labCost: '300' });
    const cleaning = await treatment('Limpieza', { groupName: 'Prevención' });
    const byDefault = await rule({ professionalId: who, value: '30' });
    const byGroup = await rule({
      professionalId: who,
      scope: 'group',
      groupName: 'prótesis',
      value: '50',
      deductLabCost: true,
    });
    const byTreatment = await rule({
      professionalId: who,
      scope: 'treatment',
      treatmentId: crown,
      value: '33.33',
      deductLabCost: true,
    });
    // A newer default, valid from November: October keeps the 30 %.
    await rule({ professionalId: who, value: '35', validFrom: '2026-11-01' });

    await invoice(pos, '2026-10-05', [
      { professionalId: who, treatmentId: crown, quantity: '2', unitPrice: '5000.55', vatRate: '21' },
      { professionalId: who, treatmentId: bridge, unitPrice: '2000' },
      { professionalId: who, treatmentId: cleaning, unitPrice: '333.33' },
      { professionalId: null, treatmentId: cleaning, unitPrice: '999' },
    ]);

    const shown = await previewed(who, '2026-10-01', '2026-10-31');
    expect(shown.lineCount).toBe(3);
    const byRule = new Map(shown.lines.map((line) => [line.ruleId, line]));
    // Crown: base 2 × 5,000.55 = 10,001.10 (no VAT), lab 2 × 1,000.50 = 2,001.00, 33.33 % of 8,000.10 = 2,666.43.
    expect(byRule.get(byTreatment.id)).toMatchObject({ base: '10001.10', labCost: '2001.00', amount: '2666.43' });
    // Bridge: the group's 50 % of (2,000 − 300).
    expect(byRule.get(byGroup.id)).toMatchObject({ base: '2000.00', labCost: '300.00', amount: '850.00' });
    // Cleaning: the default 30 % of 333.33 = 99.999 → 100.00; no lab cost deducted.
    expect(byRule.get(byDefault.id)).toMatchObject({ base: '333.33', labCost: '0.00', amount: '100.00' });
    expect(shown.baseTotal).toBe(sum(shown.lines.map((line) => line.base)));
    expect(shown.baseTotal).toBe('12334.43');
    expect(shown.labCostTotal).toBe('2301.00');
    expect(shown.total).toBe('3616.43');
    expect(shown.total).toBe(sum(shown.lines.map((line) => line.amount)));
  });

  it('fixed per unit on collected: the collected share of each line, pro rata to what was allocated', async () => {
    const pos = await pointOfSale();
    const who = await professional('Dr. Tomás Gil');
    const implant = await treatment('Implante', { labCost: '100' });
    const fixed = await rule({
      professionalId: who,
      scope: 'treatment',
      treatmentId: implant,
      method: 'fixed',
      value: '1000',
      basis: 'collected',
      deductLabCost: true,
    });
    await rule({ professionalId: who, value: '20', basis: 'collected' });
    const sale = await invoice(pos, '2026-10-02', [
      { professionalId: who, treatmentId: implant, quantity: '3', unitPrice: '1000', vatRate: '21' },
      { professionalId: who, unitPrice: '790', description: 'Control' },
    ]);
    // Total 3,630 + 790 = 4,420; a quarter collected in October, the rest never.
    expect(sale.total).toBe('4420.00');
    await collect(sale.id, '1105.00', '2026-10-20');

    // Nothing invoiced counts: both rules are on what is collected.
    const shown = await previewed(who, '2026-10-01', '2026-10-31');
    expect(shown.lines.every((line) => line.sourceKind === 'collection')).toBe(true);
    const implantLine = shown.lines.find((line) => line.ruleId === fixed.id);
    // The implant line: net 3,000 × 1,105 / 4,420 = 750.00; lab 3 × 100 × ¼ = 75.00; fixed 3 × 1,000 × ¼ − 75 = 675.00.
    expect(implantLine).toMatchObject({ base: '750.00', labCost: '75.00', amount: '675.00' });
    const control = shown.lines.find((line) => line.ruleId !== fixed.id);
    // The control: 790 × ¼ = 197.50, 20 % = 39.50.
    expect(control).toMatchObject({ base: '197.50', labCost: '0.00', amount: '39.50' });
    expect(shown.total).toBe('714.50');
  });

  it('confirms once: numbered, immutable, the payable in the provider account; a payment settles it', async () => {
    const pos = await pointOfSale();
    const who = await professional('Dra. Marta Ruiz');
    await rule({ professionalId: who, value: '40' });
    await invoice(pos, '2026-10-10', [{ professionalId: who, unitPrice: '1234.56' }]);
    const shown = await previewed(who, '2026-10-01', '2026-10-31');
    expect(shown.total).toBe('493.82');

    const stale = await confirm({ professionalId: who, from: '2026-10-01', to: '2026-10-31', expectedTotal: '1.00' });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'settlement_preview_stale', details: { total: '493.82' } });

    const key = `settle-${randomUUID()}`;
    const body = { professionalId: who, from: '2026-10-01', to: '2026-10-31', expectedTotal: shown.total };
    const [first, again] = await Promise.all([confirm(body, key), confirm(body, key)]);
    expect(first?.statusCode, first?.body).toBe(201);
    expect(again?.statusCode, again?.body).toBe(201);
    const settlement = first?.json().data;
    expect(again?.json().data.id).toBe(settlement.id);
    expect(settlement).toMatchObject({ total: '493.82', status: 'pending', openAmount: '493.82', lineCount: 1 });
    expect(settlement.number).toMatch(/^LQ-\d{8}$/);
    expect((await t.auditEvents('settlement_created')).some((event) => event.entityId === settlement.id)).toBe(true);

    // Settled once: the same period (or part of it) again is 409, and nothing is left to settle anyway.
    const twice = await confirm({ professionalId: who, from: '2026-10-15', to: '2026-11-15' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('settlement_period_settled');

    // The database refuses any change to the settlement and its lines.
    await expectRefusedAsClinic(t, sql`update settlements set total = 1 where id = ${settlement.id}::uuid`);
    await expectRefusedAsClinic(t, sql`delete from settlements where id = ${settlement.id}::uuid`);
    await expectRefusedAsClinic(
      t,
      sql`update settlement_lines set amount = 1 where settlement_id = ${settlement.id}::uuid`,
    );
    // A line belongs to a settlement of its clinic (checked once per statement, migration 0046):
    // a copy of the line under a settlement that does not exist is refused as a foreign key is; the
    // same copy under the real settlement passes the check (and is rolled back).
    const copyOfLine = (settlementId: string) => sql`
      insert into settlement_lines (account_id, id, settlement_id, professional_id, kind, source_kind, source_id,
        document_line_id, document_id, document_type, document_label, description, source_date, quantity, base, lab_cost,
        rule_id, rule_scope, rule_method, rule_value, rule_basis, amount)
      select account_id, gen_random_uuid(), ${settlementId}::uuid, professional_id, kind, source_kind, gen_random_uuid(),
        document_line_id, document_id, document_type, document_label, description, source_date, quantity, base, lab_cost,
        rule_id, rule_scope, rule_method, rule_value, rule_basis, amount
      from settlement_lines where settlement_id = ${settlement.id}::uuid`;
    const orphan = await t.db
      .withTenant(t.clinic.accountId, (tx) => tx.execute(copyOfLine(randomUUID())))
      .then(
        () => undefined,
        (error: { code?: string; cause?: { code?: string } }) => error,
      );
    expect(orphan?.cause?.code ?? orphan?.code).toBe('23503');
    await expect(
      t.db.withTenant(t.clinic.accountId, async (tx) => {
        await tx.execute(copyOfLine(settlement.id));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    // The payable is a registered invoice of the professional's provider, open for the total.
    const account = await t.call(
      'GET',
      `/api/current-accounts/providers/${settlement.providerId}?startDate=2026-10-01&endDate=2026-12-31`,
    );
    expect(account.statusCode, account.body).toBe(200);
    expect(account.json().data.account.balance).toBe('493.82');
    expect(account.json().data.entries).toEqual([
      expect.objectContaining({ credit: '493.82', debit: '0.00', documentId: settlement.documentId }),
    ]);

    // The payable opens like any purchase, with the provider's fiscal data copied whole.
    const payable = await t.call('GET', `/api/purchases/${settlement.documentId}`);
    expect(payable.statusCode, payable.body).toBe(200);
    expect(payable.json().data).toMatchObject({
      total: '493.82',
      issuerSnapshot: expect.objectContaining({ name: 'Dra. Marta Ruiz', legalName: null, taxId: null }),
    });

    // The dashboard counts it among what is to pay.
    const dashboard = await t.call('GET', '/api/dashboard');
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    expect(dashboard.json().data.financial.payables).toMatchObject({
      settlementsPending: '493.82',
      settlementsPendingCount: 1,
    });

    // Paid through the provider payments, with an Idempotency-Key.
    const payKey = `pay-${randomUUID()}`;
    const payBody = {
      providerId: settlement.providerId,
      date: '2026-11-05',
      amount: '493.82',
      currency: 'argentine_peso',
      method: 'bank_transfer',
      allocations: [{ documentId: settlement.documentId, amount: '493.82' }],
    };
    const paid = await t.call('POST', '/api/payments', { body: payBody, idempotencyKey: payKey });
    expect(paid.statusCode, paid.body).toBe(201);
    const paidAgain = await t.call('POST', '/api/payments', { body: payBody, idempotencyKey: payKey });
    expect(paidAgain.json().data.id).toBe(paid.json().data.id);
    const after = (await t.call('GET', `/api/settlements/${settlement.id}`)).json().data;
    expect(after).toMatchObject({ status: 'paid', openAmount: '0.00', total: '493.82' });
    const pending = (await t.call('GET', `/api/settlements?professionalId=${who}&status=pending`)).json();
    expect(pending.total).toBe(0);
    expect((await t.call('GET', '/api/dashboard')).json().data.financial.payables).toMatchObject({
      settlementsPending: '0.00',
      settlementsPendingCount: 0,
    });

    // The report: the settlement of the period, what is paid and what is pending, and its CSV.
    const report = await t.call(
      'GET',
      `/api/reports/professional-settlements?from=2026-10-01&to=2026-10-31&professionalId=${who}`,
    );
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().data.rows).toEqual([
      expect.objectContaining({ number: settlement.number, total: '493.82', paid: '493.82', pending: '0.00' }),
    ]);
    const csv = await t.call(
      'GET',
      `/api/reports/professional-settlements?from=2026-10-01&to=2026-10-31&professionalId=${who}&format=csv`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain(settlement.number);

    // The PDF: the clinic's, in Spanish, with the number, the professional and the total.
    const pdf = await t.call('GET', `/api/settlements/${settlement.id}/settlement.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Liquidación de honorarios');
    expect(text).toContain(settlement.number);
    expect(text).toContain('Dra. Marta Ruiz');
    expect(text).toContain('Total a pagar');
  });

  it('concurrent confirms of one period: one wins, the other answers 409', async () => {
    const pos = await pointOfSale();
    const who = await professional('Dr. Concurrente');
    await rule({ professionalId: who, value: '10' });
    await invoice(pos, '2026-10-03', [{ professionalId: who, unitPrice: '1000' }]);
    const body = { professionalId: who, from: '2026-10-01', to: '2026-10-31' };
    const answers = await Promise.all([confirm(body), confirm(body), confirm(body)]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const answer of answers.filter((one) => one.statusCode === 409)) {
      expect(['settlement_period_settled', 'settlement_empty']).toContain(answer.json().code);
    }
    const { rows } = await t.db.orm.execute<{ n: number }>(
      sql`select count(*)::int as n from settlements where professional_id = ${who}::uuid`,
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('what changes after settling lands in the next period as adjustments, traced to what changed', async () => {
    const pos = await pointOfSale();
    const who = await professional('Dra. Ajustes');
    const onCollected = await treatment('Ortodoncia', { groupName: 'Ortodoncia' });
    await rule({ professionalId: who, value: '50' });
    await rule({ professionalId: who, scope: 'group', groupName: 'Ortodoncia', value: '10', basis: 'collected' });
    const october = await invoice(pos, '2026-10-04', [
      { professionalId: who, unitPrice: '1000', description: 'Endodoncia' },
      { professionalId: who, treatmentId: onCollected, unitPrice: '2000', description: 'Ortodoncia' },
    ]);
    const payment = await collect(october.id, '3000.00', '2026-10-20');
    const first = await confirmed(who, '2026-10-01', '2026-10-31');
    // 50 % of 1,000 invoiced + 10 % of 2,000 collected.
    expect(first.total).toBe('700.00');

    // After settling: a late invoice dated in October, a credit note of the October invoice,
    // and the October collection reversed.
    await invoice(pos, '2026-10-30', [{ professionalId: who, unitPrice: '200', description: 'Endodoncia' }]);
    const note = await t.call('POST', `/api/sales/${october.id}/correct`, { body: { documentType: 'credit_note' } });
    expect(note.statusCode, note.body).toBe(201);
    const draft = note.json().data;
    const issued = await t.call('POST', `/api/sales/${draft.id}/issue`, { body: { version: draft.version } });
    expect(issued.statusCode, issued.body).toBe(200);
    const reversed = await t.call('POST', `/api/collections/${payment.id}/reverse`, {
      body: { version: payment.version, reason: 'Transferencia rechazada' },
    });
    expect(reversed.statusCode, reversed.body).toBe(200);

    // The credit note and the reversal are dated the clinic's today: the next period runs to it
    // (on 1 December the clinic's today is past November).
    const noteDate = issued.json().data.date as string;
    const nextTo = noteDate > '2026-11-30' ? noteDate : '2026-11-30';
    const next = await previewed(who, '2026-11-01', nextTo);
    const kinds = next.lines.map((line) => [line.sourceKind, line.kind, line.amount]).sort();
    expect(noteDate >= '2026-11-01').toBe(true);
    expect(kinds).toEqual(
      [
        ['collection_reversal', 'adjustment', '-200.00'],
        // The credit note takes back the invoiced part only (the collected part comes back with the reversal).
        ['invoice_line', 'adjustment', '-500.00'],
        ['invoice_line', 'adjustment', '100.00'],
      ].sort(),
    );
    // The total is negative: it cannot be confirmed, it carries on to the next period.
    expect(next.total).toBe('-600.00');
    const refused = await confirm({ professionalId: who, from: '2026-11-01', to: nextTo });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('settlement_negative');
    // The first settlement never changed.
    const kept = (await t.call('GET', `/api/settlements/${first.id}`)).json().data;
    expect(kept).toMatchObject({ total: '700.00', lineCount: 2 });
  });

  it('another clinic’s settlement, rule and professional are 404; levels are refused 403', async () => {
    const pos = await pointOfSale();
    const who = await professional('Dr. Aislado');
    await rule({ professionalId: who, value: '10' });
    await invoice(pos, '2026-10-03', [{ professionalId: who, unitPrice: '100' }]);
    const settlement = await confirmed(who, '2026-10-01', '2026-10-31');
    const theirs = { token: t.other.token };
    expect((await t.call('GET', `/api/settlements/${settlement.id}`, theirs)).statusCode).toBe(404);
    expect((await t.call('GET', `/api/settlements/${settlement.id}/settlement.pdf`, theirs)).statusCode).toBe(404);
    expect((await preview(who, '2026-10-01', '2026-10-31', t.other.token)).json().code).toBe(
      'settlement_professional_not_found',
    );
    const list = await t.call('GET', '/api/settlements', theirs);
    expect(list.json().data.map((row: { id: string }) => row.id)).not.toContain(settlement.id);
    const foreign = await t.call('POST', '/api/settlements', {
      ...theirs,
      body: { professionalId: who, from: '2026-10-01', to: '2026-10-31' },
    });
    expect(foreign.statusCode).toBe(404);
    // A rule for another clinic's professional.
    const ruleOfOther = await t.call('POST', '/api/settlement-rules', {
      body: {
        professionalId: t.other.userId,
        scope: 'default',
        method: 'percentage',
        value: '1',
        basis: 'invoiced',
        validFrom: '2026-01-01',
      },
    });
    expect(ruleOfOther.statusCode).toBe(404);

    await t.asLevel('user', async () => {
      expect((await t.call('GET', '/api/settlements')).statusCode).toBe(403);
      expect((await t.call('GET', `/api/settlements/${settlement.id}`)).statusCode).toBe(403);
    });
    await t.asLevel('supervisor', async () => {
      expect((await t.call('GET', `/api/settlements/${settlement.id}`)).statusCode).toBe(200);
      const refused = await confirm({ professionalId: who, from: '2026-12-01', to: '2026-12-31' });
      expect(refused.statusCode).toBe(403);
    });
  });

  it('a professional who has left is still settled for what they did; a new rule for them is refused', async () => {
    const pos = await pointOfSale();
    const who = await professional('Dr. Se Fue');
    await rule({ professionalId: who, value: '25' });
    await invoice(pos, '2026-10-06', [{ professionalId: who, unitPrice: '400' }]);
    await t.db.orm.execute(sql`update users set active = false where id = ${who}::uuid`);
    const settlement = await confirmed(who, '2026-10-01', '2026-10-31');
    expect(settlement.total).toBe('100.00');
    const refused = await t.call('POST', '/api/settlement-rules', {
      body: {
        professionalId: who,
        scope: 'default',
        method: 'percentage',
        value: '30',
        basis: 'invoiced',
        validFrom: '2026-11-01',
      },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('settlement_professional_not_found');
  });

  it('validates each field with its code and never answers 500', async () => {
    const cases: Record<string, unknown>[] = [
      { professionalId: 'nope', from: '2026-10-01', to: '2026-10-31' },
      { professionalId: t.clinic.userId, from: '2026-02-30', to: '2026-10-31' },
      { professionalId: t.clinic.userId, from: '2026-10-31', to: '2026-10-01' },
      { professionalId: t.clinic.userId, from: '2020-01-01', to: '2026-10-01' },
      { professionalId: t.clinic.userId, from: '2026-10-01', to: '2026-10-31', expectedTotal: '1e9' },
      { professionalId: t.clinic.userId, from: '2026-10-01', to: '2026-10-31', notes: 'a\u0000b' },
    ];
    for (const body of cases) {
      const response = await confirm(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const rules: Record<string, unknown>[] = [
      { scope: 'treatment' },
      { scope: 'group', groupName: '' },
      { method: 'percentage', value: '100.01' },
      { method: 'fixed', value: '-1' },
      { validFrom: '0000-01-01' },
    ];
    for (const values of rules) {
      const response = await t.call('POST', '/api/settlement-rules', {
        body: {
          professionalId: t.clinic.userId,
          scope: 'default',
          method: 'percentage',
          value: '10',
          basis: 'invoiced',
          validFrom: '2026-01-01',
          ...values,
        },
      });
      expect(response.statusCode, JSON.stringify(values)).toBe(400);
    }
    const empty = await confirm({ professionalId: t.clinic.userId, from: '2025-01-01', to: '2025-01-31' });
    expect(empty.statusCode).toBe(409);
    expect(empty.json().code).toBe('settlement_empty');
  });
});
