import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { documentMoneySign, formatSaleNumber, type SaleDocumentType } from '@odontia/shared/commercial';
import type { Currency, DocumentType, PaymentMethod } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type {
  Billable,
  CreateSale,
  Sale,
  SaleIntegrity,
  SaleListItem,
  SaleListQuery,
  UpdateSale,
} from '@odontia/shared/schemas/sales';
import Big from 'big.js';
import { loadPrintHeader } from '../../db/clinic-print-header.ts';
import { sendInOrder } from '../../db/indexed-search.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import { requireClinicCurrency } from '../commercial/clinic-currency.ts';
import { documentEntry, postLedgerEntries } from '../commercial/ledger.ts';
import * as documents from '../commercial/side-documents.repository.ts';
import * as side from '../commercial/side-documents.ts';
import { type CustomerRow, customerSnapshot, findCustomer, resolveCustomer } from '../customers/customer-parties.ts';
import { recordCollection } from '../customers/record-collection.ts';
import { findPointOfSaleByCode } from '../fiscal/fiscal.repository.ts';
import { clinicSnapshot } from '../fiscal/party-snapshots.ts';
import { applyBudgetPlanMoney } from '../payment-plans/budget-plan-money.ts';
import { applyStockMovements } from '../stock/stock.service.ts';
import { recordWebhookEvent } from '../webhooks/webhook-events.ts';
import { markBilled } from './billed-sources.ts';
import { queueEinvoice, retryEinvoice as retrySubmission } from './einvoicing/einvoice-issue.ts';
import { presentEinvoice } from './einvoicing/einvoice-view.ts';
import { insertSaleDraft, type SaleDraftInput, saleDraftColumns, saleDraftLines } from './invoice-drafts.ts';
import { checkLineSources, lineProfessionals } from './line-sources.ts';
import { assignSaleNumber, verifySaleChains } from './sale-chain.ts';
import * as repository from './sales.repository.ts';

/**
 * Sales (issue 18; docs/decisions.md "Sales"). A draft names a customer (a patient's row is made
 * on first billing), is edited (version) and deleted (soft). Issuing is final and happens in the
 * request's one transaction: the number and the hash-chain link (sale-chain.ts), both parties'
 * data copied, the customer's ledger and the open amount, stock out (back in for a returns credit
 * note), "invoiced once" for what it bills (billed-sources.ts), a cash or cards sale collected at
 * once (customers/record-collection.ts), the e-invoicing submission queued, and the audit event.
 */

type Ctx = RequestContext;
type DocumentInput = Omit<CreateSale, 'issue'>;

const billing = new Set<string>(['invoice', 'receipt']);

const printedNumber = (row: { pointOfService: string | null; sequenceNumber: number | null }) =>
  row.pointOfService && row.sequenceNumber !== null ? formatSaleNumber(row.pointOfService, row.sequenceNumber) : null;

function presentListItem(row: repository.ListRow): SaleListItem {
  return {
    ...side.presentListFields(row),
    customerId: row.customerId,
    customerName: row.customerName,
    patientId: row.patientId,
    number: printedNumber(row),
  };
}

/** The audited columns of a stored document (its lines as quantity × price and text, and who did it). */
function columnsOf(
  row: documents.DocumentRow,
  lines: { description: string; quantity: string; unitPrice: string; professionalId: string | null }[],
) {
  return {
    customerId: row.customerId,
    ...side.auditedDocumentColumns(row),
    lines: lines.map(
      (line) =>
        `${line.quantity} × ${line.unitPrice} ${line.description}${line.professionalId ? ` (${line.professionalId})` : ''}`,
    ),
  };
}

async function get({ ctx, id }: { ctx: Ctx; id: string }): Promise<Sale> {
  const row = await repository.findSale(ctx, id);
  if (!row) throw new AppError('sale_not_found');
  // The rest of the answer in one round trip on a pipelining connection.
  const [lines, details, einvoice] = await sendInOrder(ctx.tx, [
    () => documents.linesOf(ctx, id),
    () => side.documentDetails(ctx, 'sale', row),
    () => repository.einvoiceOf(ctx, id),
  ]);
  return {
    ...presentListItem(row),
    ...details,
    documentType: row.documentType as SaleDocumentType,
    sequenceNumber: row.sequenceNumber,
    chainIndex: row.chainIndex,
    previousHash: row.previousHash,
    contentHash: row.contentHash,
    lines: lines.map((line) => ({
      ...side.presentLineFields(line),
      treatmentId: line.treatmentId,
      tooth: line.tooth,
      attendanceId: line.attendanceId,
      attendanceLineId: line.attendanceLineId,
      professionalId: line.professionalId,
      professionalName: line.professionalName,
    })),
    einvoice: einvoice ? presentEinvoice(einvoice) : null,
  };
}

