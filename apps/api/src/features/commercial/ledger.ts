import { documentMoneySign } from '@odontia/shared/commercial';
import type { DocumentType } from '@odontia/shared/enums';
import Big from 'big.js';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { WriterContext as Ctx } from '../../context.ts';
import { commercialDocuments, ledgerEntries, paymentAllocations } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';

/**
 * The ONE way a current account changes (ARCHITECTURE §4 "Ledgers"), shared by purchases and
 * payments (issue 17) and by sales and collections (issue 18). Entries are appended, never changed
 * (the database refuses UPDATE and DELETE), and each party's totals in `party_balances` move in
 * the same statement batch, so the balance a list shows is always the sum of the ledger.
 *
 * Signs. A provider's account: `credit` = what the clinic comes to owe (invoice, debit note),
 * `debit` = what settles it (payment, credit note); balance = credits − debits. A customer's:
 * the other way round; balance = debits − credits. A document's `open_amount` follows its money
 * sign: positive for what it asks to be paid, negative for a credit note's credit not yet applied.
 */

export type PartyKind = 'provider' | 'customer';

export interface LedgerEntryInput {
  partyKind: PartyKind;
  partyId: string;
  date: string;
  kind: 'document' | 'payment' | 'payment_reversal';
  documentId?: string | null;
  paymentId?: string | null;
  description: string;
  debit?: string;
  credit?: string;
}

/** A party's balance from its totals, in the party's own sign. */
export function balanceOf(partyKind: PartyKind, totals: { debits: string; credits: string }): string {
  const credits = new Big(totals.credits);
  const debits = new Big(totals.debits);
  return (partyKind === 'provider' ? credits.minus(debits) : debits.minus(credits)).toFixed(2);
}

/** Appends entries and moves each party's totals with them. */
export async function postLedgerEntries(ctx: Ctx, entries: LedgerEntryInput[]): Promise<void> {
  if (entries.length === 0) return;
  await ctx.tx.insert(ledgerEntries).values(
    entries.map((entry) => ({
      accountId: ctx.accountId,
      id: newId(),
      partyKind: entry.partyKind,
      partyId: entry.partyId,
      date: entry.date,
      kind: entry.kind,
      documentId: entry.documentId ?? null,
      paymentId: entry.paymentId ?? null,
      description: entry.description,
      debit: entry.debit ?? '0',
      credit: entry.credit ?? '0',
      createdBy: ctx.userId,
    })),
  );
  const totals = new Map<string, { partyKind: PartyKind; partyId: string; debits: Big; credits: Big }>();
  for (const entry of entries) {
    const key = `${entry.partyKind}:${entry.partyId}`;
    const total = totals.get(key) ?? {
      partyKind: entry.partyKind,
      partyId: entry.partyId,
      debits: new Big(0),
      credits: new Big(0),
    };
    total.debits = total.debits.plus(entry.debit ?? '0');
    total.credits = total.credits.plus(entry.credit ?? '0');
    totals.set(key, total);
  }
  // One party at a time, in a stable order: two transactions never wait on each other in a cycle.
  for (const total of [...totals.values()].sort((a, b) => a.partyId.localeCompare(b.partyId))) {
    await ctx.tx.execute(sql`
      insert into party_balances (account_id, party_kind, party_id, debits, credits, updated_at)
      values (${ctx.accountId}::uuid, ${total.partyKind}, ${total.partyId}::uuid,
              ${total.debits.toFixed(2)}::numeric, ${total.credits.toFixed(2)}::numeric, now())
      on conflict (account_id, party_kind, party_id) do update
        set debits = party_balances.debits + excluded.debits,
            credits = party_balances.credits + excluded.credits,
            updated_at = now()`);
  }
}

/**
 * The ledger entry of a registered or issued document, or none when its type moves no money
 * (an order, a budget, a proforma, a delivery note). Its open amount starts at its total, signed.
 */
export function documentEntry(document: {
  id: string;
  side: 'purchase' | 'sale';
  documentType: DocumentType;
  partyId: string;
  date: string;
  total: string;
  description: string;
}): { entry: LedgerEntryInput; openAmount: string } | null {
  const sign = documentMoneySign[document.documentType];
  if (sign === 0 || new Big(document.total).eq(0)) return null;
  const partyKind: PartyKind = document.side === 'purchase' ? 'provider' : 'customer';
  // A purchase invoice is a credit of the provider's account; a sale invoice a debit of the customer's.
  const owes = sign > 0 === (partyKind === 'provider') ? 'credit' : 'debit';
  return {
    entry: {
      partyKind,
      partyId: document.partyId,
      date: document.date,
      kind: 'document',
      documentId: document.id,
      description: document.description,
      [owes]: document.total,
    },
    openAmount: new Big(document.total).times(sign).toFixed(2),
  };
}

