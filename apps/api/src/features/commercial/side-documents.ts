import type { VatShare } from '@odontia/shared/document-totals';
import type { Currency, DocumentType } from '@odontia/shared/enums';
import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import type { DocumentRef } from '@odontia/shared/schemas/commercial-documents';
import Big from 'big.js';
import { sendInOrder } from '../../db/indexed-search.ts';
import { presentStamps } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import { allocationsOf } from './document-allocations.ts';
import { allocateToDocuments } from './ledger.ts';
import * as repository from './side-documents.repository.ts';

/**
 * The commercial documents of one side, written once for purchases (issue 17) and sales (issue
 * 18): what a document answers whatever its side, the draft's lock and deletion, the database's
 * final guard, the list's page and a credit note settling what it corrects. What differs by side
 * is the descriptor below; the party, the numbering (the fiscal chain of a sale, a provider's
 * number or a purchase order's series), stock and the side's own checks stay in sales/ and
 * purchases/.
 */

export interface DocumentSide<TEntity extends string> {
  /** `commercial_documents.side` and the ledger's document side. */
  side: repository.DocumentSide;
  /** The audit entity, and the prefix of its actions and message codes. */
  entity: TEntity;
  /** The state a final document is in: a sale is issued, a purchase registered. */
  finalStatus: 'issued' | 'registered';
}

/** The documents that correct another: they name it, in its currency. */
export const correctingTypes: ReadonlySet<string> = new Set(['credit_note', 'debit_note']);

export const saleDocuments = { side: 'sale', entity: 'sale', finalStatus: 'issued' } as const;
export const purchaseDocuments = { side: 'purchase', entity: 'purchase', finalStatus: 'registered' } as const;

type Ctx = RequestContext;

/** The database's guard on final documents (migration 0016) answers as the API does. */
export async function finalGuard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
      if ((current as { hint?: unknown }).hint === 'document_final') throw new AppError('document_final');
    }
    throw error;
  }
}

/** How a related document is named in an answer. */
export const documentRef = (row: {
  id: string;
  documentType: string;
  pointOfService: string | null;
  documentNumber: string | null;
  date: string;
  total: string;
}): DocumentRef => ({ ...row, documentType: row.documentType as DocumentType });

