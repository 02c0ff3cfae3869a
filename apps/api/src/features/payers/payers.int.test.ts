import { affiliationRecord, payerRecord } from '@odontia/shared/routes/payers';
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { customerLedgerMismatches } from '../../../test/commercial.ts';
import { counter } from '../../../test/counter.ts';
import { declaredRecord, describeRecordContract } from '../../../test/record-contract.ts';
import { type TestClinicContext, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/**
 * Third-party payers (issue 40): payers, plans and rules, affiliations, invoicing split between the
 * patient and the payer (to the cent, with the rounding written down), annual limits, authorization
 * numbers, presentations built by a job (each line once), rejections to the patient or to a loss,
 * the payer's payment, idempotency, isolation and levels.
 */

interface SplitLine {
  id: string;
  sourceId: string;
  lineTotal: string;
  payerAmount: string;
  patientAmount: string;
  rounding: string;
  authorizationNumber: string | null;
  patientDocumentId: string | null;
  payerDocumentId: string | null;
  presentationId: string | null;
}

async function setUp(t: TestClinicContext, next: () => number) {
  const pos = await t.call('POST', '/api/points-of-sale', { body: { code: '0001', name: 'Caja 0001', active: true } });
  expect(pos.statusCode, pos.body).toBe(201);
  const treatment = async (name: string, group: string, price = '100.00') => {
    const id = newId();
    const n = next();
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute(sql`
        insert into treatments (account_id, id, code, name, group_name, price, vat_rate, duration_minutes)
        values (${t.clinic.accountId}::uuid, ${id}::uuid, ${`C${n}`}, ${`${name} ${n}`}, ${group}, ${price}, 0, 30)`),
    );
    return id;
  };
  return { treatment };
}

