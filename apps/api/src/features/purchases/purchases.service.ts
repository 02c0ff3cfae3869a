import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { documentTotals, lineAmounts } from '@odontia/shared/document-totals';
import type { Currency, DocumentType } from '@odontia/shared/enums';
import type {
  CreatePurchase,
  OrderReception,
  Purchase,
  PurchaseListItem,
  PurchaseListQuery,
  ReceiveOrder,
  UpdatePurchase,
} from '@odontia/shared/schemas/commercial-documents';
import Big from 'big.js';
import { loadPrintHeader, readerOf } from '../../db/clinic-print-header.ts';
import { guardUnique } from '../../db/errors.ts';
import { sendInOrder } from '../../db/indexed-search.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { audit, recordAudit } from '../audit/audit.repository.ts';
import { requireClinicCurrency } from '../commercial/clinic-currency.ts';
import { takeSequenceNumber } from '../commercial/document-sequences.ts';
import { documentEntry, postLedgerEntries } from '../commercial/ledger.ts';
import * as documents from '../commercial/side-documents.repository.ts';
import * as side from '../commercial/side-documents.ts';
import { clinicSnapshot, providerSnapshot } from '../fiscal/party-snapshots.ts';
import { applyStockMovements, type StockMovementInput } from '../stock/stock.service.ts';
import { purchaseOrderMail, purchaseOrderPdf } from './purchase-order.pdf.ts';
import * as repository from './purchases.repository.ts';

/**
 * Purchases (issue 17; docs/decisions.md "The commercial area (issue 17): purchases"). A draft is
 * typed from the provider's paper, edited and deleted; registering it is final: totals again on
 * the server, both parties' data copied, stock in (or out for returned goods) with the item's
 * costs, the provider's SKUs remembered, the current account credited and a credit note applied
 * to the document it corrects — all in the request's one transaction.
 */

type Ctx = RequestContext;
type DocumentInput = Omit<CreatePurchase, 'register'>;

/** The documents that receive goods: of a purchase order (issue 35), an invoice of a delivery note too. */
const receiving = new Set<string>(['delivery_note', 'invoice']);
/** The series of the clinic's purchase orders in `sale_sequences` (no point of sale is lettered). */
export const purchaseOrderSeries = 'OC';

function presentListItem(row: repository.ListRow): PurchaseListItem {
  return { ...side.presentListFields(row), providerId: row.providerId, providerName: row.providerName };
}

/** The audited columns of a stored document (its lines as quantity × price per item or text). */
function columnsOf(row: documents.DocumentRow, lines: { description: string; quantity: string; unitPrice: string }[]) {
  return {
    providerId: row.providerId,
    ...side.auditedDocumentColumns(row),
    documentNumber: row.documentNumber,
    openAmount: row.openAmount,
    lines: lines.map((line) => `${line.quantity} × ${line.unitPrice} ${line.description}`),
  };
}

async function get({ ctx, id }: { ctx: Ctx; id: string }): Promise<Purchase> {
  const row = await repository.findPurchase(ctx, id);
  if (!row) throw new AppError('purchase_not_found');
  const [lines, details] = await sendInOrder(ctx.tx, [
    () => documents.linesOf(ctx, id),
    () => side.documentDetails(ctx, 'purchase', row),
  ]);
  return {
    ...presentListItem(row),
    ...details,
    deliveryDate: row.deliveryDate,
    lines: lines.map(side.presentLineFields),
    order:
      row.documentType === 'purchase_order' && row.status === 'registered'
        ? await orderReception(ctx, id, lines)
        : null,
  };
}

async function list({ ctx, query }: { ctx: Ctx; query: PurchaseListQuery }) {
  return side.documentPage(query, await repository.listPurchases(ctx, query), presentListItem);
}