async function list({ ctx, query }: { ctx: Ctx; query: SaleListQuery }) {
  return side.documentPage(query, await repository.listSales(ctx, query), presentListItem);
}

/**
 * The related document must fit: a credit or debit note corrects an issued invoice, debit note
 * or receipt of the same customer and currency; an invoice may bill an issued delivery note of the
 * same customer (once) or come from a budget or proforma; a proforma from a budget. Answers the
 * locked related row.
 */
async function checkRelated(
  ctx: Ctx,
  input: { documentType: string; relatedDocumentId: string | null; currency: string },
  customerId: string,
  selfId: string,
): Promise<documents.DocumentRow | null> {
  if (!input.relatedDocumentId) return null;
  const invalid = (why: string) => new AppError('related_document_invalid', { why });
  const allowed: Record<string, string[]> = {
    credit_note: ['invoice', 'debit_note', 'receipt'],
    debit_note: ['invoice', 'debit_note', 'receipt'],
    invoice: ['delivery_note', 'budget', 'proforma_invoice'],
    receipt: ['budget', 'proforma_invoice'],
    proforma_invoice: ['budget'],
  };
  const types = allowed[input.documentType];
  if (!types) throw invalid('type_without_related');
  if (input.relatedDocumentId === selfId) throw invalid('itself');
  const related = await repository.lockSale(ctx, input.relatedDocumentId);
  if (!related || related.customerId !== customerId) throw invalid('other_customer');
  if (related.status !== 'issued') throw invalid('draft');
  if (!types.includes(related.documentType)) throw invalid('type');
  if (side.correctingTypes.has(input.documentType) && related.currency !== input.currency) throw invalid('currency');
  if (input.documentType === 'invoice' && related.documentType === 'delivery_note') {
    await side.refuseInvoicedDeliveryNote(ctx, side.saleDocuments, related.id, selfId);
  }
  return related;
}

async function checkCatalogue(ctx: Ctx, input: DocumentInput): Promise<void> {
  const items = [...new Set(input.lines.flatMap((line) => (line.itemId ? [line.itemId] : [])))];
  const found = await documents.existingItems(ctx, items);
  const missingItem = items.find((id) => !found.has(id));
  if (missingItem) throw new AppError('inventory_item_not_found', { itemId: missingItem });
  const treatmentIds = [...new Set(input.lines.flatMap((line) => (line.treatmentId ? [line.treatmentId] : [])))];
  const foundTreatments = await repository.existingTreatments(ctx, treatmentIds);
  const missingTreatment = treatmentIds.find((id) => !foundTreatments.has(id));
  if (missingTreatment) throw new AppError('treatment_not_found', { treatmentId: missingTreatment });
}

/** The form as a draft (insertSaleDraft's input): the due date from the customer's term. */
function draftInput(input: DocumentInput, customer: CustomerRow): SaleDraftInput {
  const onAccount = input.conditionSale === 'current_account';
  return {
    ...input,
    customer,
    dueDate: input.dueDate ?? (onAccount ? addDays(input.date, customer.paymentTermDays) : input.date),
    paymentMethod: input.paymentMethod ?? (input.conditionSale === 'cash' ? 'cash_payment' : null),
  };
}

/** Issuing a credit note takes money back: commercial.delete (supervisor, administrator). */
function checkIssueLevel(ctx: Ctx, documentType: string) {
  if (documentType === 'credit_note' && !can(ctx.level, 'commercial.delete')) throw new AppError('forbidden');
}

async function create({ ctx, input }: { ctx: Ctx; input: CreateSale }) {
  await requireClinicCurrency(ctx, input.currency);
  const customer = await resolveCustomer(ctx, input, { mustBeActive: true });
  const id = newId();
  await checkRelated(ctx, input, customer.id, id);
  await checkCatalogue(ctx, input);
  await checkLineSources(ctx, input.lines, customer);
  const lines = await lineProfessionals(ctx, input.lines);
  if (input.issue) checkIssueLevel(ctx, input.documentType);
  const draft = await insertSaleDraft(ctx, { ...draftInput({ ...input, lines }, customer), id });
  const created = columnsOf(draft.document, draft.lines);
  // Made and issued in one request: one event, the issue's, says both.
  if (input.issue)
    return issueLocked(ctx, draft.document, { customer, lines: draft.lines, created, registerId: input.registerId });
  await audit(ctx, { action: 'sale_created', entity: 'sale', entityId: id, after: created });
  return { data: await get({ ctx, id }), code: 'sale_created' as const };
}

