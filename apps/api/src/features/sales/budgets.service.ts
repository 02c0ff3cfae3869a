import { clinicToday } from '@odontia/shared/clinic-time';
import { formatSaleNumber } from '@odontia/shared/commercial';
import { lineAmounts } from '@odontia/shared/document-totals';
import type { Currency, DocumentType } from '@odontia/shared/enums';
import { formatMoney } from '@odontia/shared/schemas/authorizations';
import type {
  BillableAttendance,
  BillablePiece,
  BudgetDecision,
  BudgetDecisionRequest,
  BudgetProgress,
  BudgetProgressLine,
  ConvertBudgetRequest,
  PatientBilling,
  PendingBudget,
} from '@odontia/shared/schemas/budgets';
import Big from 'big.js';
import { and, eq, isNull } from 'drizzle-orm';
import type { RequestContext as Ctx } from '../../context.ts';
import { guardUnique } from '../../db/errors.ts';
import { accounts, patients } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { audit } from '../audit/audit.repository.ts';
import { type RemoteSignature, remoteAuditFields } from '../authorizations/authorizations.service.ts';
import { decodeSignature, pngDataUrl, signatureHash } from '../authorizations/signature.ts';
import { customerOfPatient, findCustomer } from '../customers/customer-parties.ts';
import { closePendingSigningRequest } from '../signing-requests/closed-at-the-chair.ts';
import * as repository from './budgets.repository.ts';
import { auditSaleDraft, defaultPointOfSale, insertSaleDraft, type SaleDraftLine } from './invoice-drafts.ts';

/**
 * Budgets and invoicing attendances (issue 18; docs/decisions.md "Sales: budgets").
 *
 * A budget (treatment plan) is a sale of type budget. Once issued it gets ONE answer: accepted —
 * signed on the pad (the PNG, the signer, the exact text of the budget's canonical summary and a
 * SHA-256 over text and image, as authorizations) or marked with a date — or rejected. Its
 * progress is what the attendances carried out of each line (attendance_lines.budget_line_id) and
 * whether each line is invoiced. An accepted budget converts into a proforma or an invoice draft
 * with its lines not yet invoiced.
 *
 * A patient's billing is what is not yet invoiced of their billable attendances — each fee and
 * each live line, minus billed_sources; an attendance line that carries out a budget line already
 * invoiced (through the budget) is not billed again — and the accepted budgets' lines not yet
 * invoiced. "Invoice this attendance" / "invoice everything" make an invoice draft of it.
 */

const zero = new Big(0);

function notABudget(document: repository.DocumentRow): never {
  throw new AppError('document_type_invalid', { documentType: document.documentType });
}

/** A live budget of the clinic (404 sale_not_found; 409 document_type_invalid when another type). */
async function budgetOf(ctx: Ctx, id: string, options: { lock?: boolean } = {}) {
  const document = await repository.findSale(ctx, id, options);
  if (!document) throw new AppError('sale_not_found');
  if (document.documentType !== 'budget') notABudget(document);
  return document;
}

function requireIssued(document: repository.DocumentRow) {
  if (document.status !== 'issued') throw new AppError('budget_not_issued', { status: document.status });
}

function presentDecision(row: repository.DecisionRow): BudgetDecision {
  return {
    id: row.id,
    documentId: row.documentId,
    decision: row.decision,
    decidedOn: row.decidedOn,
    signedText: row.signedText,
    // PGlite answers bytea as a Uint8Array, pg as a Buffer.
    signatureImage: row.signatureImage ? pngDataUrl(Buffer.from(row.signatureImage)) : null,
    signerName: row.signerName,
    signerIdNumber: row.signerIdNumber,
    sha256: row.sha256,
    notes: row.notes,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
  };
}