/** The provider a new or edited document names: the clinic's, live and active. */
async function providerFor(ctx: Ctx, providerId: string): Promise<repository.ProviderRow> {
  const provider = await repository.findProvider(ctx, providerId);
  if (!provider) throw new AppError('provider_not_found');
  if (!provider.active) {
    throw new AppError('provider_inactive', { provider: { id: provider.id, fantasyName: provider.fantasyName } });
  }
  return provider;
}

/**
 * The related document must fit: a credit or debit note corrects a registered invoice or debit
 * note of the same provider and currency; an invoice may bill a registered delivery note of the
 * same provider (once); no other type names one. Answers the locked related row.
 */
async function checkRelated(ctx: Ctx, input: DocumentInput, selfId: string): Promise<documents.DocumentRow | null> {
  if (!input.relatedDocumentId) return null;
  const invalid = (why: string) => new AppError('related_document_invalid', { why });
  const receives = receiving.has(input.documentType);
  if (!side.correctingTypes.has(input.documentType) && !receives) throw invalid('type_without_related');
  if (input.relatedDocumentId === selfId) throw invalid('itself');
  const related = await repository.lockPurchase(ctx, input.relatedDocumentId);
  if (!related || related.providerId !== input.providerId) throw invalid('other_provider');
  if (related.status !== 'registered') throw invalid('draft');
  // Issue 35: a delivery note or an invoice may receive a registered purchase order (the lock
  // above makes the receipts of one order take turns: what is pending is counted under it).
  if (receives && related.documentType === 'purchase_order') return related;
  if (side.correctingTypes.has(input.documentType)) {
    if (!['invoice', 'debit_note'].includes(related.documentType)) throw invalid('type');
    if (related.currency !== input.currency) throw invalid('currency');
  } else {
    if (related.documentType !== 'delivery_note') throw invalid('type');
    await side.refuseInvoicedDeliveryNote(ctx, side.purchaseDocuments, related.id, selfId);
  }
  return related;
}

function lineRows(ctx: Ctx, documentId: string, input: DocumentInput): documents.LineInsert[] {
  return input.lines.map((line, index) => ({
    accountId: ctx.accountId,
    id: newId(),
    documentId,
    position: index + 1,
    itemId: line.itemId,
    description: line.description,
    skuProvider: line.skuProvider,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    discountRate: line.discountRate,
    vatRate: line.vatRate,
    sourceLineId: line.sourceLineId,
    ...lineAmounts(line),
  }));
}

/** The document's columns from the form (totals on the server; due date from the provider's term). */
function documentColumns(input: DocumentInput, provider: repository.ProviderRow) {
  const totals = documentTotals(input.lines);
  const order = input.documentType === 'purchase_order';
  return {
    providerId: provider.id,
    documentType: input.documentType,
    // A purchase order's number is the clinic's, taken when it is registered (issue 35).
    pointOfService: order ? null : input.pointOfService,
    documentNumber: order ? null : input.documentNumber,
    date: input.date,
    dueDate: input.dueDate ?? addDays(input.date, provider.paymentTermDays),
    deliveryDate: order ? input.deliveryDate : null,
    currency: input.currency,
    conditionSale: input.conditionSale,
    paymentMethod: input.paymentMethod,
    notes: input.notes,
    relatedDocumentId: input.relatedDocumentId,
    returnsGoods: input.documentType === 'credit_note' ? input.returnsGoods : false,
    ...totals,
    // The provider's data while a draft (so a search by its name finds it); copied again when registered.
    issuerSnapshot: providerSnapshot(provider),
  };
}

async function checkItems(ctx: Ctx, input: DocumentInput): Promise<void> {
  const ids = [...new Set(input.lines.flatMap((line) => (line.itemId ? [line.itemId] : [])))];
  const found = await documents.existingItems(ctx, ids);
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new AppError('inventory_item_not_found', { itemId: missing });
}