const lockDraft = (ctx: Ctx, id: string, version: number) =>
  side.lockDraft(ctx, side.saleDocuments, id, version, () => get({ ctx, id }));

async function update({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdateSale }) {
  const current = await lockDraft(ctx, id, input.version);
  const before = columnsOf(current, await documents.linesOf(ctx, id));
  await requireClinicCurrency(ctx, input.currency);
  const customer = await resolveCustomer(ctx, input, { mustBeActive: true });
  await checkRelated(ctx, input, customer.id, id);
  await checkCatalogue(ctx, input);
  await checkLineSources(ctx, input.lines, customer);
  const withProfessionals = await lineProfessionals(ctx, input.lines);
  if (input.issue) checkIssueLevel(ctx, input.documentType);
  const draft = draftInput({ ...input, lines: withProfessionals }, customer);
  const { stored, lines } = await side.rewriteDraft(
    ctx,
    current,
    saleDraftColumns(draft),
    saleDraftLines(ctx, id, draft.lines),
  );
  await audit(ctx, { action: 'sale_updated', entity: 'sale', entityId: id, before, after: columnsOf(stored, lines) });
  if (input.issue) return issueLocked(ctx, stored, { customer, lines, registerId: input.registerId });
  return { data: await get({ ctx, id }), code: 'sale_updated' as const };
}

const remove = ({ ctx, id }: { ctx: Ctx; id: string }) => side.removeDraft(ctx, side.saleDocuments, id, columnsOf);

async function issue({
  ctx,
  id,
  version,
  registerId,
}: {
  ctx: Ctx;
  id: string;
  version: number;
  registerId?: string | null;
}) {
  const current = await lockDraft(ctx, id, version);
  checkIssueLevel(ctx, current.documentType);
  return issueLocked(ctx, current, { registerId });
}

/**
 * Stock out for an invoice or delivery note with catalogue lines (not again for an invoice of a
 * delivery note that moved it), back in for a credit note with returned goods.
 */
async function moveStock(
  ctx: Ctx,
  document: documents.DocumentRow,
  related: documents.DocumentRow | null,
  lines: documents.LineRow[],
): Promise<boolean> {
  const itemLines = lines.filter((line): line is typeof line & { itemId: string } => line.itemId !== null);
  if (itemLines.length === 0) return false;
  const reference = { referenceType: 'sale', referenceId: document.id };
  const out =
    document.documentType === 'delivery_note' ||
    (document.documentType === 'invoice' && !(related?.documentType === 'delivery_note' && related.movedStock));
  const back = document.documentType === 'credit_note' && document.returnsGoods;
  if (out) {
    await applyStockMovements(
      ctx.tx,
      ctx,
      itemLines.map((line) => ({ itemId: line.itemId, kind: 'sale', quantity: -Number(line.quantity), ...reference })),
    );
    return true;
  }
  if (back) {
    await applyStockMovements(
      ctx.tx,
      ctx,
      itemLines.map((line) => ({ itemId: line.itemId, kind: 'return', quantity: Number(line.quantity), ...reference })),
    );
    return true;
  }
  return false;
}

const methodOf = (document: documents.DocumentRow): PaymentMethod =>
  document.conditionSale === 'cash'
    ? 'cash_payment'
    : ((document.paymentMethod as PaymentMethod | null) ?? 'credit_card');

/**
 * Issues a locked draft: final from here on. `known` is what the request already holds: the
 * customer and the lines as stored, and the draft's columns when it was made in this request;
 * `registerId` the cash register whose open session takes the cash or cards collected (issue 40).
 */