const summaryWords = {
  es: {
    title: 'Presupuesto',
    date: 'Fecha',
    patient: 'Paciente',
    tooth: 'pieza',
    total: 'Total',
    accept: 'Acepto el presupuesto y el plan de tratamiento descritos.',
  },
  en: {
    title: 'Estimate',
    date: 'Date',
    patient: 'Patient',
    tooth: 'tooth',
    total: 'Total',
    accept: 'I accept the estimate and the treatment plan described.',
  },
  fr: {
    title: 'Devis',
    date: 'Date',
    patient: 'Patient',
    tooth: 'dent',
    total: 'Total',
    accept: 'J’accepte le devis et le plan de traitement décrits.',
  },
  pt: {
    title: 'Orçamento',
    date: 'Data',
    patient: 'Paciente',
    tooth: 'dente',
    total: 'Total',
    accept: 'Aceito o orçamento e o plano de tratamento descritos.',
  },
} as const;

/**
 * The budget's canonical summary: the exact text a signature seals, in the customer's language —
 * number and date, the customer, each line (quantity, description, tooth, total) and the total.
 */
export function budgetSummary(
  document: repository.DocumentRow,
  lines: repository.LineWithCode[],
  language: string,
): string {
  const words = summaryWords[language as keyof typeof summaryWords] ?? summaryWords.es;
  const currency = document.currency as Currency;
  const money = (amount: string) => formatMoney(amount, currency, language);
  const number =
    document.pointOfService && document.sequenceNumber !== null
      ? formatSaleNumber(document.pointOfService, document.sequenceNumber)
      : '—';
  const customerName = (document.counterpartySnapshot as { name?: string } | null)?.name ?? '—';
  const body = lines.map(({ line }) => {
    const quantity = new Big(line.quantity).toString();
    const tooth = line.tooth ? ` (${words.tooth} ${line.tooth})` : '';
    return `${line.position}. ${quantity} × ${line.description}${tooth}: ${money(line.total)}`;
  });
  return [
    `${words.title} ${number}`,
    `${words.date}: ${document.date}`,
    `${words.patient}: ${customerName}`,
    '',
    ...body,
    '',
    `${words.total}: ${money(document.total)}`,
    '',
    words.accept,
  ].join('\n');
}

async function customerLanguage(ctx: Ctx, document: repository.DocumentRow): Promise<string> {
  const customer = document.customerId ? await findCustomer(ctx, document.customerId) : undefined;
  return customer?.language ?? 'es';
}

/** A live budget, its answer and the text a signature would seal now, in the customer's language. */
export async function budgetToSign(ctx: Ctx, id: string) {
  const document = await budgetOf(ctx, id);
  const language = await customerLanguage(ctx, document);
  return {
    document,
    language,
    decision: await repository.decisionOf(ctx, id),
    text: budgetSummary(document, await repository.linesOf(ctx, id), language),
  };
}