/** Writes the row under a savepoint: a duplicate number answers 409 naming the existing document. */
async function guardNumber(ctx: Ctx, input: DocumentInput, selfId: string, write: () => Promise<void>) {
  const { pointOfService, documentNumber } = input;
  if (input.documentType === 'purchase_order' || !pointOfService || !documentNumber) return write();
  await guardUnique(ctx.tx, write, async () => {
    const existing = await repository.findByNumber(ctx, { ...input, pointOfService, documentNumber }, selfId);
    throw new AppError('purchase_number_exists', {
      document: existing
        ? {
            id: existing.id,
            status: existing.status,
            documentType: existing.documentType,
            pointOfService: existing.pointOfService,
            documentNumber: existing.documentNumber,
            date: existing.date,
          }
        : null,
    });
  });
}

async function create({ ctx, input }: { ctx: Ctx; input: CreatePurchase }) {
  await requireClinicCurrency(ctx, input.currency);
  const provider = await providerFor(ctx, input.providerId);
  const id = newId();
  const related = await checkRelated(ctx, input, id);
  await checkSources(ctx, input, related, id);
  await checkItems(ctx, input);
  const lines = lineRows(ctx, id, input);
  const row = {
    accountId: ctx.accountId,
    id,
    side: 'purchase' as const,
    status: 'draft' as const,
    ...documentColumns(input, provider),
    createdBy: ctx.userId,
    updatedBy: ctx.userId,
  };
  await guardNumber(ctx, input, id, async () => {
    await documents.insertDocument(ctx, row);
  });
  await documents.insertLines(ctx, lines);
  const stored = (await repository.lockPurchase(ctx, id)) as documents.DocumentRow;
  await audit(ctx, { action: 'purchase_created', entity: 'purchase', entityId: id, after: columnsOf(stored, lines) });
  if (input.register) return registerLocked(ctx, stored, provider, lines);
  return { data: await get({ ctx, id }), code: 'purchase_created' as const };
}

const lockDraft = (ctx: Ctx, id: string, version: number) =>
  side.lockDraft(ctx, side.purchaseDocuments, id, version, () => get({ ctx, id }));

async function update({ ctx, id, input }: { ctx: Ctx; id: string; input: UpdatePurchase }) {
  const current = await lockDraft(ctx, id, input.version);
  const before = columnsOf(current, await documents.linesOf(ctx, id));
  await requireClinicCurrency(ctx, input.currency);
  const provider = await providerFor(ctx, input.providerId);
  const related = await checkRelated(ctx, input, id);
  await checkSources(ctx, input, related, id);
  await checkItems(ctx, input);
  const lines = lineRows(ctx, id, input);
  const { stored } = await side.rewriteDraft(ctx, current, documentColumns(input, provider), lines, (write) =>
    guardNumber(ctx, input, id, write),
  );
  await auditPurchase(ctx, id, 'updated', {
    before,
    after: columnsOf(stored, lines),
  });
  if (input.register) return registerLocked(ctx, stored, provider, lines);
  return { data: await get({ ctx, id }), code: 'purchase_updated' as const };
}

const remove = ({ ctx, id }: { ctx: Ctx; id: string }) => side.removeDraft(ctx, side.purchaseDocuments, id, columnsOf);

async function register({ ctx, id, version }: { ctx: Ctx; id: string; version: number }) {
  const current = await lockDraft(ctx, id, version);
  const provider = await providerFor(ctx, current.providerId as string);
  const lines = await documents.linesOf(ctx, id);
  return registerLocked(ctx, current, provider, lines);
}

const cents = (value: Big) => value.round(2, Big.roundHalfUp);

/** The net unit cost of a line: its subtotal (after discount, before VAT) over its quantity. */
const unitCostOf = (line: { subtotal: string; quantity: string }) =>
  cents(new Big(line.subtotal).div(line.quantity)).toFixed(2);

