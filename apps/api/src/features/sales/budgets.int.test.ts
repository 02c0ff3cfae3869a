import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TestClinic } from '../../../test/clinics.ts';
import { counter } from '../../../test/counter.ts';
import { dataUrl, signaturePng } from '../../../test/signature-png.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { commercialDocuments, documentLines } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { signatureHash } from '../authorizations/signature.ts';
import { customerOfPatient } from '../customers/customer-parties.ts';
import { markBilled } from './billed-sources.ts';
import { insertSaleDraft, type SaleDraftLine } from './invoice-drafts.ts';
import { assignSaleNumber } from './sale-chain.ts';

/**
 * Budgets (answer, progress, conversion) and invoicing a patient's attendances (issue 18). The
 * sales API (create/issue) is another branch: drafts are written with insertSaleDraft and issued
 * with `issueForTest` (assignSaleNumber + the UPDATE to issued, and markBilled for an invoice),
 * the steps the sales service's issue takes.
 */
describe.each(availableBackends())('budgets and invoicing attendances on %s', (backend) => {
  const t = useTestClinic(backend);

  const next = counter();

  const asClinic = <T>(clinic: TestClinic, work: (ctx: Parameters<typeof insertSaleDraft>[0]) => Promise<T>) =>
    t.db.withTenant(clinic.accountId, (tx) => work({ tx, accountId: clinic.accountId, userId: clinic.userId }));

  async function newTreatment(vatRate = '21', clinic = t.clinic) {
    const id = newId();
    const n = next();
    await t.db.withTenant(clinic.accountId, (tx) =>
      tx.execute(sql`
        insert into treatments (account_id, id, code, name, group_name, price, vat_rate, duration_minutes)
        values (${clinic.accountId}::uuid, ${id}::uuid, ${`T${n}`}, ${`Endodoncia ${n}`}, 'Endodoncia', '100.00',
                ${vatRate}, 30)`),
    );
    return id;
  }

  /** A budget draft of the patient (two lines: one per tooth on a treatment, one free text). */
  async function budgetDraft(patientId: string, lines?: SaleDraftLine[], clinic = t.clinic) {
    const treatmentId = await newTreatment('21', clinic);
    return asClinic(clinic, async (ctx) => {
      const customer = await customerOfPatient(ctx, patientId);
      const draft = await insertSaleDraft(ctx, {
        documentType: 'budget',
        customer,
        date: '2026-03-01',
        currency: 'argentine_peso',
        pointOfService: '0001',
        lines: lines ?? [
          {
            description: 'Endodoncia unirradicular',
            quantity: '2',
            unitPrice: '100',
            vatRate: '21',
            treatmentId,
            tooth: '16',
          },
          { description: 'Corona de porcelana', quantity: '1', unitPrice: '350.50', vatRate: '0', discountRate: '10' },
        ],
      });
      return { ...draft, treatmentId };
    });
  }

  /** What the sales service's issue does to a draft here: number, chain, status; an invoice marks its sources. */
  async function issueForTest(documentId: string, clinic = t.clinic) {
    await asClinic(clinic, async (ctx) => {
      const [draft] = await ctx.tx
        .select()
        .from(commercialDocuments)
        .where(and(eq(commercialDocuments.accountId, ctx.accountId), eq(commercialDocuments.id, documentId)));
      if (!draft) throw new Error('no draft');
      const lines = await ctx.tx
        .select()
        .from(documentLines)
        .where(and(eq(documentLines.accountId, ctx.accountId), eq(documentLines.documentId, documentId)))
        .orderBy(asc(documentLines.position));
      // As the service: invoiced once is checked before the number (and its date order) is taken.
      if (draft.documentType === 'invoice') await markBilled(ctx, documentId, lines);
      const assigned = await assignSaleNumber(ctx, { ...draft, pointOfService: draft.pointOfService ?? '0001' }, lines);
      await ctx.tx
        .update(commercialDocuments)
        .set({
          ...assigned,
          pointOfService: draft.pointOfService ?? '0001',
          status: 'issued',
          registeredAt: new Date(),
          registeredBy: ctx.userId,
        })
        .where(and(eq(commercialDocuments.accountId, ctx.accountId), eq(commercialDocuments.id, documentId)));
    });
  }

  async function issuedBudget(patientId?: string) {
    const patient = patientId ?? (await t.newPatient());
    const draft = await budgetDraft(patient);
    await issueForTest(draft.document.id);
    return { ...draft, patientId: patient, id: draft.document.id };
  }

  const decide = (id: string, body: object, token?: string) =>
    t.call('POST', `/api/sales/${id}/decision`, { body, ...(token ? { token } : {}) });

  async function attendance(patientId: string, body: Record<string, unknown> = {}) {
    const response = await t.call('POST', `/api/patients/${patientId}/attendances`, {
      body: {
        date: '2026-03-10T10:30:00-03:00',
        attendanceType: 'dentistry',
        professionalId: t.clinic.userId,
        titleResume: 'Consulta y endodoncia',
        billable: true,
        attendanceFee: '40',
        lines: [
          { description: 'Endodoncia pieza 16', quantity: 1, price: '100' },
          { description: 'Radiografía periapical', quantity: 2, price: '15.50' },
        ],
        ...body,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().data.id as string;
    const lines = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ id: string; position: number }>(
        sql`select id, position from attendance_lines where attendance_id = ${id}::uuid and deleted_at is null order by position`,
      ),
    );
    return { id, lineIds: lines.rows.map((row) => row.id) };
  }

  /** What H1's attendance form will write: the line's treatment, tooth and the budget line it carries out. */
  async function linkLine(
    attendanceLineId: string,
    values: { treatmentId?: string; tooth?: string; budgetLineId?: string },
  ) {
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute(sql`
        update attendance_lines set treatment_id = ${values.treatmentId ?? null}::uuid, tooth = ${values.tooth ?? null},
          budget_line_id = ${values.budgetLineId ?? null}::uuid
        where account_id = ${t.clinic.accountId}::uuid and id = ${attendanceLineId}::uuid`),
    );
  }

  it('accepts an issued budget signed on the pad: the exact summary, the image and a SHA-256 over both; once', async () => {
    const budget = await issuedBudget();
    const png = signaturePng();
    const response = await decide(budget.id, {
      decision: 'accepted',
      signature: { image: dataUrl(png), signerName: '  Lucía Fernández ', signerIdNumber: '12345678Z' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const answer = response.json();
    expect(answer.code).toBe('budget_accepted');
    expect(answer.data.signerName).toBe('Lucía Fernández');
    expect(answer.data.signatureImage).toBe(dataUrl(png));
    const text = answer.data.signedText as string;
    expect(text).toMatch(/^Presupuesto 0001-\d{8}\n/);
    expect(text).toContain('1. 2 × Endodoncia unirradicular (pieza 16): $\u00a0242,00');
    expect(text).toContain('2. 1 × Corona de porcelana: $\u00a0315,45');
    expect(text).toContain('Total: $\u00a0557,45');
    expect(answer.data.sha256).toBe(signatureHash(text, png));
    // The progress answers the same text to sign and the decision.
    const progress = (await t.call('GET', `/api/sales/${budget.id}/progress`)).json().data;
    expect(progress.textToSign).toBe(text);
    expect(progress.decision.id).toBe(answer.data.id);
    // Once: a second answer (even a rejection) is refused, naming the first.
    const again = await decide(budget.id, { decision: 'rejected' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('budget_already_decided');
    expect(again.json().details.decision.id).toBe(answer.data.id);
    const events = await t.auditEvents('budget_accepted');
    expect(events.at(-1)?.entityId).toBe(budget.id);
    expect((events.at(-1)?.after as { sha256: string } | undefined)?.sha256).toBe(answer.data.sha256);
  });

  it('marks accepted or rejected with a day; refuses drafts, other types, bad input, future days', async () => {
    const accepted = await issuedBudget();
    const marked = await decide(accepted.id, { decision: 'accepted', decidedOn: '2026-03-05', notes: 'Por teléfono' });
    expect(marked.statusCode, marked.body).toBe(201);
    expect(marked.json().data).toMatchObject({
      decision: 'accepted',
      decidedOn: '2026-03-05',
      signatureImage: null,
      sha256: null,
    });

    const rejected = await issuedBudget();
    const no = await decide(rejected.id, { decision: 'rejected', decidedOn: '2026-03-02' });
    expect(no.statusCode, no.body).toBe(201);
    expect(no.json().code).toBe('budget_rejected');
    expect((await t.auditEvents('budget_rejected')).at(-1)?.entityId).toBe(rejected.id);

    const draft = await budgetDraft(await t.newPatient());
    const notIssued = await decide(draft.document.id, { decision: 'accepted' });
    expect(notIssued.statusCode).toBe(409);
    expect(notIssued.json().code).toBe('budget_not_issued');

    const invoice = await asClinic(t.clinic, async (ctx) =>
      insertSaleDraft(ctx, {
        documentType: 'invoice',
        customer: await customerOfPatient(ctx, accepted.patientId),
        date: '2026-03-01',
        currency: 'argentine_peso',
        pointOfService: '0001',
        lines: [{ description: 'Limpieza', quantity: '1', unitPrice: '50', vatRate: '0' }],
      }),
    );
    const wrongType = await decide(invoice.document.id, { decision: 'accepted' });
    expect(wrongType.statusCode).toBe(409);
    expect(wrongType.json().code).toBe('document_type_invalid');

    const fresh = await issuedBudget();
    const cases: [object, { path: string; code: string }][] = [
      [{}, { path: 'decision', code: 'required' }],
      [{ decision: 'maybe' }, { path: 'decision', code: 'invalid_value' }],
      [
        { decision: 'accepted', decidedOn: '2026-02-30' },
        { path: 'decidedOn', code: 'invalid_date' },
      ],
      [
        { decision: 'accepted', decidedOn: '2999-01-01' },
        { path: 'decidedOn', code: 'date_in_future' },
      ],
      [
        { decision: 'accepted', decidedOn: '2026-02-01' },
        { path: 'decidedOn', code: 'date_too_early' },
      ],
      [
        {
          decision: 'accepted',
          signature: { image: dataUrl(signaturePng(400, 150, false)), signerName: 'A', signerIdNumber: '1' },
        },
        { path: 'signature', code: 'required' },
      ],
      [
        { decision: 'accepted', signature: { image: 'bm90IGEgcG5n', signerName: 'A', signerIdNumber: '1' } },
        { path: 'signature', code: 'invalid_format' },
      ],
      [
        { decision: 'accepted', signature: { image: dataUrl(signaturePng()), signerName: ' ', signerIdNumber: '1' } },
        { path: 'signature.signerName', code: 'required' },
      ],
      [
        { decision: 'rejected', signature: { image: dataUrl(signaturePng()), signerName: 'A', signerIdNumber: '1' } },
        { path: 'signature', code: 'invalid_value' },
      ],
    ];
    for (const [body, field] of cases) {
      const response = await decide(fresh.id, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().details.fields).toContainEqual(field);
    }
    // None of them wrote an answer.
    expect((await t.call('GET', `/api/sales/${fresh.id}/progress`)).json().data.decision).toBeNull();
  });

  it('follows what the attendances did of each line and converts the rest into a proforma or an invoice draft', async () => {
    const budget = await issuedBudget();
    const [endo, crown] = budget.lines;
    if (!endo || !crown) throw new Error('budget lines');
    // Not accepted yet: no conversion.
    const early = await t.call('POST', `/api/sales/${budget.id}/convert`, { body: { documentType: 'invoice' } });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('budget_not_accepted');
    expect((await decide(budget.id, { decision: 'accepted', decidedOn: '2026-03-02' })).statusCode).toBe(201);

    const visit = await attendance(budget.patientId);
    await linkLine(visit.lineIds[0] as string, { treatmentId: budget.treatmentId, tooth: '16', budgetLineId: endo.id });
    const progress = (await t.call('GET', `/api/sales/${budget.id}/progress`)).json().data;
    expect(progress.lines).toMatchObject([
      { id: endo.id, quantity: '2.00', done: '1.00', left: '1.00', tooth: '16', invoiced: false },
      { id: crown.id, quantity: '1.00', done: '0.00', left: '1.00', invoiced: false },
    ]);
    expect(progress.lines[0].attendances).toMatchObject([{ attendanceId: visit.id, quantity: 1 }]);
    expect(progress.lines[0].treatmentCode).toMatch(/^T\d+$/);

    const proforma = await t.call('POST', `/api/sales/${budget.id}/convert`, {
      body: { documentType: 'proforma_invoice' },
    });
    expectAnswer(proforma, 201, {
      code: 'sale_created',
      data: { documentType: 'proforma_invoice', lines: 2, total: '557.45' },
    });

    // An invoice of the crown alone (its budget line), issued: the crown is invoiced, the endodontics not.
    const invoiceOfCrown = await asClinic(t.clinic, async (ctx) =>
      insertSaleDraft(ctx, {
        documentType: 'invoice',
        customer: await customerOfPatient(ctx, budget.patientId),
        date: '2026-03-03',
        currency: 'argentine_peso',
        pointOfService: '0001',
        relatedDocumentId: budget.id,
        lines: [
          {
            description: crown.description,
            quantity: '1',
            unitPrice: crown.unitPrice,
            vatRate: '0',
            sourceLineId: crown.id,
          },
        ],
      }),
    );
    await issueForTest(invoiceOfCrown.document.id);
    const converted = await t.call('POST', `/api/sales/${budget.id}/convert`, { body: { documentType: 'invoice' } });
    expect(converted.statusCode, converted.body).toBe(201);
    expect(converted.json().data).toMatchObject({ documentType: 'invoice', lines: 1, total: '242.00' });
    const draftId = converted.json().data.id as string;
    const stored = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<Record<string, unknown>>(sql`
        select d.status, d.document_type, d.related_document_id, d.patient_id, d.customer_id, d.point_of_service,
               d.subtotal2, d.vat_total, d.total, l.source_line_id, l.treatment_id, l.tooth, l.quantity, l.vat_rate
        from commercial_documents d join document_lines l on l.document_id = d.id where d.id = ${draftId}::uuid`),
    );
    expect(stored.rows).toEqual([
      expect.objectContaining({
        status: 'draft',
        document_type: 'invoice',
        related_document_id: budget.id,
        patient_id: budget.patientId,
        point_of_service: '0001',
        subtotal2: '200.00',
        vat_total: '42.00',
        total: '242.00',
        source_line_id: endo.id,
        treatment_id: budget.treatmentId,
        tooth: '16',
      }),
    ]);
    expect((await t.auditEvents('sale_created')).at(-1)?.entityId).toBe(draftId);
    // Issued: everything is invoiced; the progress says so, and there is nothing left to convert.
    await issueForTest(draftId);
    const after = (await t.call('GET', `/api/sales/${budget.id}/progress`)).json().data;
    expect(after.lines.map((line: { invoiced: boolean }) => line.invoiced)).toEqual([true, true]);
    expect(after.converted.map((document: { id: string }) => document.id)).toEqual(
      expect.arrayContaining([draftId, invoiceOfCrown.document.id, proforma.json().data.id]),
    );
    const nothing = await t.call('POST', `/api/sales/${budget.id}/convert`, { body: { documentType: 'invoice' } });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().code).toBe('nothing_to_invoice');
    // The attendance line that carried out the invoiced endodontics is not billed again.
    const billing = (await t.call('GET', `/api/patients/${budget.patientId}/billing`)).json().data;
    const pieces = billing.attendances.flatMap((row: { pieces: { sourceId: string }[] }) =>
      row.pieces.map((p) => p.sourceId),
    );
    expect(pieces).not.toContain(visit.lineIds[0]);
    expect(pieces).toContain(visit.lineIds[1]);
    expect(billing.budgets).toEqual([]);
  });

  it('refuses converting a rejected budget, a bad type, a draft; 404 for unknown and other clinics', async () => {
    const rejected = await issuedBudget();
    await decide(rejected.id, { decision: 'rejected' });
    const refused = await t.call('POST', `/api/sales/${rejected.id}/convert`, { body: { documentType: 'invoice' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'budget_not_accepted',
      details: { decision: { decision: 'rejected' } },
    });
    const badType = await t.call('POST', `/api/sales/${rejected.id}/convert`, {
      body: { documentType: 'credit_note' },
    });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().details.fields).toContainEqual({ path: 'documentType', code: 'invalid_value' });
    const draft = await budgetDraft(await t.newPatient());
    const notIssued = await t.call('POST', `/api/sales/${draft.document.id}/convert`, {
      body: { documentType: 'invoice' },
    });
    expect(notIssued.json().code).toBe('budget_not_issued');
    // A draft budget has a progress (no answer yet).
    expect((await t.call('GET', `/api/sales/${draft.document.id}/progress`)).json().data.status).toBe('draft');

    const theirPatient = await t.newPatient(t.other.token);
    const theirs = await asClinic(t.other, async (ctx) => {
      const patientId = theirPatient;
      const customer = await customerOfPatient(ctx, patientId);
      return insertSaleDraft(ctx, {
        documentType: 'budget',
        customer,
        date: '2026-03-01',
        currency: 'argentine_peso',
        pointOfService: '0001',
        lines: [{ description: 'Implante', quantity: '1', unitPrice: '900', vatRate: '0' }],
      });
    });
    await issueForTest(theirs.document.id, t.other);
    for (const id of [theirs.document.id, newId()]) {
      expect((await t.call('GET', `/api/sales/${id}/progress`)).json().code).toBe('sale_not_found');
      expect((await decide(id, { decision: 'accepted' })).statusCode).toBe(404);
      const convert = await t.call('POST', `/api/sales/${id}/convert`, { body: { documentType: 'invoice' } });
      expect(convert.statusCode).toBe(404);
    }
    expect((await t.call('GET', '/api/sales/not-a-uuid/progress')).statusCode).toBe(400);
    // Their clinic sees its own.
    const own = await t.call('GET', `/api/sales/${theirs.document.id}/progress`, { token: t.other.token });
    expect(own.statusCode, own.body).toBe(200);
  });

  it("lists a patient's billable attendances not yet invoiced and makes an invoice draft of one or of all, invoiced once", async () => {
    const patientId = await t.newPatient();
    const treatmentId = await newTreatment('21');
    const first = await attendance(patientId);
    await linkLine(first.lineIds[0] as string, { treatmentId, tooth: '16' });
    const second = await attendance(patientId, {
      date: '2026-03-12T10:00:00-03:00',
      titleResume: 'Control',
      attendanceFee: '25',
      lines: [],
    });
    await attendance(patientId, { billable: false, titleResume: 'Sin cargo' });
    await attendance(patientId, { attendanceFee: '0', lines: [], titleResume: 'Nada que facturar' });

    const billing = await t.call('GET', `/api/patients/${patientId}/billing`);
    expect(billing.statusCode, billing.body).toBe(200);
    const data = billing.json().data;
    expect(data.customerId).toBeNull();
    expect(data.attendances.map((row: { id: string }) => row.id)).toEqual([first.id, second.id]);
    expect(data.attendances[0].pieces).toMatchObject([
      {
        kind: 'attendance_fee',
        sourceId: first.id,
        quantity: '1.00',
        unitPrice: '40.00',
        vatRate: '0.00',
        total: '40.00',
      },
      {
        kind: 'attendance_line',
        sourceId: first.lineIds[0],
        treatmentId,
        tooth: '16',
        vatRate: '21.00',
        total: '121.00',
      },
      {
        kind: 'attendance_line',
        sourceId: first.lineIds[1],
        quantity: '2.00',
        unitPrice: '15.50',
        vatRate: '0.00',
        total: '31.00',
      },
    ]);
    expect(data.attendances[0].total).toBe('192.00');
    expect(data.total).toBe('217.00');

    // This attendance only.
    const one = await t.call('POST', `/api/patients/${patientId}/invoice-draft`, {
      body: { attendanceIds: [first.id] },
    });
    expectAnswer(one, 201, {
      code: 'sale_created',
      data: { documentType: 'invoice', lines: 3, total: '192.00' },
    });
    const lines = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<Record<string, unknown>>(sql`
        select l.attendance_id, l.attendance_line_id, l.treatment_id, l.tooth, l.vat_rate, l.total, d.customer_id, d.patient_id
        from document_lines l join commercial_documents d on d.id = l.document_id
        where l.document_id = ${one.json().data.id}::uuid order by l.position`),
    );
    expect(lines.rows).toMatchObject([
      { attendance_id: first.id, attendance_line_id: null, total: '40.00', patient_id: patientId },
      {
        attendance_id: first.id,
        attendance_line_id: first.lineIds[0],
        treatment_id: treatmentId,
        tooth: '16',
        vat_rate: '21.00',
      },
      { attendance_id: first.id, attendance_line_id: first.lineIds[1], total: '31.00' },
    ]);
    // The patient's customer row is made on first billing.
    const customerId = lines.rows[0]?.customer_id;
    expect((await t.call('GET', `/api/patients/${patientId}/billing`)).json().data.customerId).toBe(customerId);
    // A draft holds nothing: still billable until issued.
    expect((await t.call('GET', `/api/patients/${patientId}/billing`)).json().data.attendances).toHaveLength(2);
    await issueForTest(one.json().data.id);
    const afterIssue = (await t.call('GET', `/api/patients/${patientId}/billing`)).json().data;
    expect(afterIssue.attendances.map((row: { id: string }) => row.id)).toEqual([second.id]);

    // A second draft of the same attendance, made before the first was issued, is refused at issue.
    const stale = await asClinic(t.clinic, async (ctx) =>
      insertSaleDraft(ctx, {
        documentType: 'invoice',
        customer: await customerOfPatient(ctx, patientId),
        date: '2026-03-12',
        currency: 'argentine_peso',
        pointOfService: '0001',
        lines: [{ description: 'Consulta', quantity: '1', unitPrice: '40', vatRate: '0', attendanceId: first.id }],
      }),
    );
    await expect(issueForTest(stale.document.id)).rejects.toMatchObject({ code: 'already_invoiced' });
    // Again this attendance: nothing left.
    const again = await t.call('POST', `/api/patients/${patientId}/invoice-draft`, {
      body: { attendanceIds: [first.id] },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('nothing_to_invoice');
    // Everything pending: the second attendance's fee.
    const rest = await t.call('POST', `/api/patients/${patientId}/invoice-draft`, { body: {} });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().data).toMatchObject({ lines: 1, total: '25.00' });
    await issueForTest(rest.json().data.id);
    const done = await t.call('POST', `/api/patients/${patientId}/invoice-draft`, { body: {} });
    expect(done.json().code).toBe('nothing_to_invoice');
    expect((await t.call('GET', `/api/patients/${patientId}/billing`)).json().data).toMatchObject({
      attendances: [],
      total: '0.00',
    });
  });

  it("lists accepted budgets' pending lines in the patient's billing", async () => {
    const budget = await issuedBudget();
    expect((await t.call('GET', `/api/patients/${budget.patientId}/billing`)).json().data.budgets).toEqual([]);
    await decide(budget.id, { decision: 'accepted' });
    const billing = (await t.call('GET', `/api/patients/${budget.patientId}/billing`)).json().data;
    expect(billing.budgets).toHaveLength(1);
    expect(billing.budgets[0]).toMatchObject({ id: budget.id, pointOfService: '0001', total: '557.45' });
    expect(billing.budgets[0].lines).toHaveLength(2);
  });

  it('answers 404 for unknown patients and attendances, and attendances of other patients or clinics', async () => {
    const patientId = await t.newPatient();
    const otherPatient = await t.newPatient();
    const theirs = await attendance(otherPatient);
    expect((await t.call('GET', `/api/patients/${newId()}/billing`)).json().code).toBe('patient_not_found');
    const theirPatient = await t.newPatient(t.other.token);
    expect((await t.call('GET', `/api/patients/${theirPatient}/billing`)).statusCode).toBe(404);
    expect((await t.call('POST', `/api/patients/${theirPatient}/invoice-draft`, { body: {} })).json().code).toBe(
      'patient_not_found',
    );
    const wrong = await t.call('POST', `/api/patients/${patientId}/invoice-draft`, {
      body: { attendanceIds: [theirs.id] },
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toMatchObject({ code: 'attendance_not_found', details: { attendanceId: theirs.id } });
    const bad = await t.call('POST', `/api/patients/${patientId}/invoice-draft`, { body: { attendanceIds: ['x'] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields).toContainEqual({ path: 'attendanceIds.0', code: 'invalid_value' });
    // Nothing billable: 409, and no customer row was made for it.
    const empty = await t.call('POST', `/api/patients/${patientId}/invoice-draft`, { body: {} });
    expect(empty.json().code).toBe('nothing_to_invoice');
    expect((await t.call('GET', `/api/patients/${patientId}/billing`)).json().data.customerId).toBeNull();
  });

  it('checks the levels: a user reads and writes; a customer-level account gets 403; no session 401', async () => {
    const budget = await issuedBudget();
    await t.asLevel('user', async () => {
      expect((await t.call('GET', `/api/sales/${budget.id}/progress`)).statusCode).toBe(200);
      expect((await t.call('GET', `/api/patients/${budget.patientId}/billing`)).statusCode).toBe(200);
      expect((await decide(budget.id, { decision: 'accepted' })).statusCode).toBe(201);
    });
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', `/api/sales/${budget.id}/progress`)).statusCode).toBe(403);
      expect((await t.call('GET', `/api/patients/${budget.patientId}/billing`)).statusCode).toBe(403);
      const convert = await t.call('POST', `/api/sales/${budget.id}/convert`, { body: { documentType: 'invoice' } });
      expect(convert.statusCode).toBe(403);
      const draft = await t.call('POST', `/api/patients/${budget.patientId}/invoice-draft`, { body: {} });
      expect(draft.statusCode).toBe(403);
    });
    expect((await t.call('GET', `/api/sales/${budget.id}/progress`, { token: null })).statusCode).toBe(401);
  });
});