/** POST /api/sales/:id/decision; `remote` when signed from a mailed link (issue 37). */
async function decide({
  ctx,
  id,
  input,
  remote,
}: {
  ctx: Ctx;
  id: string;
  input: BudgetDecisionRequest;
  remote?: RemoteSignature;
}) {
  const document = await budgetOf(ctx, id, { lock: true });
  requireIssued(document);
  const existing = await repository.decisionOf(ctx, id);
  if (existing) throw new AppError('budget_already_decided', { decision: presentDecision(existing) });
  const today = clinicToday(ctx.timeZone);
  const decision = input.decision;
  let sealed: {
    signedText: string;
    signatureImage: Buffer;
    sha256: string;
    signerName: string;
    signerIdNumber: string;
  } | null = null;
  if (decision === 'accepted' && input.signature) {
    const png = decodeSignature(input.signature.image);
    const lines = await repository.linesOf(ctx, id);
    const signedText = budgetSummary(document, lines, await customerLanguage(ctx, document));
    sealed = {
      signedText,
      signatureImage: png,
      sha256: signatureHash(signedText, png),
      signerName: input.signature.signerName.trim(),
      signerIdNumber: input.signature.signerIdNumber.trim(),
    };
  }
  const decidedOn = sealed ? today : (input.decidedOn ?? today);
  if (decidedOn > today)
    throw new AppError('validation_error', { fields: [{ path: 'decidedOn', code: 'date_in_future' }] });
  if (decidedOn < document.date) {
    throw new AppError('validation_error', { fields: [{ path: 'decidedOn', code: 'date_too_early' }] });
  }
  const decisionId = newId();
  await guardUnique(
    ctx.tx,
    () =>
      repository.insertDecision(ctx, {
        accountId: ctx.accountId,
        id: decisionId,
        documentId: id,
        decision,
        decidedOn,
        signedText: sealed?.signedText ?? null,
        signatureImage: sealed?.signatureImage ?? null,
        signerName: sealed?.signerName ?? null,
        signerIdNumber: sealed?.signerIdNumber ?? null,
        sha256: sealed?.sha256 ?? null,
        notes: input.notes ?? null,
        createdBy: ctx.userId,
      }),
    async () => {
      const current = await repository.decisionOf(ctx, id);
      throw new AppError('budget_already_decided', { decision: current ? presentDecision(current) : null });
    },
  );
  const action = decision === 'accepted' ? ('budget_accepted' as const) : ('budget_rejected' as const);
  await audit(ctx, {
    action,
    entity: 'sale',
    entityId: id,
    after: {
      decision,
      decidedOn,
      signed: sealed !== null,
      signerName: sealed?.signerName ?? null,
      signerIdNumber: sealed?.signerIdNumber ?? null,
      sha256: sealed?.sha256 ?? null,
      notes: input.notes ?? null,
      ...remoteAuditFields(ctx, remote, new Date()),
    },
  });
  // Answered at the desk while a remote request was pending: its link must not answer again.
  if (!remote) {
    const signing = { kind: 'budget' as const, id, patientId: document.patientId };
    await closePendingSigningRequest(ctx, signing, sealed ? 'signed' : 'answered');
  }
  const stored = (await repository.decisionOf(ctx, id)) as repository.DecisionRow;
  return { data: presentDecision(stored), code: action };
}

/** Each budget line with its done quantity, the attendances that did it and whether it is invoiced. */
async function progressLines(ctx: Ctx, lines: repository.LineWithCode[]): Promise<BudgetProgressLine[]> {
  const ids = lines.map(({ line }) => line.id);
  const done = await repository.attendanceLinesOfBudgetLines(ctx, ids);
  const billed = await repository.billedBudgetLines(ctx, ids);
  return lines.map(({ line, treatmentCode }) => {
    const carried = done.filter((row) => row.budgetLineId === line.id);
    const doneQuantity = carried.reduce((sum, row) => sum.plus(row.quantity), zero);
    const left = new Big(line.quantity).minus(doneQuantity);
    return {
      id: line.id,
      position: line.position,
      description: line.description,
      treatmentId: line.treatmentId,
      treatmentCode,
      tooth: line.tooth,
      quantity: new Big(line.quantity).toFixed(2),
      done: doneQuantity.toFixed(2),
      left: (left.lt(0) ? zero : left).toFixed(2),
      unitPrice: line.unitPrice,
      total: line.total,
      invoiced: billed.has(line.id) || carried.some((row) => row.billed),
      attendances: carried.map((row) => ({
        attendanceId: row.attendanceId,
        attendanceLineId: row.attendanceLineId,
        date: row.date.toISOString(),
        titleResume: row.titleResume,
        quantity: row.quantity,
      })),
    };
  });
}

/** GET /api/sales/:id/progress */
async function progress({ ctx, id }: { ctx: Ctx; id: string }): Promise<{ data: BudgetProgress }> {
  const document = await budgetOf(ctx, id);
  const lines = await repository.linesOf(ctx, id);
  const decision = await repository.decisionOf(ctx, id);
  const language = await customerLanguage(ctx, document);
  const converted = await repository.documentsFrom(ctx, id);
  return {
    data: {
      budgetId: id,
      status: document.status === 'issued' ? 'issued' : 'draft',
      decision: decision ? presentDecision(decision) : null,
      textToSign: budgetSummary(document, lines, language),
      lines: await progressLines(ctx, lines),
      converted: converted.map((row) => ({ ...row, documentType: row.documentType as DocumentType })),
    },
  };
}