/** Stock in with the costs, or out for returned goods (ARCHITECTURE §4: the stock service moves it). */
async function moveStock(
  ctx: Ctx,
  document: documents.DocumentRow,
  related: documents.DocumentRow | null,
  lines: { itemId: string | null; quantity: string; subtotal: string }[],
): Promise<boolean> {
  const itemLines = lines.filter((line): line is typeof line & { itemId: string } => line.itemId !== null);
  const stockIn =
    document.documentType === 'delivery_note' ||
    (document.documentType === 'invoice' && related?.documentType !== 'delivery_note');
  const stockOut = document.documentType === 'credit_note' && document.returnsGoods;
  if (itemLines.length === 0 || (!stockIn && !stockOut)) return false;
  const reference = { referenceType: 'purchase', referenceId: document.id };
  if (stockOut) {
    await applyStockMovements(
      ctx.tx,
      ctx,
      itemLines.map((line) => ({
        itemId: line.itemId,
        kind: 'return',
        quantity: -Number(line.quantity),
        unitCost: unitCostOf(line),
        ...reference,
      })),
    );
    return true;
  }
  // Weighted average: the stock before (locked here, before the stock service locks it again) at
  // its average, plus each line at its unit cost; no average yet → the unit cost.
  const items = await repository.lockItemCosts(
    ctx,
    itemLines.map((line) => line.itemId),
  );
  const state = new Map(
    items.map((item) => [
      item.id,
      {
        stock: new Big(item.totalStock),
        average: item.averageCost === null ? null : new Big(item.averageCost),
        last: '',
      },
    ]),
  );
  const movements: StockMovementInput[] = [];
  for (const line of itemLines) {
    const unitCost = unitCostOf(line);
    const quantity = new Big(line.quantity);
    const item = state.get(line.itemId);
    if (item) {
      const before = item.average ?? new Big(unitCost);
      item.average = cents(item.stock.times(before).plus(quantity.times(unitCost)).div(item.stock.plus(quantity)));
      item.stock = item.stock.plus(quantity);
      item.last = unitCost;
    }
    movements.push({ itemId: line.itemId, kind: 'purchase', quantity: Number(line.quantity), unitCost, ...reference });
  }
  await applyStockMovements(ctx.tx, ctx, movements);
  await repository.setItemCosts(
    ctx,
    [...state].flatMap(([id, item]) =>
      item.average && item.last ? [{ id, lastCost: item.last, averageCost: item.average.toFixed(2) }] : [],
    ),
  );
  return true;
}

const documentLabel = (document: {
  documentType: string;
  pointOfService: string | null;
  documentNumber: string | null;
}) => `${document.documentType} ${document.pointOfService ?? ''}-${document.documentNumber ?? ''}`;