export interface AllocationRequest {
  documentId: string;
  amount: string;
}

export interface AllocationSource {
  /** The payment (or collection) being allocated… */
  paymentId?: string;
  /** …or a credit note applied to the document it corrects. */
  creditDocumentId?: string;
  side: 'purchase' | 'sale';
  partyId: string;
  currency: string;
}

/**
 * Applies `source` to open documents of the same party and currency: each document's open amount
 * goes down (never below zero: 409 `payment_over_allocation` naming it) and an allocation row
 * records it. The documents are locked in id order. The caller checks and moves its own side (the
 * payment's allocated amount, a credit note's open amount) in the same transaction.
 */
export async function allocateToDocuments(
  ctx: Ctx,
  source: AllocationSource,
  requests: AllocationRequest[],
): Promise<void> {
  if (requests.length === 0) return;
  const byDocument = new Map<string, Big>();
  for (const request of requests) {
    byDocument.set(request.documentId, (byDocument.get(request.documentId) ?? new Big(0)).plus(request.amount));
  }
  const ids = [...byDocument.keys()].sort();
  const documents = await ctx.tx
    .select({
      id: commercialDocuments.id,
      side: commercialDocuments.side,
      status: commercialDocuments.status,
      documentType: commercialDocuments.documentType,
      providerId: commercialDocuments.providerId,
      customerId: commercialDocuments.customerId,
      currency: commercialDocuments.currency,
      openAmount: commercialDocuments.openAmount,
    })
    .from(commercialDocuments)
    .where(
      and(
        eq(commercialDocuments.accountId, ctx.accountId),
        inArray(commercialDocuments.id, ids),
        sql`${commercialDocuments.deletedAt} is null`,
      ),
    )
    .orderBy(asc(commercialDocuments.id))
    .for('no key update');
  const found = new Map(documents.map((document) => [document.id, document]));
  for (const id of ids) {
    const document = found.get(id);
    const partyId = document?.side === 'purchase' ? document.providerId : document?.customerId;
    if (!document || document.side !== source.side || partyId !== source.partyId || document.status === 'draft') {
      throw new AppError(source.side === 'purchase' ? 'purchase_not_found' : 'sale_not_found', { documentId: id });
    }
    if (document.currency !== source.currency) throw new AppError('currency_mismatch', { documentId: id });
    const amount = byDocument.get(id) as Big;
    if (amount.gt(document.openAmount)) {
      throw new AppError('payment_over_allocation', {
        documentId: id,
        openAmount: document.openAmount,
        amount: amount.toFixed(2),
      });
    }
  }
  const values = sql.join(
    ids.map((id) => sql`(${id}::uuid, ${(byDocument.get(id) as Big).toFixed(2)}::numeric)`),
    sql`, `,
  );
  await ctx.tx.execute(sql`
    update commercial_documents as d set open_amount = d.open_amount - v.amount
    from (values ${values}) as v(id, amount)
    where d.account_id = ${ctx.accountId}::uuid and d.id = v.id`);
  await ctx.tx.insert(paymentAllocations).values(
    requests.map((request) => ({
      accountId: ctx.accountId,
      id: newId(),
      paymentId: source.paymentId ?? null,
      creditDocumentId: source.creditDocumentId ?? null,
      documentId: request.documentId,
      amount: request.amount,
      createdBy: ctx.userId,
    })),
  );
}

/**
 * Undoes a payment's allocations (its reversal): each allocation is marked reversed and its
 * document is open again by its amount. Answers the total that was allocated.
 */
export async function reversePaymentAllocations(ctx: Ctx, paymentId: string): Promise<string> {
  const reversed = await ctx.tx
    .update(paymentAllocations)
    .set({ reversedAt: new Date() })
    .where(
      and(
        eq(paymentAllocations.accountId, ctx.accountId),
        eq(paymentAllocations.paymentId, paymentId),
        sql`${paymentAllocations.reversedAt} is null`,
      ),
    )
    .returning({ documentId: paymentAllocations.documentId, amount: paymentAllocations.amount });
  if (reversed.length === 0) return '0.00';
  const byDocument = new Map<string, Big>();
  for (const row of reversed)
    byDocument.set(row.documentId, (byDocument.get(row.documentId) ?? new Big(0)).plus(row.amount));
  const ids = [...byDocument.keys()].sort();
  const values = sql.join(
    ids.map((id) => sql`(${id}::uuid, ${(byDocument.get(id) as Big).toFixed(2)}::numeric)`),
    sql`, `,
  );
  await ctx.tx.execute(sql`
    update commercial_documents as d set open_amount = d.open_amount + v.amount
    from (values ${values}) as v(id, amount)
    where d.account_id = ${ctx.accountId}::uuid and d.id = v.id`);
  return reversed.reduce((total, row) => total.plus(row.amount), new Big(0)).toFixed(2);
}