/** POST /api/sales/:id/convert: a proforma or invoice draft with the accepted budget's lines not yet invoiced. */
async function convert({ ctx, id, input }: { ctx: Ctx; id: string; input: ConvertBudgetRequest }) {
  const document = await budgetOf(ctx, id, { lock: true });
  requireIssued(document);
  const decision = await repository.decisionOf(ctx, id);
  if (decision?.decision !== 'accepted') {
    throw new AppError('budget_not_accepted', { decision: decision ? presentDecision(decision) : null });
  }
  const lines = await repository.linesOf(ctx, id);
  const progressOf = new Map((await progressLines(ctx, lines)).map((line) => [line.id, line]));
  const pending = lines.filter(({ line }) => !progressOf.get(line.id)?.invoiced);
  if (pending.length === 0) throw new AppError('nothing_to_invoice');
  const customer = document.customerId ? await findCustomer(ctx, document.customerId) : undefined;
  if (!customer) throw new AppError('customer_not_found');
  if (!customer.active) throw new AppError('customer_inactive', { customer: { id: customer.id, name: customer.name } });
  const draft = await insertSaleDraft(ctx, {
    documentType: input.documentType as 'proforma_invoice' | 'invoice',
    customer,
    date: clinicToday(ctx.timeZone),
    currency: document.currency as Currency,
    pointOfService: document.pointOfService,
    conditionSale: 'current_account',
    relatedDocumentId: document.id,
    lines: pending.map(({ line }) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      discountRate: line.discountRate,
      vatRate: line.vatRate,
      itemId: line.itemId,
      treatmentId: line.treatmentId,
      tooth: line.tooth,
      sourceLineId: line.id,
      professionalId: line.professionalId,
    })),
  });
  await auditSaleDraft(ctx, draft, { from: 'budget', budgetId: id });
  return {
    data: {
      id: draft.document.id,
      documentType: draft.document.documentType as DocumentType,
      total: draft.document.total,
      lines: draft.lines.length,
    },
    code: 'sale_created' as const,
  };
}

async function requirePatient(ctx: Ctx, patientId: string) {
  const [patient] = await ctx.tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.accountId, ctx.accountId), eq(patients.id, patientId), isNull(patients.deletedAt)));
  if (!patient) throw new AppError('patient_not_found');
}

async function clinicCurrency(ctx: Ctx): Promise<Currency> {
  const [account] = await ctx.tx
    .select({ currency: accounts.systemCurrency })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  return (account?.currency ?? 'euro') as Currency;
}

/** What of an attendance is not yet invoiced: its fee (VAT 0) and each line (the treatment's VAT or 0). */
export function piecesOf(attendance: repository.BillableAttendanceRow): (BillablePiece & { line: SaleDraftLine })[] {
  const pieces: (BillablePiece & { line: SaleDraftLine })[] = [];
  if (new Big(attendance.attendanceFee).gt(0) && !attendance.feeBilled) {
    const line: SaleDraftLine = {
      description: attendance.titleResume,
      quantity: '1',
      unitPrice: attendance.attendanceFee,
      vatRate: '0',
      attendanceId: attendance.id,
      professionalId: attendance.professionalId,
    };
    pieces.push({
      kind: 'attendance_fee',
      sourceId: attendance.id,
      description: line.description,
      treatmentId: null,
      tooth: null,
      quantity: '1.00',
      unitPrice: new Big(attendance.attendanceFee).toFixed(2),
      vatRate: '0.00',
      total: lineAmounts({ quantity: '1', unitPrice: attendance.attendanceFee, vatRate: '0' }).total,
      line,
    });
  }
  for (const row of attendance.lines) {
    if (row.billed) continue;
    const vatRate = new Big(row.vatRate ?? '0').toFixed(2);
    const line: SaleDraftLine = {
      description: row.description,
      quantity: String(row.quantity),
      unitPrice: row.price,
      vatRate,
      itemId: row.itemId,
      treatmentId: row.treatmentId,
      tooth: row.tooth,
      attendanceId: attendance.id,
      attendanceLineId: row.id,
      professionalId: attendance.professionalId,
    };
    pieces.push({
      kind: 'attendance_line',
      sourceId: row.id,
      description: row.description,
      treatmentId: row.treatmentId,
      tooth: row.tooth,
      quantity: new Big(row.quantity).toFixed(2),
      unitPrice: new Big(row.price).toFixed(2),
      vatRate,
      total: lineAmounts({ quantity: String(row.quantity), unitPrice: row.price, vatRate }).total,
      line,
    });
  }
  return pieces;
}