/** Registers a locked draft whose lines are stored: final from here on. */
async function registerLocked(
  ctx: Ctx,
  current: documents.DocumentRow,
  provider: repository.ProviderRow,
  lines: documents.LineInsert[] | documents.LineRow[],
) {
  // A draft made by "Recibir" has no provider's number yet: it is typed before registering.
  if (current.documentType !== 'purchase_order') {
    const fields = [
      ...(current.pointOfService ? [] : [{ path: 'pointOfService', code: 'required' }]),
      ...(current.documentNumber ? [] : [{ path: 'documentNumber', code: 'required' }]),
    ];
    if (fields.length > 0) throw new AppError('validation_error', { fields });
  }
  const input = {
    providerId: provider.id,
    documentType: current.documentType,
    currency: current.currency,
    relatedDocumentId: current.relatedDocumentId,
  } as DocumentInput;
  const related = await checkRelated(ctx, input, current.id);
  // What is pending is counted again under the order's lock: two receipts never both take the last units.
  await checkSources(
    ctx,
    { lines: lines.map((line) => ({ sourceLineId: line.sourceLineId ?? null, quantity: line.quantity })) },
    related,
    current.id,
  );
  // Totals again from the stored lines (the same arithmetic as the form).
  const totals = documentTotals(
    lines.map((line) => ({
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      discountRate: line.discountRate ?? '0',
      vatRate: line.vatRate,
    })),
  );
  const document = { ...current, ...totals };
  const movedStock = await moveStock(
    ctx,
    document,
    related,
    lines.map((line) => ({ itemId: line.itemId ?? null, quantity: line.quantity, subtotal: line.subtotal })),
  );
  const pairs = lines.flatMap((line) =>
    line.itemId && line.skuProvider ? [{ sku: line.skuProvider, itemId: line.itemId, unitCost: unitCostOf(line) }] : [],
  );
  await repository.rememberSkus(ctx, provider.id, pairs);

  const ledger = documentEntry({
    id: current.id,
    side: 'purchase',
    documentType: current.documentType as DocumentType,
    partyId: provider.id,
    date: current.date,
    total: totals.total,
    description: documentLabel(current),
  });
  let openAmount = ledger?.openAmount ?? '0.00';
  if (ledger) {
    await postLedgerEntries(ctx, [ledger.entry]);
    const note = { ...current, total: totals.total, partyId: provider.id };
    openAmount = new Big(openAmount).plus(await side.settleCorrected(ctx, 'purchase', note, related)).toFixed(2);
  }
  const registeredAt = new Date();
  const counterpartySnapshot = await clinicSnapshot(ctx);
  // A purchase order takes the clinic's next number now: gap-free, as a sale's (issue 35).
  const numbering =
    current.documentType === 'purchase_order'
      ? await orderNumber(ctx)
      : { pointOfService: current.pointOfService, documentNumber: current.documentNumber, sequenceNumber: null };
  await side.finalGuard(() =>
    documents.updateDocument(ctx, current.id, {
      status: 'registered',
      ...numbering,
      ...totals,
      openAmount,
      movedStock,
      issuerSnapshot: providerSnapshot(provider),
      counterpartySnapshot,
      registeredAt,
      registeredBy: ctx.userId,
      version: current.version + 1,
      updatedAt: registeredAt,
      updatedBy: ctx.userId,
    }),
  );
  await auditPurchase(ctx, current.id, 'registered', {
    before: { status: 'draft', version: current.version },
    after: {
      status: 'registered',
      total: totals.total,
      openAmount,
      movedStock,
      ...(numbering.sequenceNumber ? { number: `${numbering.pointOfService}-${numbering.documentNumber}` } : {}),
    },
  });
  return { data: await get({ ctx, id: current.id }), code: 'purchase_registered' as const };
}

/** The clinic's next purchase order number, `OC-00000001` (point of service `OC`, eight digits). */
async function orderNumber(ctx: Ctx) {
  const sequenceNumber = await takeSequenceNumber(ctx, purchaseOrderSeries, 'purchase_order');
  return {
    pointOfService: purchaseOrderSeries,
    documentNumber: String(sequenceNumber).padStart(8, '0'),
    sequenceNumber,
  };
}

/** Per line of a registered order: ordered, received by registered receipts, pending; its state. */
async function orderReception(
  ctx: Ctx,
  orderId: string,
  lines: { id: string; description: string; quantity: string }[],
): Promise<OrderReception> {
  const received = await repository.receivedOf(
    ctx,
    lines.map((line) => line.id),
    null,
  );
  const rows = lines.map((line) => {
    const got = new Big(received.get(line.id) ?? '0');
    const left = new Big(line.quantity).minus(got);
    return {
      lineId: line.id,
      description: line.description,
      ordered: new Big(line.quantity).toFixed(2),
      received: got.toFixed(2),
      pending: (left.gt(0) ? left : new Big(0)).toFixed(2),
    };
  });
  const anyReceived = rows.some((row) => new Big(row.received).gt(0));
  const allReceived = rows.every((row) => new Big(row.pending).eq(0));
  const receipts = await repository.receiptsOf(ctx, orderId);
  const sends = await repository.sendsOf(ctx, orderId);
  return {
    status: allReceived ? 'received' : anyReceived ? 'partially_received' : 'pending',
    lines: rows,
    receipts: receipts.map((row) => ({
      id: row.id,
      documentType: row.document_type as DocumentType,
      pointOfService: row.point_of_service,
      documentNumber: row.document_number,
      date: row.date,
      total: row.total,
      status: row.status,
    })),
    sends: sends.map((send) => ({ sentAt: send.sentAt.toISOString(), to: send.to, sentByName: send.sentByName })),
  };
}