/** The list item's fields every document answers, whatever its side (the party's are the side's). */
export function presentListFields(row: repository.DocumentRow) {
  return {
    id: row.id,
    side: row.side,
    status: row.status,
    documentType: row.documentType as DocumentType,
    pointOfService: row.pointOfService,
    documentNumber: row.documentNumber,
    date: row.date,
    dueDate: row.dueDate,
    currency: row.currency as Currency,
    // Each side's contract narrows these two; the database holds the same words for both.
    conditionSale: row.conditionSale as never,
    paymentMethod: row.paymentMethod as never,
    subtotal2: row.subtotal2,
    vatTotal: row.vatTotal,
    total: row.total,
    openAmount: row.openAmount,
    registeredAt: row.registeredAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

/** The audited columns of a stored document that both sides share (each adds its party and lines). */
export function auditedDocumentColumns(row: repository.DocumentRow) {
  return {
    documentType: row.documentType,
    pointOfService: row.pointOfService,
    date: row.date,
    dueDate: row.dueDate,
    currency: row.currency,
    conditionSale: row.conditionSale,
    paymentMethod: row.paymentMethod,
    notes: row.notes,
    relatedDocumentId: row.relatedDocumentId,
    returnsGoods: row.returnsGoods,
    status: row.status,
    total: row.total,
  };
}

/** The line's fields every document answers (a sale's line adds its treatment, tooth and sources). */
export function presentLineFields(line: repository.NamedLineRow) {
  return {
    id: line.id,
    position: line.position,
    itemId: line.itemId,
    itemName: line.itemName,
    itemKind: line.itemKind,
    description: line.description,
    skuProvider: line.skuProvider,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    discountRate: line.discountRate,
    vatRate: line.vatRate,
    subtotal1: line.subtotal1,
    discount: line.discount,
    subtotal: line.subtotal,
    vat: line.vat,
    total: line.total,
    sourceLineId: line.sourceLineId,
  };
}

/**
 * What one document of the side answers beyond its list item and lines: its references (the
 * related document, the ones that name it), totals, copied parties, its allocations and who wrote
 * it. The three reads go out together on a pipelining connection (one round trip), one after
 * the other on PGlite (db/indexed-search.ts `sendInOrder`).
 */
export async function documentDetails(
  ctx: Ctx,
  side: repository.DocumentSide,
  row: repository.NamedDocumentRow<unknown>,
) {
  const relatedId = row.relatedDocumentId;
  const [related, from, allocations] = await sendInOrder(ctx.tx, [
    () => (relatedId ? repository.documentRefs(ctx, [relatedId]) : Promise.resolve([])),
    () => repository.relatedFrom(ctx, side, row.id),
    () => allocationsOf(ctx, row.id),
  ]);
  return {
    notes: row.notes,
    relatedDocumentId: row.relatedDocumentId,
    relatedDocument: related[0] ? documentRef(related[0]) : null,
    relatedFrom: from.map(documentRef),
    returnsGoods: row.returnsGoods,
    movedStock: row.movedStock,
    subtotal1: row.subtotal1,
    discountTotal: row.discountTotal,
    vatBreakdown: row.vatBreakdown as VatShare[],
    issuerSnapshot: (row.issuerSnapshot as PartySnapshot | null) ?? null,
    counterpartySnapshot: (row.counterpartySnapshot as PartySnapshot | null) ?? null,
    registeredByName: row.registeredByName,
    allocations: allocations.map((allocation) => ({
      id: allocation.id,
      paymentId: allocation.paymentId,
      paymentNumber: allocation.paymentNumber,
      creditDocumentId: allocation.creditDocumentId,
      date: allocation.paymentDate ?? allocation.creditDate ?? allocation.createdAt.toISOString().slice(0, 10),
      amount: allocation.amount,
      reversed: allocation.reversedAt !== null,
    })),
    ...presentStamps(row),
  };
}

/** A list's answer: the page's rows as the side presents them. */
export function documentPage<TRow, TItem>(
  query: { page: number; pageSize: number },
  { rows, total, totalIsLowerBound }: { rows: TRow[]; total: number; totalIsLowerBound: boolean },
  present: (row: TRow) => TItem,
) {
  return {
    data: rows.map(present),
    total,
    ...(totalIsLowerBound ? { totalIsLowerBound } : {}),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** A live draft of the side, locked (404, 409 document_final once final). */
export async function lockLiveDraft<TEntity extends string>(
  ctx: Ctx,
  side: DocumentSide<TEntity>,
  id: string,
): Promise<repository.DocumentRow> {
  const current = await repository.lockDocument(ctx, side.side, id);
  if (!current) throw new AppError(`${side.entity}_not_found` as never);
  if (current.status !== 'draft') throw new AppError('document_final');
  return current;
}

/** The draft locked at the version the client saw (409 version_conflict with the current document). */
export async function lockDraft<TEntity extends string>(
  ctx: Ctx,
  side: DocumentSide<TEntity>,
  id: string,
  version: number,
  current: () => Promise<unknown>,
): Promise<repository.DocumentRow> {
  const draft = await lockLiveDraft(ctx, side, id);
  if (draft.version !== version) throw new AppError('version_conflict', { current: await current() });
  return draft;
}

/** A draft's saved form: the document's columns, a new version and its lines replaced. */
export async function rewriteDraft(
  ctx: Ctx,
  current: repository.DocumentRow,
  columns: Partial<repository.DocumentInsert>,
  lines: repository.LineInsert[],
  /** Wraps the document's write (a purchase guards its provider's number). */
  writing: (write: () => Promise<void>) => Promise<void> = (write) => write(),
) {
  return finalGuard(async () => {
    let stored: repository.DocumentRow | undefined;
    await writing(async () => {
      stored = await repository.updateDocument(ctx, current.id, {
        ...columns,
        version: current.version + 1,
        updatedAt: new Date(),
        updatedBy: ctx.userId,
      });
    });
    await repository.deleteLines(ctx, current.id);
    return { stored: stored as repository.DocumentRow, lines: await repository.insertLines(ctx, lines) };
  });
}

/** Deletes a draft (soft: kept, and audited with what it was). */
export async function removeDraft<TEntity extends string>(
  ctx: Ctx,
  side: DocumentSide<TEntity>,
  id: string,
  columnsOf: (row: repository.DocumentRow, lines: repository.NamedLineRow[]) => unknown,
) {
  const current = await lockLiveDraft(ctx, side, id);
  const lines = await repository.linesOf(ctx, id);
  await finalGuard(() =>
    repository.updateDocument(ctx, id, {
      deletedAt: new Date(),
      deletedBy: ctx.userId,
      version: current.version + 1,
      updatedAt: new Date(),
      updatedBy: ctx.userId,
    }),
  );
  await audit(ctx, {
    action: `${side.entity}_deleted`,
    entity: side.entity,
    entityId: id,
    before: columnsOf(current, lines) as Record<string, unknown>,
  });
  return { code: `${side.entity}_deleted` as const };
}

/**
 * A credit note settles the document it corrects up to what that document still owes: an
 * allocation of the note to it. Answers what was applied (nothing when it owes nothing).
 */
export async function settleCorrected(
  ctx: Ctx,
  side: repository.DocumentSide,
  note: { id: string; documentType: string; total: string; currency: string; partyId: string },
  related: repository.DocumentRow | null,
): Promise<Big> {
  if (note.documentType !== 'credit_note' || !related || !new Big(related.openAmount).gt(0)) return new Big(0);
  const applied = new Big(note.total).lt(related.openAmount) ? new Big(note.total) : new Big(related.openAmount);
  await allocateToDocuments(ctx, { creditDocumentId: note.id, side, partyId: note.partyId, currency: note.currency }, [
    { documentId: related.id, amount: applied.toFixed(2) },
  ]);
  return applied;
}

/** 409 delivery_note_already_invoiced when a final invoice of the side other than `selfId` bills it. */
export async function refuseInvoicedDeliveryNote<TEntity extends string>(
  ctx: Ctx,
  side: DocumentSide<TEntity>,
  deliveryNoteId: string,
  selfId: string,
): Promise<void> {
  const invoice = await repository.findInvoiceOf(ctx, side, deliveryNoteId, selfId);
  if (invoice) {
    throw new AppError('delivery_note_already_invoiced', {
      document: {
        id: invoice.id,
        documentType: invoice.documentType,
        pointOfService: invoice.pointOfService,
        documentNumber: invoice.documentNumber,
      },
    });
  }
}