function presentAttendance(row: repository.BillableAttendanceRow, pieces: BillablePiece[]): BillableAttendance {
  return {
    id: row.id,
    date: row.date.toISOString(),
    titleResume: row.titleResume,
    professionalName: row.professionalName,
    finished: row.finished,
    pieces,
    total: pieces.reduce((sum, piece) => sum.plus(piece.total), zero).toFixed(2),
  };
}

/** GET /api/patients/:patientId/billing */
async function patientBilling({ ctx, patientId }: { ctx: Ctx; patientId: string }): Promise<{ data: PatientBilling }> {
  await requirePatient(ctx, patientId);
  const rows = await repository.billableAttendances(ctx, patientId, null);
  const attendances = rows
    .map((row) =>
      presentAttendance(
        row,
        piecesOf(row).map(({ line: _line, ...piece }) => piece),
      ),
    )
    .filter((attendance) => attendance.pieces.length > 0);
  const budgets: PendingBudget[] = [];
  for (const { document } of await repository.acceptedBudgetsOf(ctx, patientId)) {
    const lines = (await progressLines(ctx, await repository.linesOf(ctx, document.id))).filter(
      (line) => !line.invoiced,
    );
    if (lines.length === 0) continue;
    budgets.push({
      id: document.id,
      pointOfService: document.pointOfService,
      documentNumber: document.documentNumber,
      date: document.date,
      total: document.total,
      currency: document.currency as Currency,
      lines,
    });
  }
  return {
    data: {
      patientId,
      customerId: await repository.customerIdOfPatient(ctx, patientId),
      currency: await clinicCurrency(ctx),
      attendances,
      total: attendances.reduce((sum, attendance) => sum.plus(attendance.total), zero).toFixed(2),
      budgets,
    },
  };
}

/** POST /api/patients/:patientId/invoice-draft: these attendances (or all) not yet invoiced → an invoice draft. */
async function invoiceDraft({
  ctx,
  patientId,
  attendanceIds,
}: {
  ctx: Ctx;
  patientId: string;
  attendanceIds: string[] | null;
}) {
  await requirePatient(ctx, patientId);
  const wanted = attendanceIds ? [...new Set(attendanceIds)] : null;
  const rows = await repository.billableAttendances(ctx, patientId, wanted);
  if (wanted) {
    const found = new Set(rows.map((row) => row.id));
    const missing = wanted.find((id) => !found.has(id));
    if (missing) throw new AppError('attendance_not_found', { attendanceId: missing });
  }
  const lines = rows.filter((row) => row.billable).flatMap((row) => piecesOf(row).map((piece) => piece.line));
  if (lines.length === 0) throw new AppError('nothing_to_invoice');
  const customer = await customerOfPatient(ctx, patientId);
  if (!customer.active) throw new AppError('customer_inactive', { customer: { id: customer.id, name: customer.name } });
  const draft = await insertSaleDraft(ctx, {
    documentType: 'invoice',
    customer,
    date: clinicToday(ctx.timeZone),
    currency: await clinicCurrency(ctx),
    pointOfService: await defaultPointOfSale(ctx),
    conditionSale: 'current_account',
    lines,
  });
  await auditSaleDraft(ctx, draft, {
    from: 'attendances',
    attendanceIds: [...new Set(lines.map((line) => line.attendanceId))],
  });
  return {
    data: {
      id: draft.document.id,
      documentType: 'invoice' as const,
      total: draft.document.total,
      lines: draft.lines.length,
    },
    code: 'sale_created' as const,
  };
}

export const budgetsService = { decide, progress, convert, patientBilling, invoiceDraft };