async function issueLocked(
  ctx: Ctx,
  current: documents.DocumentRow,
  known: {
    customer?: CustomerRow;
    lines?: documents.LineRow[];
    created?: ReturnType<typeof columnsOf>;
    registerId?: string | null | undefined;
  } = {},
) {
  const customer = known.customer ?? (await findCustomer(ctx, current.customerId as string));
  if (!customer) throw new AppError('customer_not_found');
  if (!customer.active) throw new AppError('customer_inactive', { customer: { id: customer.id, name: customer.name } });
  const pointOfSale = await findPointOfSaleByCode(ctx, current.pointOfService as string);
  if (!pointOfSale?.active) {
    throw new AppError('point_of_sale_inactive', { pointOfSale: { code: current.pointOfService } });
  }
  const related = await checkRelated(
    ctx,
    { documentType: current.documentType, relatedDocumentId: current.relatedDocumentId, currency: current.currency },
    customer.id,
    current.id,
  );
  const lines = known.lines ?? (await documents.storedLines(ctx, current.id));
  if (lines.length === 0) throw new AppError('validation_error', { fields: [{ path: 'lines', code: 'required' }] });
  const issuedAt = new Date();
  const final: documents.DocumentRow = {
    ...current,
    issuerSnapshot: await clinicSnapshot(ctx),
    counterpartySnapshot: customerSnapshot(customer),
    patientId: customer.patientId,
  };
  const movedStock = await moveStock(ctx, final, related, lines);
  if (billing.has(current.documentType)) await markBilled(ctx, current.id, lines);
  const assigned = await assignSaleNumber(ctx, final, lines);
  const ledger = documentEntry({
    id: current.id,
    side: 'sale',
    documentType: current.documentType as DocumentType,
    partyId: customer.id,
    date: current.date,
    total: current.total,
    description: `${current.documentType} ${formatSaleNumber(current.pointOfService as string, assigned.sequenceNumber)}`,
  });
  const openAmount = ledger?.openAmount ?? '0.00';
  await side.finalGuard(() =>
    documents.updateDocument(ctx, current.id, {
      status: 'issued',
      sequenceNumber: assigned.sequenceNumber,
      documentNumber: assigned.documentNumber,
      chainIndex: assigned.chainIndex,
      previousHash: assigned.previousHash,
      contentHash: assigned.contentHash,
      issuerSnapshot: final.issuerSnapshot,
      counterpartySnapshot: final.counterpartySnapshot,
      patientId: final.patientId,
      openAmount,
      movedStock,
      registeredAt: issuedAt,
      registeredBy: ctx.userId,
      version: current.version + 1,
      updatedAt: issuedAt,
      updatedBy: ctx.userId,
    }),
  );
  let collection: { id: string; number: string } | null = null;
  if (ledger) {
    await postLedgerEntries(ctx, [ledger.entry]);
    const applied = await side.settleCorrected(ctx, 'sale', { ...current, partyId: customer.id }, related);
    if (applied.gt(0)) {
      await documents.updateDocument(ctx, current.id, { openAmount: new Big(openAmount).plus(applied).toFixed(2) });
    }
    // An invoice of a budget's lines on account: the budget's payment plan money pays it (issue 40).
    if (current.conditionSale === 'current_account') {
      await applyBudgetPlanMoney(ctx, {
        id: current.id,
        customerId: customer.id,
        currency: current.currency,
        documentType: current.documentType,
      });
    }
    // Cash or cards: collected now, in full, allocated to this document.
    if (documentMoneySign[current.documentType as DocumentType] > 0 && current.conditionSale !== 'current_account') {
      collection = await recordCollection(ctx, {
        customer,
        date: current.date,
        amount: current.total,
        currency: current.currency as Currency,
        method: methodOf(current),
        status: 'paid',
        paidOn: current.date,
        allocations: [{ documentId: current.id, amount: current.total }],
        registerId: known.registerId ?? null,
      });
    }
    await queueEinvoice(ctx, { ...final, ...assigned, status: 'issued', openAmount }, lines, related);
  }
  await audit(ctx, {
    action: 'sale_issued',
    entity: 'sale',
    entityId: current.id,
    before: known.created ? null : { status: 'draft', version: current.version },
    after: {
      ...known.created,
      status: 'issued',
      number: formatSaleNumber(current.pointOfService as string, assigned.sequenceNumber),
      chainIndex: assigned.chainIndex,
      contentHash: assigned.contentHash,
      total: current.total,
      openAmount,
      movedStock,
      collection: collection?.number ?? null,
    },
  });
  await recordWebhookEvent(ctx, 'invoice.issued', {
    documentId: current.id,
    documentType: current.documentType,
    number: formatSaleNumber(current.pointOfService as string, assigned.sequenceNumber),
    customerId: customer.id,
    patientId: final.patientId ?? null,
    date: current.date,
    total: current.total,
    currency: current.currency,
    issuedAt: issuedAt.toISOString(),
  });
  return { data: await get({ ctx, id: current.id }), code: 'sale_issued' as const };
}