describe.each(availableBackends())('third-party payers on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const next = counter();
  let treatment: (name: string, group: string, price?: string) => Promise<string>;
  let contractPayer: { id: string; planId: string };

  const newPayer = async (overrides: Record<string, unknown> = {}) => {
    const n = next();
    return t.created<{ id: string; customerId: string; version: number }>('/api/payers', {
      body: { kind: 'obra_social', name: `Obra Social Sur ${n}`, code: `OS${n}`, taxId: null, ...overrides },
    });
  };
  const newPlan = (payerId: string, rules: Record<string, unknown>[], name = 'Plan 310') =>
    t.created<{ id: string; version: number; rules: { id: string }[] }>(`/api/payers/${payerId}/plans`, {
      body: { name, code: null, active: true, rules },
    });
  const affiliate = (patientId: string, payerId: string, planId: string, extra: Record<string, unknown> = {}) =>
    t.created<{ id: string }>(`/api/patients/${patientId}/affiliations`, {
      body: { payerId, planId, memberNumber: `AF-${next()}`, validFrom: '2020-01-01', validTo: null, ...extra },
    });
  async function attendance(
    patientId: string,
    lines: Record<string, unknown>[],
    fee = '0',
    date = '2026-03-10T10:30:00-03:00',
  ) {
    const response = await t.call('POST', `/api/patients/${patientId}/attendances`, {
      body: {
        date,
        attendanceType: 'dentistry',
        professionalId: t.clinic.userId,
        titleResume: 'Consulta',
        billable: true,
        attendanceFee: fee,
        lines,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().data.id as string;
    const { rows } = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ id: string }>(
        sql`select id from attendance_lines where attendance_id = ${id}::uuid and deleted_at is null order by position`,
      ),
    );
    return { id, lineIds: rows.map((row) => row.id) };
  }
  const invoice = (
    patientId: string,
    body: Record<string, unknown>,
    options: { idempotencyKey?: string; token?: string } = {},
  ) => t.call('POST', `/api/patients/${patientId}/payer-invoices`, { body, ...options });
  async function documentOf(id: string) {
    const { rows } = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ total: string; open_amount: string; customer_id: string; status: string; document_type: string }>(
        sql`select total::text, open_amount::text, customer_id, status, document_type from commercial_documents where id = ${id}::uuid`,
      ),
    );
    return rows[0];
  }
  async function billedBy(sourceId: string) {
    const { rows } = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ document_id: string }>(
        sql`select document_id from billed_sources where source_id = ${sourceId}::uuid`,
      ),
    );
    return rows.map((row) => row.document_id);
  }

  beforeAll(async () => {
    ({ treatment } = await setUp(t, next));
    const payer = await newPayer();
    const plan = await newPlan(payer.id, [{ mode: 'percentage', value: '70', limitKind: 'none' }]);
    contractPayer = { id: payer.id, planId: plan.id };
  });

  describeRecordContract(t, {
    ...declaredRecord(payerRecord),
    table: 'payers',
    body: () => ({ kind: 'obra_social', name: `Obra Social Norte ${next()}` }),
    update: {
      body: () => ({ kind: 'prepaga', name: 'Prepaga Norte' }),
      shows: { kind: 'prepaga', name: 'Prepaga Norte' },
    },
    history: { before: { kind: 'obra_social' }, after: { kind: 'prepaga' } },
    softDelete: { auditBefore: { kind: 'obra_social' } },
    permissions: { read: 'commercial.read', write: 'commercial.write', delete: 'commercial.delete' },
  });

  describeRecordContract(t, {
    ...declaredRecord(affiliationRecord),
    table: 'patient_affiliations',
    body: () => ({
      payerId: contractPayer.id,
      planId: contractPayer.planId,
      memberNumber: '12345/01',
      validFrom: '2025-01-01',
      primary: false,
    }),
    update: {
      body: () => ({
        payerId: contractPayer.id,
        planId: contractPayer.planId,
        memberNumber: '12345/02',
        validFrom: '2025-01-01',
        primary: false,
      }),
      shows: { memberNumber: '12345/02' },
    },
    history: { before: { memberNumber: '12345/01' }, after: { memberNumber: '12345/02' } },
    softDelete: { auditBefore: { memberNumber: '12345/01' } },
    permissions: { read: 'patients.read', write: 'patients.write' },
  });

  it("makes the payer's customer with it; its plan's rules are replaced on edit, audited; 404 across clinics", async () => {
    const payer = await newPayer({ paymentTermDays: 60 });
    const customer = await t.call('GET', `/api/customers/${payer.customerId}`);
    expect(customer.json().data).toMatchObject({ kind: 'insurer', paymentTermDays: 60 });
    const groupRule = {
      treatmentGroup: 'Prevención',
      mode: 'copay',
      value: '500',
      limitKind: 'sessions',
      limitValue: '2',
    };
    const plan = await newPlan(payer.id, [groupRule]);
    expect(plan.rules).toHaveLength(1);
    const edited = await t.call('PUT', `/api/payers/${payer.id}/plans/${plan.id}`, {
      body: {
        name: 'Plan 410',
        active: true,
        version: plan.version,
        rules: [groupRule, { mode: 'percentage', value: '50' }],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.rules).toHaveLength(2);
    expect(edited.json().data.rules[0].id).not.toBe(plan.rules[0]?.id);
    const events = await t.auditEvents('payer_plan_rules_set');
    expect(events.filter((event) => event.entityId === plan.id)).toHaveLength(2);
    expect(
      (await t.call('GET', `/api/payers/${payer.id}/plans/${plan.id}`, { token: t.other.token })).json().code,
    ).toBe('payer_not_found');
    const bad = await t.call('POST', `/api/payers/${payer.id}/plans`, {
      body: {
        name: 'X',
        rules: [
          { mode: 'percentage', value: '101' },
          { mode: 'fixed', value: '1', limitKind: 'amount' },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'rules.0.value' }),
        expect.objectContaining({ path: 'rules.1.limitValue' }),
      ]),
    );
    // A plan of another payer cannot be the affiliation's.
    const otherPayer = await newPayer();
    const wrong = await t.call('POST', `/api/patients/${t.patientId}/affiliations`, {
      body: { payerId: otherPayer.id, planId: plan.id, memberNumber: '1', validFrom: '2025-01-01' },
    });
    expect(wrong.json().code).toBe('payer_plan_mismatch');
  });

  it('a plan is edited (409 when stale) and deleted with commercial.delete; while patients are affiliated to it, 409 payer_plan_in_use', async () => {
    const payer = await newPayer();
    const plan = await newPlan(payer.id, [{ mode: 'percentage', value: '60' }], 'Plan 210');
    const path = `/api/payers/${payer.id}/plans/${plan.id}`;
    const edited = await t.call('PUT', path, {
      body: { name: 'Plan 220', active: true, version: plan.version, rules: [{ mode: 'fixed', value: '12500.50' }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ name: 'Plan 220', rules: [{ mode: 'fixed', value: '12500.50' }] });
    const stale = await t.call('PUT', path, {
      body: { name: 'Plan 230', active: true, version: plan.version, rules: [] },
    });
    expect(stale.statusCode).toBe(409);
    const patient = await t.newPatient();
    const affiliation = await t.created<{ id: string; version: number }>(`/api/patients/${patient}/affiliations`, {
      body: { payerId: payer.id, planId: plan.id, memberNumber: 'AF-210', validFrom: '2020-01-01' },
    });
    await t.asLevel('user', async () => {
      expect((await t.call('DELETE', path)).statusCode).toBe(403);
    });
    const refused = await t.call('DELETE', path);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'payer_plan_in_use', details: { affiliations: 1, pendingLines: 0 } });
    // Ending the affiliation (valid until yesterday) frees the plan; the ended affiliation keeps its names.
    const ended = await t.call('PUT', `/api/patients/${patient}/affiliations/${affiliation.id}`, {
      body: {
        payerId: payer.id,
        planId: plan.id,
        memberNumber: 'AF-210',
        validFrom: '2020-01-01',
        validTo: '2020-12-31',
        version: affiliation.version,
      },
    });
    expect(ended.statusCode, ended.body).toBe(200);
    const removed = await t.call('DELETE', path);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await t.call('GET', path)).statusCode).toBe(404);
    const after = await t.call('GET', `/api/patients/${patient}/affiliations/${affiliation.id}`);
    expect(after.json().data).toMatchObject({ planName: 'Plan 220', validTo: '2020-12-31' });
  });

  it('splits percentage, fixed and copay lines to the cent, rounding written down; two documents trace the same lines', async () => {
    const payer = await newPayer();
    const [odd, fixed, copay, other] = [
      await treatment('Limpieza', 'Prevención', '100.00'),
      await treatment('Radiografía', 'Radiología', '33.33'),
      await treatment('Consulta', 'Consultas', '1000.00'),
      await treatment('Blanqueamiento', 'Estética', '80.00'),
    ];
    const plan = await newPlan(payer.id, [
      { treatmentId: odd, mode: 'percentage', value: '33.33' },
      { treatmentGroup: 'Radiología', mode: 'fixed', value: '10' },
      { treatmentId: copay, mode: 'copay', value: '250.50' },
    ]);
    const patient = await t.newPatient();
    await affiliate(patient, payer.id, plan.id);
    const visit = await attendance(patient, [
      { description: 'Limpieza', quantity: 1, price: '100.01', treatmentId: odd },
      { description: 'Radiografía', quantity: 2, price: '33.33', treatmentId: fixed },
      { description: 'Consulta', quantity: 1, price: '1000.00', treatmentId: copay },
      { description: 'Blanqueamiento', quantity: 1, price: '80.00', treatmentId: other },
    ]);
    const preview = await t.call('GET', `/api/patients/${patient}/payer-coverage?attendanceIds=${visit.id}`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data.lines.map((line: { rule: unknown }) => line.rule !== null)).toEqual([
      true,
      true,
      true,
      false,
    ]);

    const answer = await invoice(patient, { attendanceIds: [visit.id] });
    expect(answer.statusCode, answer.body).toBe(201);
    const result = answer.json().data as {
      patientInvoiceId: string;
      payerInvoiceId: string;
      patientTotal: string;
      payerTotal: string;
      lines: SplitLine[];
    };
    const bySource = new Map(result.lines.map((line) => [line.sourceId, line]));
    // 100.01 × 33.33 % = 33.333333 → the payer 33.33 (half-up), the patient the rest.
    expect(bySource.get(visit.lineIds[0] as string)).toMatchObject({
      lineTotal: '100.01',
      payerAmount: '33.33',
      patientAmount: '66.68',
      rounding: 'payer_half_up',
    });
    expect(bySource.get(visit.lineIds[1] as string)).toMatchObject({
      lineTotal: '66.66',
      payerAmount: '20.00',
      patientAmount: '46.66',
      rounding: 'exact',
    });
    expect(bySource.get(visit.lineIds[2] as string)).toMatchObject({
      lineTotal: '1000.00',
      payerAmount: '749.50',
      patientAmount: '250.50',
    });
    expect(bySource.get(visit.lineIds[3] as string)).toMatchObject({
      payerAmount: '0.00',
      patientAmount: '80.00',
      rounding: 'not_covered',
      payerDocumentId: null,
    });
    for (const line of result.lines) {
      expect(new Big(line.payerAmount).plus(line.patientAmount).toFixed(2)).toBe(line.lineTotal);
    }
    expect(result.patientTotal).toBe('443.84');
    expect(result.payerTotal).toBe('802.83');
    const patientDoc = await documentOf(result.patientInvoiceId);
    const payerDoc = await documentOf(result.payerInvoiceId);
    expect(patientDoc).toMatchObject({ total: '443.84', status: 'issued', document_type: 'invoice' });
    expect(payerDoc).toMatchObject({ total: '802.83', status: 'issued', customer_id: payer.customerId });
    // Both documents name the same source lines; "invoiced once" is the patient's for each.
    for (const line of result.lines.filter((split) => split.rounding !== 'not_covered')) {
      expect(line.patientDocumentId).toBe(result.patientInvoiceId);
      expect(line.payerDocumentId).toBe(result.payerInvoiceId);
      expect(await billedBy(line.sourceId)).toEqual([result.patientInvoiceId]);
    }
    // The dashboard's receivables name what the payers owe.
    const dashboard = (await t.call('GET', '/api/dashboard')).json().data;
    expect(new Big(dashboard.financial.receivables.payers.balance).gte(result.payerTotal)).toBe(true);
    // Invoiced once: a second invoicing finds nothing.
    expect((await invoice(patient, { attendanceIds: [visit.id] })).json().code).toBe('nothing_to_invoice');
    expect(await customerLedgerMismatches(t)).toEqual([]);
  });

  it('a payer covering a line in full bills it alone; a patient without a valid affiliation is refused', async () => {
    const payer = await newPayer();
    const full = await treatment('Control', 'Consultas', '50.00');
    const plan = await newPlan(payer.id, [{ treatmentId: full, mode: 'percentage', value: '100' }]);
    const patient = await t.newPatient();
    const visit = await attendance(patient, [
      { description: 'Control', quantity: 1, price: '50.00', treatmentId: full },
    ]);
    expect((await invoice(patient, {})).json().code).toBe('patient_not_affiliated');
    await affiliate(patient, payer.id, plan.id, { validFrom: '2020-01-01', validTo: '2020-12-31' });
    expect((await invoice(patient, {})).json().code).toBe('patient_not_affiliated');
    await affiliate(patient, payer.id, plan.id);
    const answer = await invoice(patient, {});
    expect(answer.statusCode, answer.body).toBe(201);
    const { data } = answer.json();
    expect(data).toMatchObject({ patientInvoiceId: null, payerTotal: '50.00', patientTotal: '0.00' });
    expect(await billedBy(visit.lineIds[0] as string)).toEqual([data.payerInvoiceId]);
  });

  it('requires the authorization number where the rule says so, and keeps it per line', async () => {
    const payer = await newPayer();
    const implant = await treatment('Implante', 'Implantes', '900.00');
    const plan = await newPlan(payer.id, [
      { treatmentId: implant, mode: 'percentage', value: '40', authorizationRequired: true },
    ]);
    const patient = await t.newPatient();
    await affiliate(patient, payer.id, plan.id);
    const visit = await attendance(patient, [
      { description: 'Implante', quantity: 1, price: '900.00', treatmentId: implant },
    ]);
    const refused = await invoice(patient, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'payer_authorization_required',
      details: { sourceIds: visit.lineIds },
    });
    const answer = await invoice(patient, { authorizations: [{ sourceId: visit.lineIds[0], number: 'AUT-778899' }] });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().data.lines[0]).toMatchObject({ authorizationNumber: 'AUT-778899', payerAmount: '360.00' });
  });

  it('checks annual limits against what the patient used that year (sessions and amount)', async () => {
    const payer = await newPayer();
    const cleaning = await treatment('Limpieza', 'Prevención', '100.00');
    const xray = await treatment('Radiografía', 'Radiología', '100.00');
    const plan = await newPlan(payer.id, [
      { treatmentId: cleaning, mode: 'percentage', value: '100', limitKind: 'sessions', limitValue: '2' },
      { treatmentId: xray, mode: 'percentage', value: '50', limitKind: 'amount', limitValue: '120' },
    ]);
    const patient = await t.newPatient();
    await affiliate(patient, payer.id, plan.id);
    await attendance(patient, [
      { description: 'Limpieza', quantity: 1, price: '100.00', treatmentId: cleaning },
      { description: 'Radiografía', quantity: 2, price: '100.00', treatmentId: xray },
    ]);
    const first = (await invoice(patient, {})).json().data.lines as SplitLine[];
    expect(first.map((line) => line.payerAmount)).toEqual(['100.00', '100.00']);
    await attendance(patient, [
      { description: 'Limpieza', quantity: 2, price: '100.00', treatmentId: cleaning },
      { description: 'Radiografía', quantity: 1, price: '100.00', treatmentId: xray },
    ]);
    const second = (await invoice(patient, {})).json().data.lines as SplitLine[];
    // One session left of two: half the line covered. 20.00 left of 120.00.
    expect(second[0]).toMatchObject({
      payerAmount: '100.00',
      patientAmount: '100.00',
      rounding: 'covered_share_half_up',
    });
    expect(second[1]).toMatchObject({ payerAmount: '20.00', patientAmount: '80.00', rounding: 'capped' });
    await attendance(patient, [{ description: 'Limpieza', quantity: 1, price: '100.00', treatmentId: cleaning }]);
    const third = (await invoice(patient, {})).json().data;
    expect(third).toMatchObject({ payerInvoiceId: null, payerTotal: '0.00', patientTotal: '100.00' });
  });

  it('is idempotent: the same key answers the first invoicing, once', async () => {
    const payer = await newPayer();
    const cleaning = await treatment('Limpieza', 'Prevención');
    const plan = await newPlan(payer.id, [{ treatmentId: cleaning, mode: 'percentage', value: '60' }]);
    const patient = await t.newPatient();
    await affiliate(patient, payer.id, plan.id);
    await attendance(patient, [{ description: 'Limpieza', quantity: 1, price: '100.00', treatmentId: cleaning }]);
    const key = `payers-${newId()}`;
    const [a, b] = await Promise.all([
      invoice(patient, {}, { idempotencyKey: key }),
      invoice(patient, {}, { idempotencyKey: key }),
    ]);
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json().data.payerInvoiceId).toBe(a.json().data.payerInvoiceId);
    const { rows } = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ n: number }>(
        sql`select count(*)::int as n from payer_split_lines where patient_id = ${patient}::uuid`,
      ),
    );
    expect(rows[0]?.n).toBe(1);
    expect((await invoice(patient, {}, { idempotencyKey: null as unknown as string })).json().code).toBe(
      'idempotency_key_required',
    );
  });

  it('presents each line once, by a job with progress; PDF and XLSX; rejections move to the patient or to a loss; paid', async () => {
    const payer = await newPayer();
    const cleaning = await treatment('Limpieza', 'Prevención', '100.00');
    const plan = await newPlan(payer.id, [{ treatmentId: cleaning, mode: 'copay', value: '30' }]);
    const lines: SplitLine[] = [];
    for (let n = 0; n < 3; n++) {
      const patient = await t.newPatient();
      await affiliate(patient, payer.id, plan.id);
      await attendance(patient, [{ description: 'Limpieza', quantity: 1, price: '100.00', treatmentId: cleaning }]);
      lines.push(...((await invoice(patient, {})).json().data.lines as SplitLine[]));
    }
    expect(lines.map((line) => line.payerAmount)).toEqual(['70.00', '70.00', '70.00']);
    expect(
      (await t.call('POST', '/api/payer-presentations', { body: { payerId: payer.id, period: '2026-04-01' } })).json()
        .code,
    ).toBe('payer_presentation_empty');
    const created = await t.call('POST', '/api/payer-presentations', {
      body: { payerId: payer.id, period: '2026-03-15' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const presentation = created.json().data;
    expect(presentation).toMatchObject({ status: 'building', period: '2026-03-01', progress: 0 });
    for (let round = 0; round < 5; round++) await t.app.jobs.runDue();
    const built = (await t.call('GET', `/api/payer-presentations/${presentation.id}`)).json().data;
    expect(built).toMatchObject({ status: 'draft', progress: 100, lineCount: 3, total: '210.00' });
    // Each line once: nothing is left for a second presentation of the month.
    expect(
      (await t.call('POST', '/api/payer-presentations', { body: { payerId: payer.id, period: '2026-03-01' } })).json()
        .code,
    ).toBe('payer_presentation_empty');
    const page = (await t.call('GET', `/api/payer-presentations/${presentation.id}/lines`)).json();
    expect(page.total).toBe(3);
    expect(new Set(page.data.map((line: SplitLine) => line.id))).toEqual(new Set(lines.map((line) => line.id)));
    expect(page.data.map((line: SplitLine) => line.presentationId)).toEqual([
      presentation.id,
      presentation.id,
      presentation.id,
    ]);

    const pdf = await t.call('GET', `/api/payer-presentations/${presentation.id}/presentation.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const xlsx = await t.call('GET', `/api/payer-presentations/${presentation.id}/presentation.xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');

    // Not sent yet: no rejection.
    const early = await t.call('POST', `/api/payer-presentations/${presentation.id}/rejections`, {
      body: { splitLineId: lines[0]?.id, amount: '70', reason: 'Sin firma', destination: 'patient' },
    });
    expect(early.json()).toMatchObject({ code: 'payer_presentation_status', details: { status: 'draft' } });
    const sent = await t.call('POST', `/api/payer-presentations/${presentation.id}/send`, {
      body: { version: built.version },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const stale = await t.call('POST', `/api/payer-presentations/${presentation.id}/accept`, {
      body: { version: built.version },
    });
    expect(stale.json().code).toBe('version_conflict');

    // A user (no commercial.delete) may not record a rejection.
    const reject = (body: Record<string, unknown>, options: { idempotencyKey?: string } = {}) =>
      t.call('POST', `/api/payer-presentations/${presentation.id}/rejections`, { body, ...options });
    const asUser = await t.asLevel('user', () =>
      reject({ splitLineId: lines[0]?.id, amount: '70', reason: 'Sin firma', destination: 'patient' }),
    );
    expect(asUser.statusCode).toBe(403);
    expect(
      (await reject({ splitLineId: lines[0]?.id, amount: '70.01', reason: 'x', destination: 'loss' })).json().code,
    ).toBe('payer_rejection_too_big');
    const key = `rej-${newId()}`;
    const toPatient = await reject(
      { splitLineId: lines[0]?.id, amount: '70', reason: 'Falta firma del afiliado', destination: 'patient' },
      { idempotencyKey: key },
    );
    expect(toPatient.statusCode, toPatient.body).toBe(200);
    const again = await reject(
      { splitLineId: lines[0]?.id, amount: '70', reason: 'Falta firma del afiliado', destination: 'patient' },
      { idempotencyKey: key },
    );
    expect(again.statusCode).toBe(200);
    expect(
      (await reject({ splitLineId: lines[0]?.id, amount: '1', reason: 'x', destination: 'loss' })).json().code,
    ).toBe('payer_line_already_rejected');
    const toLoss = await reject({
      splitLineId: lines[1]?.id,
      amount: '20.50',
      reason: 'Arancel superado',
      destination: 'loss',
    });
    expect(toLoss.statusCode, toLoss.body).toBe(200);
    expect(toLoss.json().data.rejectedTotal).toBe('90.50');

    const rejected = (await t.call('GET', `/api/payer-presentations/${presentation.id}/lines`)).json()
      .data as (SplitLine & {
      rejection: { creditNoteId: string; patientDocumentId: string | null; destination: string };
    })[];
    const first = rejected.find((line) => line.id === lines[0]?.id);
    const second = rejected.find((line) => line.id === lines[1]?.id);
    // To the patient: a credit note to the payer and an invoice to the patient, 70.00 each.
    expect(await documentOf(first?.rejection.creditNoteId as string)).toMatchObject({
      total: '70.00',
      document_type: 'credit_note',
      customer_id: payer.customerId,
    });
    expect(await documentOf(first?.rejection.patientDocumentId as string)).toMatchObject({
      total: '70.00',
      document_type: 'invoice',
      open_amount: '70.00',
    });
    // To a loss: the credit note alone.
    expect(second?.rejection).toMatchObject({ destination: 'loss', patientDocumentId: null });
    expect(await documentOf(second?.rejection.creditNoteId as string)).toMatchObject({ total: '20.50' });
    // The payer's invoices now owe 0 + 49.50 + 70.00.
    expect((await documentOf(lines[0]?.payerDocumentId as string))?.open_amount).toBe('0.00');
    expect((await documentOf(lines[1]?.payerDocumentId as string))?.open_amount).toBe('49.50');

    const current = (await t.call('GET', `/api/payer-presentations/${presentation.id}`)).json().data;
    const accepted = await t.call('POST', `/api/payer-presentations/${presentation.id}/accept`, {
      body: { version: current.version },
    });
    expect(accepted.json().data.status).toBe('partially_accepted');
    const paid = await t.call('POST', `/api/payer-presentations/${presentation.id}/pay`, {
      body: { version: accepted.json().data.version, date: '2026-04-20', method: 'bank_transfer' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ status: 'paid', paidOn: '2026-04-20' });
    const collection = await t.call('GET', `/api/collections/${paid.json().data.collectionId}`);
    expect(collection.json().data.amount).toBe('119.50');
    for (const line of lines) expect((await documentOf(line.payerDocumentId as string))?.open_amount).toBe('0.00');
    expect(await customerLedgerMismatches(t)).toEqual([]);
    // The reports: the presentation of March, and its two rejections (CSV too).
    const report = (await t.call('GET', '/api/reports/payer-presentations?from=2026-03-01&to=2026-03-31')).json();
    expect(report.data.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ number: presentation.number, count: 3, total: '210.00', rejected: '90.50' }),
      ]),
    );
    const today = new Date().toISOString().slice(0, 10);
    const rejections = (await t.call('GET', `/api/reports/payer-rejections?from=2026-01-01&to=${today}`)).json();
    expect(
      rejections.data.rows
        .filter((row: { number: number }) => row.number === presentation.number)
        .map((row: { amount: string }) => row.amount)
        .sort(),
    ).toEqual(['20.50', '70.00']);
    const csv = await t.call('GET', `/api/reports/payer-rejections?from=2026-01-01&to=${today}&format=csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain('Falta firma del afiliado');
    // Another clinic sees none of it.
    for (const url of [
      `/api/payer-presentations/${presentation.id}`,
      `/api/payer-presentations/${presentation.id}/presentation.pdf`,
    ]) {
      expect((await t.call('GET', url, { token: t.other.token })).json().code).toBe('payer_presentation_not_found');
    }
    const theirs = await t.call('POST', '/api/payer-presentations', {
      token: t.other.token,
      body: { payerId: payer.id, period: '2026-03-01' },
    });
    expect(theirs.json().code).toBe('payer_not_found');
    // The database refuses changing a presented line or deleting it.
    await expect(
      t.db.withTenant(t.clinic.accountId, (tx) =>
        tx.execute(sql`update payer_split_lines set payer_amount = 1 where id = ${lines[2]?.id}::uuid`),
      ),
    ).rejects.toThrow();
    // …nor taking a line out of its presentation, moving it to another, or presenting it twice.
    for (const statement of [
      sql`delete from payer_presentation_lines where split_line_id = ${lines[2]?.id}::uuid`,
      sql`update payer_presentation_lines set presentation_id = ${presentation.id}::uuid where split_line_id = ${lines[2]?.id}::uuid`,
      sql`insert into payer_presentation_lines (account_id, split_line_id, presentation_id, date)
          select account_id, split_line_id, presentation_id, date from payer_presentation_lines
          where split_line_id = ${lines[2]?.id}::uuid`,
    ]) {
      const refused = await t.db
        .withTenant(t.clinic.accountId, (tx) => tx.execute(statement))
        .then(
          () => undefined,
          (error: { code?: string; cause?: { code?: string } }) => error,
        );
      // 42501 insufficient privilege (no UPDATE nor DELETE), 23505 the line's key taken.
      expect(['42501', '23505']).toContain(refused?.cause?.code ?? refused?.code);
    }
    // A presented line must be a split line of the presentation's payer, on its own date.
    const orphan = await t.db
      .withTenant(t.clinic.accountId, (tx) =>
        tx.execute(sql`insert into payer_presentation_lines (account_id, split_line_id, presentation_id, date)
          values (${t.clinic.accountId}::uuid, ${presentation.id}::uuid, ${presentation.id}::uuid, '2026-03-02')`),
      )
      .then(
        () => undefined,
        (error: { code?: string; cause?: { code?: string } }) => error,
      );
    expect(orphan?.cause?.code ?? orphan?.code).toBe('23503');
    const presented = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ presentation_id: string }>(
        sql`select presentation_id from payer_presentation_lines where split_line_id = ${lines[2]?.id}::uuid`,
      ),
    );
    expect(presented.rows.map((row) => row.presentation_id)).toEqual([presentation.id]);
  });

  /** An issued, accepted budget of the patient in the clinic's currency. */
  async function acceptedBudget(patientId: string, lines: Record<string, unknown>[], accept = true) {
    const { rows } = await t.db.orm.execute<{ currency: string }>(
      sql`select system_currency as currency from accounts where id = ${t.clinic.accountId}::uuid`,
    );
    const budget = await t.created<{ id: string; customerId: string }>('/api/sales', {
      body: {
        documentType: 'budget',
        patientId,
        pointOfService: '0001',
        date: '2026-03-01',
        currency: rows[0]?.currency,
        issue: true,
        lines,
      },
    });
    if (accept) {
      const decided = await t.call('POST', `/api/sales/${budget.id}/decision`, {
        body: { decision: 'accepted', decidedOn: '2026-03-02' },
      });
      expect(decided.statusCode, decided.body).toBe(201);
    }
    return { ...budget, currency: rows[0]?.currency as string };
  }

  it("splits an accepted budget's pending lines at its invoicing: two documents, the same traceability, to the cent", async () => {
    const payer = await newPayer();
    const implant = await treatment('Implante', 'Implantes', '1000.00');
    const cleaning = await treatment('Limpieza', 'Prevención', '100.00');
    const plan = await newPlan(payer.id, [
      { treatmentId: implant, mode: 'percentage', value: '33.33', authorizationRequired: true },
      { treatmentId: cleaning, mode: 'percentage', value: '100' },
    ]);
    const patient = await t.newPatient();
    await affiliate(patient, payer.id, plan.id);
    const budget = await acceptedBudget(patient, [
      {
        description: 'Implante pieza 36',
        quantity: '1',
        unitPrice: '1000.05',
        discountRate: '10',
        vatRate: '0',
        treatmentId: implant,
        tooth: '36',
      },
      { description: 'Limpieza', quantity: '1', unitPrice: '100', vatRate: '0', treatmentId: cleaning },
      { description: 'Blanqueamiento', quantity: '2', unitPrice: '150.25', vatRate: '0' },
    ]);
    const { rows: budgetLines } = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ id: string; net: string }>(
        sql`select id, subtotal::text as net from document_lines where document_id = ${budget.id}::uuid order by position`,
      ),
    );
    const budgetNet = budgetLines.reduce((sum, line) => sum.plus(line.net), new Big(0)).toFixed(2);
    // The preview: the same lines, the same engine.
    const preview = (await t.call('GET', `/api/patients/${patient}/payer-coverage?budgetId=${budget.id}`)).json().data;
    expect(
      preview.lines.map((line: { kind: string; attendanceId: string | null }) => [line.kind, line.attendanceId]),
    ).toEqual([
      ['budget_line', null],
      ['budget_line', null],
      ['budget_line', null],
    ]);
    // A payer money plan on the budget first: its collection pays the patient's part later.
    const moneyPlan = await t.call('POST', '/api/payment-plans', {
      body: { documentId: budget.id, instalmentCount: 3, firstDueOn: '2026-12-10', frequency: 'monthly' },
    });
    expect(moneyPlan.statusCode, moneyPlan.body).toBe(201);
    const collected = await t.call('POST', '/api/collections', {
      body: {
        patientId: patient,
        date: '2026-03-05',
        amount: '100',
        currency: budget.currency,
        method: 'cash_payment',
        paymentPlanId: moneyPlan.json().data.id,
      },
    });
    expect(collected.statusCode, collected.body).toBe(201);

    const refused = await invoice(patient, { budgetId: budget.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'payer_authorization_required',
      details: { sourceIds: [budgetLines[0]?.id] },
    });
    const key = `split-${newId()}`;
    const body = { budgetId: budget.id, authorizations: [{ sourceId: budgetLines[0]?.id, number: 'AUT-4455' }] };
    const answer = await invoice(patient, body, { idempotencyKey: key });
    expect(answer.statusCode, answer.body).toBe(201);
    const result = answer.json().data;
    // Patient part + payer part = the budget lines' total, to the cent.
    expect(new Big(result.patientTotal).plus(result.payerTotal).toFixed(2)).toBe(budgetNet);
    const answered = result.lines as (SplitLine & { sourceKind: string; attendanceId: string | null })[];
    const lines = budgetLines.map(
      (budgetLine) =>
        answered.find((line) => line.sourceId === budgetLine.id) as SplitLine & {
          sourceKind: string;
          attendanceId: string | null;
        },
    );
    expect(answered).toHaveLength(3);
    for (const [index, line] of lines.entries()) {
      expect(line.sourceKind).toBe('budget_line');
      expect(line.attendanceId).toBeNull();
      expect(line.lineTotal).toBe(budgetLines[index]?.net);
      expect(new Big(line.patientAmount).plus(line.payerAmount).toFixed(2)).toBe(line.lineTotal);
      expect(line.rounding).toBeTruthy();
    }
    // 1,000.05 less 10 % (100.01) = 900.04, split 33.33 % with the payer, the cents written down.
    expect(lines[0]).toMatchObject({
      lineTotal: '900.04',
      authorizationNumber: 'AUT-4455',
      patientDocumentId: result.patientInvoiceId,
      payerDocumentId: result.payerInvoiceId,
    });
    expect(lines[1]).toMatchObject({ patientAmount: '0.00', payerAmount: '100.00', patientDocumentId: null });
    expect(lines[2]).toMatchObject({ payerAmount: '0.00', patientAmount: '300.50', payerDocumentId: null });
    const patientDoc = await documentOf(result.patientInvoiceId);
    const payerDoc = await documentOf(result.payerInvoiceId);
    expect(patientDoc?.total).toBe(result.patientTotal);
    expect(payerDoc?.total).toBe(result.payerTotal);
    // The plan's money went to the patient's invoice.
    expect(patientDoc?.open_amount).toBe(new Big(result.patientTotal).minus(100).toFixed(2));
    // Invoiced once: each budget line is billed, the payer-only line by the payer's invoice.
    expect(await billedBy(budgetLines[0]?.id as string)).toEqual([result.patientInvoiceId]);
    expect(await billedBy(budgetLines[1]?.id as string)).toEqual([result.payerInvoiceId]);
    expect(await billedBy(budgetLines[2]?.id as string)).toEqual([result.patientInvoiceId]);
    const progress = (await t.call('GET', `/api/sales/${budget.id}/progress`)).json().data;
    expect(progress.lines.every((line: { invoiced: boolean }) => line.invoiced)).toBe(true);
    // The same key answers the first invoicing; a new one finds nothing left.
    const again = await invoice(patient, body, { idempotencyKey: key });
    expect(again.json().data.patientInvoiceId).toBe(result.patientInvoiceId);
    const twice = await invoice(patient, { budgetId: budget.id });
    expect(twice.json().code).toBe('nothing_to_invoice');
    const audit = (await t.auditEvents('payer_invoices_issued')).at(-1);
    expect(audit?.after).toMatchObject({ budgetId: budget.id });
    expect(await customerLedgerMismatches(t)).toEqual([]);
  });

  it("refuses a budget not accepted, another patient's or another clinic's, and without an Idempotency-Key", async () => {
    const payer = await newPayer();
    const plan = await newPlan(payer.id, [{ mode: 'percentage', value: '50' }]);
    const patient = await t.newPatient();
    await affiliate(patient, payer.id, plan.id);
    const line = { description: 'Consulta', quantity: '1', unitPrice: '80', vatRate: '0' };
    const pending = await acceptedBudget(patient, [line], false);
    expect((await invoice(patient, { budgetId: pending.id })).json().code).toBe('budget_not_accepted');
    const budget = await acceptedBudget(patient, [line]);
    const stranger = await t.newPatient();
    expect((await invoice(stranger, { budgetId: budget.id })).statusCode).toBe(404);
    const theirs = await invoice(patient, { budgetId: budget.id }, { token: t.other.token });
    expect(theirs.statusCode).toBe(404);
    const none = await t.call('POST', `/api/patients/${patient}/payer-invoices`, {
      body: { budgetId: budget.id },
      idempotencyKey: null,
    });
    expect(none.json().code).toBe('idempotency_key_required');
    const invalid = await invoice(patient, { budgetId: 'nope' });
    expect(invalid.statusCode).toBe(400);
  });

  it('levels: a user reads and invoices, a customer-level session nothing; writes of payers need commercial.write', async () => {
    const payer = await newPayer();
    await t.asLevel('user', async () => {
      expect((await t.call('GET', '/api/payer-presentations')).statusCode).toBe(200);
      expect((await t.call('GET', `/api/payers/${payer.id}/plans`)).statusCode).toBe(200);
    });
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/payer-presentations')).statusCode).toBe(403);
      expect((await t.call('GET', `/api/patients/${t.patientId}/payer-coverage`)).statusCode).toBe(403);
      expect((await invoice(t.patientId, {})).statusCode).toBe(403);
    });
  });
});
