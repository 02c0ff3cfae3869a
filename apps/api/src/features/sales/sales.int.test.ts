import { randomUUID } from 'node:crypto';
import { clinicToday } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestClinic } from '../../../test/clinics.ts';
import { customerLedgerMismatches, expectHiddenFromOtherClinic } from '../../../test/commercial.ts';
import { counter } from '../../../test/counter.ts';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { insertCustomer } from '../../../test/sales-factory.ts';
import { createSupply } from '../../../test/supplies.ts';
import { expectRefusedAsClinic, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/**
 * Sales (issue 18): drafts, issue (numbering, chain, snapshots, ledger, stock, invoiced once,
 * cash and cards collected at once, e-invoicing), correction notes, the integrity report,
 * billables, isolation and levels.
 */
describe.each(availableBackends())('sales on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });

  const next = counter();

  const posReady = new Set<string>();
  /** The clinic's point of sale `code` (made once). */
  async function pointOfSale(clinic: TestClinic = t.clinic, code = '0001', active = true) {
    const key = `${clinic.accountId}:${code}`;
    if (posReady.has(key)) return code;
    const created = await t.call('POST', '/api/points-of-sale', {
      token: clinic.token,
      body: { code, name: `Caja ${code}`, active },
    });
    expect(created.statusCode, created.body).toBe(201);
    posReady.add(key);
    return code;
  }

  /** An insurer with a Spanish-style tax id (no tax id kind). */
  function newCompany(clinic: TestClinic = t.clinic, overrides: { active?: boolean; term?: number } = {}) {
    const n = next();
    return insertCustomer(
      t,
      {
        kind: 'insurer',
        name: `Mutua Dental ${n}`,
        taxIdKind: null,
        taxId: `B${String(20000000 + n)}`,
        email: `mutua${n}@example.com`,
        paymentTermDays: overrides.term ?? 30,
        active: overrides.active ?? true,
      },
      clinic,
    );
  }

  const newSupply = (totalStock = 10) =>
    createSupply(t, { name: `Cepillo interdental ${next()}`, costPrice: '2', basePrice: '5', totalStock });

  const stockOf = async (itemId: string) =>
    (await t.call('GET', `/api/supplies/${itemId}`)).json().data.totalStock as number;

  const sale = (overrides: Record<string, unknown> = {}) => ({
    documentType: 'invoice',
    patientId: t.patientId,
    pointOfService: '0001',
    date: '2026-03-10',
    currency: 'argentine_peso',
    lines: [{ description: 'Limpieza dental', quantity: '1', unitPrice: '100', vatRate: '21', tooth: '16' }],
    ...overrides,
  });

  type SaleAnswer = {
    id: string;
    version: number;
    status: string;
    total: string;
    openAmount: string;
    number: string | null;
    customerId: string;
    [key: string]: unknown;
  };

  async function post(body: object, token = t.clinic.token): Promise<SaleAnswer> {
    return t.created('/api/sales', { token, body });
  }

  async function issue(draft: { id: string; version: number }, token = t.clinic.token) {
    return t.call('POST', `/api/sales/${draft.id}/issue`, { token, body: { version: draft.version } });
  }

  // The ledger invariant after every scenario: for every customer, party_balances = Σ ledger =
  // Σ open amounts of its issued sales − Σ unallocated of its live collections.
  afterEach(async () => {
    expect(await customerLedgerMismatches(t)).toEqual([]);
    expect(await dayFigureMismatches(t)).toEqual([]);
  });

  it('validates each field with its code (400, never a 500)', async () => {
    const cases: [Record<string, unknown>, { path: string; code: string }][] = [
      [{ lines: [] }, { path: 'lines', code: 'required' }],
      [{ patientId: undefined }, { path: 'customerId', code: 'required' }],
      [{ documentType: 'credit_note' }, { path: 'relatedDocumentId', code: 'related_document_required' }],
      [{ documentType: 'purchase_order' }, { path: 'documentType', code: 'invalid_value' }],
      [{ dueDate: '2026-03-01' }, { path: 'dueDate', code: 'due_before_date' }],
      [{ conditionSale: 'cards' }, { path: 'paymentMethod', code: 'card_method_required' }],
      [
        { conditionSale: 'cash', paymentMethod: 'credit_card' },
        { path: 'paymentMethod', code: 'cash_method_required' },
      ],
      [
        { lines: [{ description: 'x', quantity: '1', unitPrice: '1', vatRate: '0', tooth: '19' }] },
        { path: 'lines.0.tooth', code: 'invalid_tooth' },
      ],
      [
        { lines: [{ description: 'x', quantity: 'abc', unitPrice: '1', vatRate: '0' }] },
        { path: 'lines.0.quantity', code: 'invalid_number' },
      ],
      [
        { lines: [{ itemId: newId(), description: 'x', quantity: '1.5', unitPrice: '1', vatRate: '0' }] },
        { path: 'lines.0.quantity', code: 'whole_quantity_required' },
      ],
      [{ pointOfService: 'A1' }, { path: 'pointOfService', code: 'invalid_format' }],
      [{ date: '2026-02-30' }, { path: 'date', code: 'invalid_date' }],
    ];
    for (const [overrides, field] of cases) {
      const response = await t.call('POST', '/api/sales', { body: sale(overrides) });
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      const codes = (response.json().details.fields as { path: string; code: string }[])
        .filter((f) => f.path === field.path)
        .map((f) => f.code);
      expect(codes, JSON.stringify(overrides)).toContain(field.code);
    }
    const missing = await t.call('POST', '/api/sales', { body: sale({ patientId: undefined, customerId: newId() }) });
    expect(missing.json().code).toBe('customer_not_found');
    const noTreatment = await t.call('POST', '/api/sales', {
      body: sale({ lines: [{ treatmentId: newId(), description: 'x', quantity: '1', unitPrice: '1', vatRate: '0' }] }),
    });
    expect(noTreatment.json().code).toBe('treatment_not_found');
  });

  it("makes the patient's customer on first billing, edits and deletes a draft; an issued one is final, in the database too", async () => {
    await pointOfSale();
    const draft = await post(sale());
    expect(draft).toMatchObject({
      status: 'draft',
      number: null,
      total: '121.00',
      openAmount: '0.00',
      patientId: t.patientId,
    });
    expect(draft.customerId).toEqual(expect.any(String));
    const stale = await t.call('PUT', `/api/sales/${draft.id}`, { body: { ...sale(), version: draft.version + 5 } });
    expect(stale.json().code).toBe('version_conflict');
    const edited = await t.call('PUT', `/api/sales/${draft.id}`, {
      body: {
        ...sale({
          lines: [
            { description: 'Empaste', quantity: '2', unitPrice: '50', discountRate: '10', vatRate: '21', tooth: '36' },
            { description: 'Radiografía', quantity: '1', unitPrice: '10', vatRate: '0' },
          ],
        }),
        version: draft.version,
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ subtotal2: '100.00', vatTotal: '18.90', total: '118.90' });
    expect(edited.json().data.lines[0]).toMatchObject({ tooth: '36', discount: '10.00' });

    const toDelete = await post(sale());
    expect((await t.call('DELETE', `/api/sales/${toDelete.id}`)).json().code).toBe('sale_deleted');
    expect((await t.call('GET', `/api/sales/${toDelete.id}`)).statusCode).toBe(404);
    expect((await t.auditEvents('sale_deleted')).some((row) => row.entityId === toDelete.id)).toBe(true);

    const issued = await issue(edited.json().data);
    expect(issued.statusCode, issued.body).toBe(200);
    const data = issued.json().data;
    expect(issued.json().code).toBe('sale_issued');
    expect(data).toMatchObject({
      status: 'issued',
      number: expect.stringMatching(/^0001-\d{8}$/),
      openAmount: '118.90',
      dueDate: '2026-03-10',
      issuerSnapshot: { name: expect.any(String) },
      counterpartySnapshot: { name: expect.any(String) },
      contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      einvoice: { status: 'local', adapter: 'local' },
    });
    const version = data.version;
    expect((await t.call('PUT', `/api/sales/${draft.id}`, { body: { ...sale(), version } })).json().code).toBe(
      'document_final',
    );
    expect((await t.call('DELETE', `/api/sales/${draft.id}`)).json().code).toBe('document_final');
    expect((await issue({ id: draft.id, version })).json().code).toBe('document_final');
    // The app's role cannot change an issued sale or its lines: the trigger refuses it.
    await expectRefusedAsClinic(t, sql`update commercial_documents set total = 1 where id = ${draft.id}::uuid`);
    await expectRefusedAsClinic(
      t,
      sql`update document_lines set description = 'otra' where document_id = ${draft.id}::uuid`,
    );
    const event = (await t.auditEvents('sale_issued')).find((row) => row.entityId === draft.id);
    expect(event?.after).toMatchObject({ status: 'issued', number: data.number, openAmount: '118.90' });

    // No authority configured (issue 39): on record as local, without fiscal validity, and no job.
    expect(data.einvoice).toMatchObject({ adapter: 'local', status: 'local', authorizationCode: null });
  });

  it('numbers per type and point of sale, chains every issue and answers 409 for an inactive point of sale or customer', async () => {
    const clinic = await t.newClinic();
    const patient = await t.newPatient(clinic.token);
    const mine = (overrides: Record<string, unknown> = {}) => sale({ patientId: patient, ...overrides });
    const noPos = await t.call('POST', '/api/sales', { token: clinic.token, body: mine({ issue: true }) });
    expect(noPos.json()).toMatchObject({ code: 'point_of_sale_inactive', details: { pointOfSale: { code: '0001' } } });
    await pointOfSale(clinic, '0001');
    await pointOfSale(clinic, '0002', false);
    const closed = await t.call('POST', '/api/sales', {
      token: clinic.token,
      body: mine({ pointOfService: '2', issue: true }),
    });
    expect(closed.json().code).toBe('point_of_sale_inactive');
    const first = await post(mine({ issue: true }), clinic.token);
    const budget = await post(mine({ documentType: 'budget', issue: true }), clinic.token);
    const second = await post(mine({ issue: true }), clinic.token);
    expect([first.number, budget.number, second.number]).toEqual(['0001-00000001', '0001-00000001', '0001-00000002']);
    // Made and issued in one request: one event says both (the draft's columns and the number).
    expect((await t.auditEvents('sale_created', clinic)).map((row) => row.entityId)).not.toContain(first.id);
    const issuedEvent = (await t.auditEvents('sale_issued', clinic)).find((row) => row.entityId === first.id);
    expect(issuedEvent?.before).toBeNull();
    expect(issuedEvent?.after).toMatchObject({
      status: 'issued',
      number: '0001-00000001',
      documentType: 'invoice',
      customerId: first.customerId,
      lines: [expect.stringContaining(' × ')],
    });
    expect(budget.openAmount).toBe('0.00');
    const chain = [first, budget, second].map((row) => [row.chainIndex, row.previousHash]);
    expect(chain).toEqual([
      [1, null],
      [2, first.contentHash],
      [3, budget.contentHash],
    ]);

    const company = await newCompany(clinic, { term: 30 });
    const onAccount = await post(
      mine({ patientId: undefined, customerId: company, conditionSale: 'current_account', issue: true }),
      clinic.token,
    );
    expect(onAccount).toMatchObject({ dueDate: '2026-04-09', openAmount: '121.00' });
    const draft = await post(mine({ patientId: undefined, customerId: company }), clinic.token);
    await t.db.withTenant(clinic.accountId, (tx) =>
      tx.execute(sql`update customers set active = false where id = ${company}::uuid`),
    );
    expect((await issue(draft, clinic.token)).json().code).toBe('customer_inactive');
    const report = (await t.call('GET', '/api/sales/integrity', { token: clinic.token })).json().data;
    expect(report).toMatchObject({ ok: true, pointsOfSale: [{ pointOfService: '0001', documents: 4, gaps: [] }] });
  });

  it('collects a cash or cards sale at once and leaves a current-account one open', async () => {
    await pointOfSale();
    const cash = await post(sale({ conditionSale: 'cash', issue: true }));
    expect(cash).toMatchObject({ openAmount: '0.00', paymentMethod: 'cash_payment' });
    expect(cash.allocations).toEqual([
      expect.objectContaining({ amount: '121.00', paymentNumber: expect.stringMatching(/^RC-\d{6}$/) }),
    ]);
    const card = await post(sale({ conditionSale: 'cards', paymentMethod: 'debit_card', issue: true }));
    expect(card.openAmount).toBe('0.00');
    const { rows } = await t.db.orm.execute<{
      method: string;
      status: string;
      amount: string;
      allocated_amount: string;
    }>(sql`
      select p.method, p.status, p.amount, p.allocated_amount from payments p
      join payment_allocations a on a.account_id = p.account_id and a.payment_id = p.id
      where a.document_id in (${cash.id}::uuid, ${card.id}::uuid) order by p.number`);
    expect(rows.map((row) => [row.method, row.status, Number(row.amount), Number(row.allocated_amount)])).toEqual([
      ['cash_payment', 'paid', 121, 121],
      ['debit_card', 'paid', 121, 121],
    ]);
    expect((await t.auditEvents('collection_created')).length).toBeGreaterThanOrEqual(2);
  });

  it('corrects an invoice with a credit note that applies itself; a user may not issue one', async () => {
    await pointOfSale();
    const company = await newCompany();
    const invoice = await post(sale({ patientId: undefined, customerId: company, issue: true }));
    const userTry = await t.asLevel('user', () =>
      t.call('POST', `/api/sales/${invoice.id}/correct`, { body: { documentType: 'credit_note' } }),
    );
    expect(userTry.statusCode).toBe(403);
    const debit = await t.asLevel('user', () =>
      t.call('POST', `/api/sales/${invoice.id}/correct`, { body: { documentType: 'debit_note' } }),
    );
    expect(debit.statusCode, debit.body).toBe(201);
    expect(debit.json().data).toMatchObject({
      documentType: 'debit_note',
      status: 'draft',
      relatedDocumentId: invoice.id,
    });
    const credit = await t.call('POST', `/api/sales/${invoice.id}/correct`, { body: { documentType: 'credit_note' } });
    expect(credit.statusCode, credit.body).toBe(201);
    const note = credit.json().data;
    expect(note.lines).toHaveLength(1);
    const userIssue = await t.asLevel('user', () => issue(note));
    expect(userIssue.statusCode).toBe(403);
    const issued = await issue(note);
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().data).toMatchObject({ openAmount: '0.00', number: '0001-00000001' });
    const corrected = (await t.call('GET', `/api/sales/${invoice.id}`)).json().data;
    expect(corrected.openAmount).toBe('0.00');
    expect(corrected.relatedFrom.map((row: { id: string }) => row.id)).toEqual(
      expect.arrayContaining([note.id, debit.json().data.id]),
    );
    // A note may only correct an issued invoice, debit note or receipt of the same customer.
    const wrong = await t.call('POST', '/api/sales', {
      body: sale({ documentType: 'credit_note', relatedDocumentId: invoice.id }),
    });
    expect(wrong.json()).toMatchObject({ code: 'related_document_invalid', details: { why: 'other_customer' } });
    const budget = await post(sale({ documentType: 'budget', issue: true }));
    const ofBudget = await t.call('POST', `/api/sales/${budget.id}/correct`, { body: { documentType: 'credit_note' } });
    expect(ofBudget.json().code).toBe('document_type_invalid');
  });

  it('moves stock out with a delivery note, not again with its invoice, back in with a returns credit note', async () => {
    await pointOfSale();
    const itemId = await newSupply(10);
    const line = { itemId, description: 'Cepillo interdental', quantity: '3', unitPrice: '5', vatRate: '21' };
    const note = await post(sale({ documentType: 'delivery_note', lines: [line], issue: true }));
    expect(note).toMatchObject({ movedStock: true, openAmount: '0.00' });
    expect(await stockOf(itemId)).toBe(7);
    const invoice = await post(sale({ relatedDocumentId: note.id, lines: [line], issue: true }));
    expect(invoice).toMatchObject({ movedStock: false, openAmount: '18.15' });
    expect(await stockOf(itemId)).toBe(7);
    const again = await t.call('POST', '/api/sales', { body: sale({ relatedDocumentId: note.id, lines: [line] }) });
    expect(again.json().code).toBe('delivery_note_already_invoiced');
    const direct = await post(sale({ lines: [{ ...line, quantity: '2' }], issue: true }));
    expect(direct.movedStock).toBe(true);
    expect(await stockOf(itemId)).toBe(5);
    const credit = await post(
      sale({
        documentType: 'credit_note',
        // An earlier test issued a credit note dated today on this point of sale (issue 35: no earlier date after it).
        date: clinicToday('America/Argentina/Buenos_Aires'),
        relatedDocumentId: direct.id,
        returnsGoods: true,
        lines: [{ ...line, quantity: '2' }],
        issue: true,
      }),
    );
    expect(credit.movedStock).toBe(true);
    expect(await stockOf(itemId)).toBe(7);
    const short = await t.call('POST', '/api/sales', {
      body: sale({ lines: [{ ...line, quantity: '50' }], issue: true }),
    });
    expect(short.json().code).toBe('insufficient_stock');
    expect(await stockOf(itemId)).toBe(7);
  });

  it('invoices a source once (409 already_invoiced naming the invoice), whatever the drafts say', async () => {
    // A point of sale of its own: earlier tests issued invoices up to today on 0001 (issue 35: none earlier after them).
    const pointOfService = await pointOfSale(t.clinic, '0005');
    // A line of the patient's accepted budget (issue 35: a sale line may bill only that).
    const budget = await post(sale({ documentType: 'budget', pointOfService, date: '2026-03-01' }));
    expect((await issue(budget)).statusCode).toBe(200);
    const accepted = await t.call('POST', `/api/sales/${budget.id}/decision`, {
      body: { decision: 'accepted', decidedOn: '2026-03-02' },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const budgetLine = (await t.call('GET', `/api/sales/${budget.id}`)).json().data.lines[0].id as string;
    const line = { description: 'Corona', quantity: '1', unitPrice: '300', vatRate: '0', sourceLineId: budgetLine };
    const first = await post(sale({ pointOfService, lines: [line] }));
    const second = await post(sale({ pointOfService, lines: [line] }));
    const issued = await issue(first);
    expect(issued.statusCode, issued.body).toBe(200);
    const refused = await issue(second);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'already_invoiced', details: { document: { id: first.id } } });
    expect((await t.call('GET', `/api/sales/${second.id}`)).json().data.status).toBe('draft');
  });

  it('reports one changed byte and a numbering gap', async () => {
    const clinic = await t.newClinic();
    const patient = await t.newPatient(clinic.token);
    await pointOfSale(clinic, '0003');
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      ids.push((await post(sale({ patientId: patient, pointOfService: '3', issue: true }), clinic.token)).id);
    }
    const clean = (await t.call('GET', '/api/sales/integrity', { token: clinic.token })).json().data;
    expect(clean.ok).toBe(true);
    // As the superuser, around the trigger: one letter of the second invoice's line.
    await t.db.orm.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(
        sql`update document_lines set description = 'Limpieza dentaL' where document_id = ${ids[1]}::uuid`,
      );
      await tx.execute(sql`
        update sale_sequences set last_number = last_number + 1
        where account_id = ${clinic.accountId}::uuid and point_of_service = '0003' and document_type = 'invoice'`);
    });
    const report = (await t.call('GET', '/api/sales/integrity', { token: clinic.token })).json().data;
    expect(report.ok).toBe(false);
    const [pos] = report.pointsOfSale;
    expect(pos.problems).toEqual([
      expect.objectContaining({ kind: 'content_changed', documentId: ids[1], chainIndex: 2 }),
    ]);
    expect(pos.gaps).toEqual([{ documentType: 'invoice', from: 4, to: 4 }]);
  });

  it.runIf(backend === 'postgres')(
    'numbers 20 concurrent issues on one point of sale without gaps or duplicates',
    async () => {
      const clinic = await t.newClinic();
      const patient = await t.newPatient(clinic.token);
      await pointOfSale(clinic, '0001');
      const drafts = [];
      for (let index = 0; index < 20; index += 1) {
        drafts.push(
          await post(sale({ patientId: patient, documentType: index % 4 === 0 ? 'receipt' : 'invoice' }), clinic.token),
        );
      }
      const answers = await Promise.all(drafts.map((draft) => issue(draft, clinic.token)));
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      const issued = answers.map(
        (answer) => answer.json().data as { documentType: string; sequenceNumber: number; chainIndex: number },
      );
      const invoices = issued.filter((row) => row.documentType === 'invoice').map((row) => row.sequenceNumber);
      const receipts = issued.filter((row) => row.documentType === 'receipt').map((row) => row.sequenceNumber);
      expect([...invoices].sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect([...receipts].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
      expect(issued.map((row) => row.chainIndex).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      const report = (await t.call('GET', '/api/sales/integrity', { token: clinic.token })).json().data;
      expect(report).toMatchObject({ ok: true, pointsOfSale: [{ documents: 20, gaps: [], problems: [] }] });
    },
  );

  it('lists with search, filters, sort and pages', async () => {
    const clinic = await t.newClinic();
    const patient = await t.newPatient(clinic.token);
    await pointOfSale(clinic, '0001');
    const company = await newCompany(clinic);
    const a = await post(sale({ patientId: patient, date: '2026-01-05', notes: 'ortodoncia fase uno' }), clinic.token);
    const b = await post(
      sale({ patientId: undefined, customerId: company, date: '2026-02-05', issue: true }),
      clinic.token,
    );
    const c = await post(sale({ patientId: patient, documentType: 'budget', date: '2026-03-05' }), clinic.token);
    const ids = async (query: string) =>
      (await t.call('GET', `/api/sales?${query}`, { token: clinic.token }))
        .json()
        .data.map((row: { id: string }) => row.id);
    expect(await ids('')).toEqual([c.id, b.id, a.id]);
    expect(await ids('sort=date')).toEqual([a.id, b.id, c.id]);
    expect(await ids(`customerId=${company}`)).toEqual([b.id]);
    expect(await ids(`patientId=${patient}`)).toEqual([c.id, a.id]);
    expect(await ids('documentType=budget')).toEqual([c.id]);
    expect(await ids('status=issued')).toEqual([b.id]);
    expect(await ids('dateFrom=2026-02-01&dateTo=2026-02-28')).toEqual([b.id]);
    expect(await ids('q=ortodoncia')).toEqual([a.id]);
    expect(await ids('q=mutua')).toEqual([b.id]);
    const page = (await t.call('GET', '/api/sales?pageSize=2&page=2', { token: clinic.token })).json();
    expect(page).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page.data[0]).toMatchObject({ id: a.id, customerName: expect.any(String) });
  });

  it("prints the PDF in the customer's language and e-mails it (409 customer_without_email)", async () => {
    await pointOfSale();
    const company = await newCompany();
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute(sql`update customers set language = 'fr' where id = ${company}::uuid`),
    );
    const invoice = await post(sale({ patientId: undefined, customerId: company, issue: true }));
    const pdf = await t.call('GET', `/api/sales/${invoice.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(pdf.rawPayload)).toContain('Reste dû: 121,00');
    // Collected in part: the PDF lists the collection and what is still due.
    const collected = await t.call('POST', '/api/collections', {
      body: {
        customerId: company,
        date: '2026-03-12',
        amount: '21.00',
        currency: 'argentine_peso',
        method: 'cash_payment',
        allocations: [{ documentId: invoice.id, amount: '21.00' }],
      },
      headers: { 'idempotency-key': `test-${randomUUID()}` },
    });
    expect(collected.statusCode, collected.body).toBe(201);
    const settled = pdfText((await t.call('GET', `/api/sales/${invoice.id}/pdf`)).rawPayload);
    expect(settled).toContain('Paiements imputés');
    expect(settled).toContain(collected.json().data.number);
    expect(settled).toContain('Reste dû: 100,00');
    // No tax authority (issue 39): the paper says plainly it is no tax document, never "authorised".
    expect((await t.call('GET', `/api/sales/${invoice.id}`)).json().data.einvoice).toMatchObject({
      adapter: 'local',
      status: 'local',
    });
    const printed = pdfText((await t.call('GET', `/api/sales/${invoice.id}/pdf`)).rawPayload);
    expect(printed).toContain('sans valeur fiscale');
    expect(printed).not.toMatch(/autoris/i);
    const sent = await t.call('POST', `/api/sales/${invoice.id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
    const to = sent.json<{ to: string }>().to;
    const mail = t.mailer.lastTo(to);
    expect(mail?.subject).toMatch(/^Facture 0001-\d{8} — /);
    expect(mail?.text).toContain('Veuillez trouver ci-joint');
    expect(mail?.attachments?.[0]).toMatchObject({ contentType: 'application/pdf' });
    expect(mail?.attachments?.[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await t.auditEvents('sale_sent')).some((row) => row.entityId === invoice.id)).toBe(true);

    const patientSale = await post(sale());
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute(sql`update customers set email = null where id = ${patientSale.customerId}::uuid`),
    );
    const refused = await t.call('POST', `/api/sales/${patientSale.id}/send`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('customer_without_email');
    t.mailer.failing = true;
    try {
      expect((await t.call('POST', `/api/sales/${invoice.id}/send`)).json().code).toBe('error_sending_email');
    } finally {
      t.mailer.failing = false;
    }
    expect((await t.call('GET', `/api/sales/${invoice.id}/pdf`, { token: t.other.token })).statusCode).toBe(404);
  });

  it('finds treatments and catalogue items in one billables search', async () => {
    const code = `LIM${next()}`;
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute(sql`
        insert into treatments (account_id, id, code, name, group_name, price, vat_rate, duration_minutes)
        values (${t.clinic.accountId}::uuid, ${newId()}::uuid, ${code}, 'Limpieza con ultrasonido', 'Prevención', 45, 0, 30)`),
    );
    await newSupply(4);
    const found = (await t.call('GET', '/api/billables?q=limpieza')).json().data;
    expect(found).toContainEqual(
      expect.objectContaining({ kind: 'treatment', code, unitPrice: '45.00', group: 'Prevención', stock: null }),
    );
    const items = (await t.call('GET', '/api/billables?q=interdental')).json().data;
    expect(items[0]).toMatchObject({ kind: 'supply', unitPrice: '5.00', vatRate: '21.00' });
    expect((await t.call('GET', '/api/billables?q=limpieza', { token: t.other.token })).json().data).toEqual([]);
  });

  it("answers 404 for another clinic's sale and never lists it", async () => {
    const mine = await post(sale());
    await expectHiddenFromOtherClinic(t, '/api/sales', mine.id, [
      ['GET', `/api/sales/${mine.id}`, undefined],
      ['PUT', `/api/sales/${mine.id}`, { ...sale(), version: mine.version }],
      ['POST', `/api/sales/${mine.id}/issue`, { version: mine.version }],
      ['POST', `/api/sales/${mine.id}/correct`, { documentType: 'debit_note' }],
      ['DELETE', `/api/sales/${mine.id}`, undefined],
    ]);
  });

  it('lets each level read and write as the permission matrix says', async () => {
    await pointOfSale();
    await t.asLevel('user', async () => {
      expect((await t.call('GET', '/api/sales')).statusCode).toBe(200);
      const draft = await post(sale());
      // No commercial deletes at the user level (docs/permissions.md), a sale draft's included (issue 35).
      expect((await t.call('DELETE', `/api/sales/${draft.id}`)).statusCode).toBe(403);
      expect((await t.call('GET', `/api/sales/${draft.id}`)).json().data).toMatchObject({ status: 'draft' });
      const issued = await issue(await post(sale()));
      expect(issued.statusCode).toBe(200);
      expect((await t.call('GET', '/api/sales/integrity')).statusCode).toBe(200);
    });
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/sales')).statusCode).toBe(403);
      expect((await t.call('POST', '/api/sales', { body: sale() })).statusCode).toBe(403);
      expect((await t.call('GET', '/api/billables')).statusCode).toBe(403);
    });
  });
});