/**
 * The lines that receive an order's lines (issue 35): every `sourceLineId` is a line of the order
 * the document names (`related`, locked), and no line is received beyond what it ordered, counting
 * the registered receipts other than this one (drafts count once registered).
 */
async function checkSources(
  ctx: Ctx,
  input: { lines: { sourceLineId?: string | null; quantity: string }[] },
  related: documents.DocumentRow | null,
  selfId: string,
): Promise<void> {
  const sourced = input.lines.filter((line): line is { sourceLineId: string; quantity: string } =>
    Boolean(line.sourceLineId),
  );
  if (sourced.length === 0) return;
  if (related?.documentType !== 'purchase_order') {
    throw new AppError('order_line_invalid', { sourceLineId: sourced[0]?.sourceLineId ?? null });
  }
  const orderLines = new Map((await documents.linesOf(ctx, related.id)).map((line) => [line.id, line]));
  const wanted = new Map<string, Big>();
  for (const line of sourced) {
    if (!orderLines.has(line.sourceLineId))
      throw new AppError('order_line_invalid', { sourceLineId: line.sourceLineId });
    wanted.set(line.sourceLineId, (wanted.get(line.sourceLineId) ?? new Big(0)).plus(line.quantity));
  }
  const received = await repository.receivedOf(ctx, [...wanted.keys()], selfId);
  for (const [lineId, quantity] of wanted) {
    const ordered = orderLines.get(lineId) as documents.LineRow;
    const pending = new Big(ordered.quantity).minus(received.get(lineId) ?? '0');
    if (quantity.gt(pending)) {
      throw new AppError('order_over_received', {
        line: {
          id: lineId,
          description: ordered.description,
          ordered: new Big(ordered.quantity).toFixed(2),
          pending: (pending.gt(0) ? pending : new Big(0)).toFixed(2),
          quantity: quantity.toFixed(2),
        },
      });
    }
  }
}

/** A registered purchase order of the clinic, locked (404, or 409 when not an order or a draft). */
async function lockRegisteredOrder(ctx: Ctx, id: string): Promise<documents.DocumentRow> {
  const order = await repository.lockPurchase(ctx, id);
  if (!order) throw new AppError('purchase_not_found');
  if (order.documentType !== 'purchase_order') throw new AppError('not_a_purchase_order');
  if (order.status !== 'registered') throw new AppError('purchase_order_draft');
  return order;
}

/**
 * "Recibir" (issue 35): a draft delivery note or invoice for the order's provider with what is
 * still pending of each line (or less, line by line), each line naming the order line it
 * receives, the order as its related document. The user types the provider's number and
 * registers it; the registration counts what is pending again.
 */