/** A draft credit or debit note of an issued invoice, debit note or receipt, its lines copied. */
async function correct({
  ctx,
  id,
  documentType,
}: {
  ctx: Ctx;
  id: string;
  documentType: 'credit_note' | 'debit_note';
}) {
  const source = await repository.lockSale(ctx, id);
  if (!source) throw new AppError('sale_not_found');
  if (source.status !== 'issued') throw new AppError('document_final', { status: source.status });
  if (!['invoice', 'debit_note', 'receipt'].includes(source.documentType)) {
    throw new AppError('document_type_invalid', { documentType: source.documentType });
  }
  checkIssueLevel(ctx, documentType);
  const lines = await documents.storedLines(ctx, id);
  return create({
    ctx,
    input: {
      documentType,
      customerId: source.customerId,
      patientId: null,
      pointOfService: source.pointOfService as string,
      date: clinicToday(ctx.timeZone),
      dueDate: null,
      currency: source.currency as Currency,
      conditionSale: 'current_account',
      paymentMethod: null,
      notes: null,
      relatedDocumentId: source.id,
      returnsGoods: false,
      issue: false,
      lines: lines.map((line) => ({
        itemId: line.itemId,
        treatmentId: line.treatmentId,
        tooth: line.tooth,
        description: line.description,
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        discountRate: line.discountRate,
        vatRate: line.vatRate,
        attendanceId: null,
        attendanceLineId: null,
        sourceLineId: null,
        // A credit note takes back what the corrected line counted for its professional.
        professionalId: line.professionalId,
      })),
    },
  });
}

async function integrity({ ctx, pointOfService }: { ctx: Ctx; pointOfService?: string }): Promise<SaleIntegrity> {
  const report = await verifySaleChains(ctx, pointOfService ? { pointOfService } : {});
  return { ...report, checkedAt: new Date().toISOString() };
}

async function billables({ ctx, q }: { ctx: Ctx; q: string }): Promise<Billable[]> {
  const { treatmentRows, itemRows } = await repository.billables(ctx, q);
  const all: Billable[] = [
    ...treatmentRows.map((row) => ({
      kind: 'treatment' as const,
      id: row.id,
      code: row.code,
      name: row.name,
      group: row.group,
      unitPrice: row.unitPrice,
      vatRate: row.vatRate,
      stock: null,
    })),
    ...itemRows.map((row) => ({
      kind: row.kind,
      id: row.id,
      code: row.code,
      name: row.name,
      group: null,
      unitPrice: row.unitPrice,
      vatRate: row.vatRate,
      stock: row.stock,
    })),
  ];
  return all.sort((a, b) => a.name.localeCompare(b.name, 'es')).slice(0, 20);
}

/** What the PDF prints: the sale, the clinic's header, the customer's language and e-mail. */
async function printable({ ctx, id }: { ctx: Ctx; id: string }) {
  const sale = await get({ ctx, id });
  const customer = sale.customerId ? await findCustomer(ctx, sale.customerId) : undefined;
  return {
    sale,
    clinic: await loadPrintHeader(ctx),
    readerLanguage: customer?.language ?? null,
    email: customer?.email ?? null,
  };
}

/** The e-mail address a sale is sent to: the customer's (409 customer_without_email). */
function recipientOf(printed: { email: string | null; sale: Sale }): string {
  if (!printed.email) {
    throw new AppError('customer_without_email', {
      customer: { id: printed.sale.customerId, name: printed.sale.customerName },
    });
  }
  return printed.email;
}

async function recordSent({ ctx, id, to }: { ctx: Ctx; id: string; to: string }) {
  await audit(ctx, { action: 'sale_sent', entity: 'sale', entityId: id, after: { to } });
}

/** Issue 39: a rejected or unanswered submission sent again (see einvoice-issue.ts `retryEinvoice`). */
async function retryEinvoice({ ctx, id }: { ctx: Ctx; id: string }) {
  const document = await repository.lockSale(ctx, id);
  if (!document) throw new AppError('sale_not_found');
  if (document.status !== 'issued') throw new AppError('einvoice_not_retryable', { status: document.status });
  const related = document.relatedDocumentId
    ? ((await repository.lockSale(ctx, document.relatedDocumentId)) ?? null)
    : null;
  const lines = await documents.storedLines(ctx, id);
  const change = await retrySubmission(ctx, document, lines, related);
  await audit(ctx, {
    action: 'sale_einvoice_retried',
    entity: 'sale',
    entityId: id,
    before: { status: change.before },
    after: { status: change.after },
  });
  return get({ ctx, id });
}

export const salesService = {
  retryEinvoice,
  list,
  get,
  create,
  update,
  remove,
  issue,
  correct,
  integrity,
  billables,
  printable,
  recipientOf,
  recordSent,
};
