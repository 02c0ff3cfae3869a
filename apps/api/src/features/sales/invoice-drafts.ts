import type { SaleDocumentType } from '@odontia/shared/commercial';
import { documentTotals, lineAmounts } from '@odontia/shared/document-totals';
import type { ConditionSale, Currency, PaymentMethod } from '@odontia/shared/enums';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AuditedContext, WriterContext as Ctx, TxContext } from '../../context.ts';
import { pointsOfSale } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { audit } from '../audit/audit.repository.ts';
import {
  type DocumentRow,
  insertDocument,
  insertLines,
  type LineInsert,
  type LineRow,
} from '../commercial/side-documents.repository.ts';
import { type CustomerRow, customerSnapshot } from '../customers/customer-parties.ts';

/**
 * Making a sale DRAFT (issue 18): the one insert of a sale document with its lines, the lines'
 * amounts and the document's totals computed with packages/shared/src/document-totals.ts (the
 * form's arithmetic). Budgets converted into proformas or invoices and "invoice this attendance"
 * use it; the sales service's create can too. A draft holds nothing: no number, no ledger, no
 * billed sources — issuing does all of it.
 */

export type SaleDocumentRow = DocumentRow;
export type SaleLineRow = LineRow;

export interface SaleDraftLine {
  description: string;
  quantity: string;
  unitPrice: string;
  discountRate?: string | null;
  vatRate: string;
  itemId?: string | null;
  treatmentId?: string | null;
  tooth?: string | null;
  /** The attendance it bills (its fee when attendanceLineId is null). */
  attendanceId?: string | null;
  attendanceLineId?: string | null;
  /** The budget (or delivery note) line it comes from. */
  sourceLineId?: string | null;
  /** Who did it (issue 35): the source's professional unless chosen (line-sources.ts). */
  professionalId?: string | null;
}

export interface SaleDraftInput {
  documentType: SaleDocumentType;
  customer: CustomerRow;
  date: string;
  dueDate?: string | null;
  currency: Currency;
  /** The point of sale that will number it; null until one is chosen (issuing needs it). */
  pointOfService: string | null;
  conditionSale?: ConditionSale;
  paymentMethod?: PaymentMethod | null;
  relatedDocumentId?: string | null;
  returnsGoods?: boolean;
  notes?: string | null;
  lines: SaleDraftLine[];
}

/** A draft's columns: the totals computed here, never taken from the client. */
export function saleDraftColumns(input: SaleDraftInput) {
  const totals = documentTotals(input.lines.map(amountsOf));
  return {
    documentType: input.documentType,
    customerId: input.customer.id,
    patientId: input.customer.patientId,
    pointOfService: input.pointOfService,
    date: input.date,
    dueDate: input.dueDate ?? null,
    currency: input.currency,
    conditionSale: input.conditionSale ?? 'current_account',
    paymentMethod: input.paymentMethod ?? null,
    notes: input.notes ?? null,
    relatedDocumentId: input.relatedDocumentId ?? null,
    returnsGoods: input.documentType === 'credit_note' ? (input.returnsGoods ?? false) : false,
    ...totals,
    // The customer's data while a draft (a search by its name finds it); copied again at issue.
    counterpartySnapshot: customerSnapshot(input.customer),
  };
}

const amountsOf = (line: SaleDraftLine) => ({
  quantity: line.quantity,
  unitPrice: line.unitPrice,
  discountRate: line.discountRate ?? '0',
  vatRate: line.vatRate,
});

/** A draft's lines, positions 1…n, each with its amounts. */
export function saleDraftLines(ctx: Ctx, documentId: string, lines: SaleDraftLine[]): LineInsert[] {
  return lines.map((line, index) => ({
    accountId: ctx.accountId,
    id: newId(),
    documentId,
    position: index + 1,
    itemId: line.itemId ?? null,
    treatmentId: line.treatmentId ?? null,
    tooth: line.tooth ?? null,
    attendanceId: line.attendanceId ?? null,
    attendanceLineId: line.attendanceLineId ?? null,
    sourceLineId: line.sourceLineId ?? null,
    professionalId: line.professionalId ?? null,
    description: line.description,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    discountRate: line.discountRate ?? '0',
    vatRate: line.vatRate,
    ...lineAmounts(amountsOf(line)),
  }));
}

/** Inserts the draft and its lines; answers both as stored. */
export async function insertSaleDraft(
  ctx: Ctx,
  input: SaleDraftInput & { id?: string },
): Promise<{ document: SaleDocumentRow; lines: SaleLineRow[] }> {
  const id = input.id ?? newId();
  const document = await insertDocument(ctx, {
    accountId: ctx.accountId,
    id,
    side: 'sale',
    status: 'draft',
    ...saleDraftColumns(input),
    createdBy: ctx.userId,
    updatedBy: ctx.userId,
  });
  const lines = await insertLines(ctx, saleDraftLines(ctx, id, input.lines));
  return { document, lines };
}

/** The audit event of a draft made from sources (`origin` says from what). */
export function auditSaleDraft(
  ctx: AuditedContext,
  draft: { document: SaleDocumentRow; lines: SaleLineRow[] },
  origin: Record<string, unknown>,
): Promise<void> {
  return audit(ctx, {
    action: 'sale_created',
    entity: 'sale',
    entityId: draft.document.id,
    after: {
      documentType: draft.document.documentType,
      customerId: draft.document.customerId,
      date: draft.document.date,
      currency: draft.document.currency,
      relatedDocumentId: draft.document.relatedDocumentId,
      total: draft.document.total,
      lines: draft.lines.map((line) => `${line.quantity} × ${line.unitPrice} ${line.description}`),
      ...origin,
    },
  });
}

/** The clinic's first active point of sale (by code), or null when it has none. */
export async function defaultPointOfSale(ctx: TxContext): Promise<string | null> {
  const [row] = await ctx.tx
    .select({ code: pointsOfSale.code })
    .from(pointsOfSale)
    .where(
      and(
        eq(pointsOfSale.accountId, ctx.accountId),
        eq(pointsOfSale.active, true),
        sql`${pointsOfSale.deletedAt} is null`,
      ),
    )
    .orderBy(asc(pointsOfSale.code))
    .limit(1);
  return row?.code ?? null;
}