async function receive({ ctx, id, input }: { ctx: Ctx; id: string; input: ReceiveOrder }) {
  const order = await lockRegisteredOrder(ctx, id);
  const orderLines = await documents.linesOf(ctx, id);
  const reception = await orderReception(ctx, id, orderLines);
  const pendingOf = new Map(reception.lines.map((line) => [line.lineId, new Big(line.pending)]));
  const asked = input.lines
    ? new Map(input.lines.map((line) => [line.sourceLineId, new Big(line.quantity)]))
    : new Map([...pendingOf].filter(([, pending]) => pending.gt(0)));
  for (const lineId of asked.keys()) {
    if (!pendingOf.has(lineId)) throw new AppError('order_line_invalid', { sourceLineId: lineId });
  }
  if (asked.size === 0) throw new AppError('nothing_to_receive');
  const lines = orderLines.flatMap((line) => {
    const quantity = asked.get(line.id);
    if (!quantity) return [];
    return [
      {
        itemId: line.itemId,
        description: line.description,
        skuProvider: line.skuProvider,
        quantity: quantity.toFixed(2),
        unitPrice: new Big(line.unitPrice).toFixed(2),
        discountRate: new Big(line.discountRate).toFixed(2),
        vatRate: new Big(line.vatRate).toFixed(2),
        sourceLineId: line.id,
      },
    ];
  });
  const today = clinicToday(ctx.timeZone);
  const created = await create({
    ctx,
    input: {
      providerId: order.providerId as string,
      documentType: input.documentType,
      pointOfService: null,
      documentNumber: null,
      date: today < order.date ? order.date : today,
      dueDate: null,
      deliveryDate: null,
      currency: order.currency as Currency,
      conditionSale: (order.conditionSale ?? 'current_account') as CreatePurchase['conditionSale'],
      paymentMethod: (order.paymentMethod ?? null) as CreatePurchase['paymentMethod'],
      notes: null,
      relatedDocumentId: order.id,
      returnsGoods: false,
      register: false,
      lines,
    },
  });
  await auditPurchase(ctx, id, 'order_received', {
    after: { documentId: created.data.id, documentType: input.documentType, lines: lines.length },
  });
  return { data: created.data, code: 'purchase_received' as const };
}

/** What the order's PDF prints: the order, the clinic's header, the reader's language, the provider's e-mail. */
async function printable({ ctx, id }: { ctx: Ctx; id: string }) {
  const purchase = await get({ ctx, id });
  if (purchase.documentType !== 'purchase_order') throw new AppError('not_a_purchase_order');
  const provider = purchase.providerId ? await repository.findProvider(ctx, purchase.providerId) : undefined;
  const { readerLanguage } = await readerOf(ctx);
  return { purchase, clinic: await loadPrintHeader(ctx), readerLanguage, email: provider?.email?.trim() || null };
}

/**
 * E-mails a registered order's PDF to its provider (409 provider_without_email) and records the
 * sending, in the request's transaction under its Idempotency-Key: a retried key answers the
 * first sending and mails nothing again; a failed mail records nothing.
 */
async function send({ ctx, id, mailer }: { ctx: Ctx; id: string; mailer: Mailer }) {
  await lockRegisteredOrder(ctx, id);
  const printed = await printable({ ctx, id });
  if (!printed.email) {
    throw new AppError('provider_without_email', {
      provider: { id: printed.purchase.providerId, fantasyName: printed.purchase.providerName },
    });
  }
  const { pdf, fileName } = await purchaseOrderPdf(printed);
  try {
    await mailer.send({
      to: printed.email,
      ...purchaseOrderMail(printed),
      attachments: [{ filename: fileName, content: pdf, contentType: 'application/pdf' }],
    });
  } catch (cause) {
    throw new AppError('error_sending_email', undefined, { cause });
  }
  const sentAt = new Date();
  await repository.insertSend(ctx, { id: newId(), documentId: id, sentTo: printed.email, sentAt });
  await audit(ctx, { action: 'purchase_order_sent', entity: 'purchase', entityId: id, after: { to: printed.email } });
  return { code: 'purchase_order_sent' as const, to: printed.email, sentAt: sentAt.toISOString() };
}

async function providerSku({ ctx, providerId, sku }: { ctx: Ctx; providerId: string; sku: string }) {
  const provider = await repository.findProvider(ctx, providerId);
  if (!provider) throw new AppError('provider_not_found');
  const match = await repository.findSku(ctx, providerId, sku);
  return {
    data: match
      ? {
          itemId: match.itemId,
          itemName: match.itemName,
          itemKind: match.itemKind as 'medication' | 'supply',
          lastUnitCost: match.lastUnitCost,
        }
      : null,
  };
}

const auditPurchase = recordAudit('purchase');

export const purchasesService = {
  list,
  get,
  create,
  update,
  remove,
  register,
  providerSku,
  receive,
  printable,
  send,
};
