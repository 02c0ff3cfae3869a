import type { DocumentType } from '@odontia/shared/enums';
import Big from 'big.js';
import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { commercialDocuments, documentLines, providers } from '../src/db/schema/index.ts';
import type { TenantTx } from '../src/db/tenancy.ts';
import { documentEntry, postLedgerEntries } from '../src/features/commercial/ledger.ts';
import { newId } from '../src/lib/ids.ts';
import type { TestClinic } from './clinics.ts';
import type { TestClinicContext } from './test-clinic.ts';
import { expectAnswer } from './test-clinic.ts';

/**
 * Commercial factories for tests that must not depend on the purchases and providers routes:
 * rows written straight into the tables as the clinic, the way the purchases service registers a
 * document (insert the draft with its lines, then update it to registered with its totals, open
 * amount and ledger entry through `documentEntry` + `postLedgerEntries`).
 */

let counter = 0;

export async function insertProvider(
  t: TestClinicContext,
  overrides: Partial<typeof providers.$inferInsert> = {},
  clinic: TestClinic = t.clinic,
): Promise<string> {
  counter += 1;
  const id = newId();
  await t.db.withTenant(clinic.accountId, (tx) =>
    tx.insert(providers).values({
      accountId: clinic.accountId,
      id,
      fantasyName: `Dental Sur ${counter}`,
      bussinesName: `Dental Sur ${counter} S.A.`,
      nif: `30-${String(70000000 + counter * 7919).slice(0, 8)}-${counter % 10}`,
      taxIdKind: 'cuit',
      currency: 'argentine_peso',
      commercialAddress: 'Av. Corrientes 1234, CABA',
      paymentTermDays: 30,
      createdBy: clinic.userId,
      updatedBy: clinic.userId,
      ...overrides,
    }),
  );
  return id;
}

export interface PurchaseFactoryInput {
  providerId: string;
  documentType?: DocumentType;
  date?: string;
  dueDate?: string | null;
  currency?: string;
  /** The net of its one line (VAT 21 % is added). */
  net?: string;
  number?: string;
  relatedDocumentId?: string;
}

/** A registered purchase (invoice by default): its total is net × 1.21, its open amount signed. */
export async function insertRegisteredPurchase(
  t: TestClinicContext,
  input: PurchaseFactoryInput,
  clinic: TestClinic = t.clinic,
): Promise<{ id: string; total: string }> {
  counter += 1;
  const number = input.number ?? String(counter).padStart(8, '0');
  return t.db.withTenant(clinic.accountId, (tx) =>
    insertFinalDocument(
      { tx, accountId: clinic.accountId, userId: clinic.userId },
      {
        ...input,
        side: 'purchase',
        partyId: input.providerId,
        number,
        description: 'Anestesia carpule x 50',
        draft: { providerId: input.providerId, documentNumber: number },
        final: {
          status: 'registered',
          counterpartySnapshot: { name: 'Clínica' },
          issuerSnapshot: { name: 'Proveedor' },
        },
      },
    ),
  );
}

export interface FinalDocumentInput {
  side: 'purchase' | 'sale';
  partyId: string;
  documentType?: DocumentType;
  date?: string;
  dueDate?: string | null;
  currency?: string;
  /** The net of its one line (VAT 21 % is added). */
  net?: string;
  /** Its number in point of sale 0001. */
  number: string;
  relatedDocumentId?: string;
  /** Its one line's text. */
  description: string;
  /** The side's own columns of the draft (its party…) and of the final document (its state, copied parties…). */
  draft: Partial<typeof commercialDocuments.$inferInsert>;
  final: Partial<typeof commercialDocuments.$inferInsert>;
}

/**
 * A final document of either side with one line, written as the services write one: the draft
 * with its line, then final with its totals, open amount and ledger entry (total = net × 1.21).
 */
export async function insertFinalDocument(
  ctx: { tx: TenantTx; accountId: string; userId: string },
  input: FinalDocumentInput,
): Promise<{ id: string; total: string }> {
  const { tx, accountId, userId } = ctx;
  const id = newId();
  const documentType = input.documentType ?? 'invoice';
  const date = input.date ?? '2026-10-01';
  const net = new Big(input.net ?? '1000');
  const vat = net.times('0.21').round(2, Big.roundHalfUp);
  const total = net.plus(vat).toFixed(2);
  await tx.insert(commercialDocuments).values({
    accountId,
    id,
    side: input.side,
    status: 'draft',
    documentType,
    pointOfService: '0001',
    date,
    dueDate: input.dueDate === undefined ? date : input.dueDate,
    currency: input.currency ?? 'argentine_peso',
    relatedDocumentId: input.relatedDocumentId ?? null,
    createdBy: userId,
    updatedBy: userId,
    ...input.draft,
  });
  await tx.insert(documentLines).values({
    accountId,
    id: newId(),
    documentId: id,
    position: 1,
    description: input.description,
    quantity: '1',
    unitPrice: net.toFixed(2),
    vatRate: '21',
    subtotal1: net.toFixed(2),
    discount: '0',
    subtotal: net.toFixed(2),
    vat: vat.toFixed(2),
    total,
  });
  const moved = documentEntry({
    id,
    side: input.side,
    documentType,
    partyId: input.partyId,
    date,
    total,
    description: `${documentType} 0001-${input.number}`,
  });
  await tx
    .update(commercialDocuments)
    .set({
      subtotal1: net.toFixed(2),
      subtotal2: net.toFixed(2),
      vatTotal: vat.toFixed(2),
      total,
      vatBreakdown: [{ rate: '21.00', base: net.toFixed(2), vat: vat.toFixed(2) }],
      openAmount: moved?.openAmount ?? '0',
      registeredAt: new Date(),
      registeredBy: userId,
      ...input.final,
    })
    .where(and(eq(commercialDocuments.accountId, accountId), eq(commercialDocuments.id, id)));
  if (moved) await postLedgerEntries(ctx, [moved.entry]);
  return { id, total };
}

/** A document's open amount, read as the superuser. */
export async function openAmountOf(t: TestClinicContext, documentId: string): Promise<string> {
  const { rows } = await t.db.orm.execute<{ open_amount: string }>(
    sql`select open_amount::text from commercial_documents where id = ${documentId}::uuid`,
  );
  return rows[0]?.open_amount ?? 'missing';
}

/**
 * The ledger invariant of every party of the side of every clinic: party_balances = Σ ledger = Σ
 * open amounts of its final documents − Σ unallocated of its non-reversed money. Answers the
 * parties where it does not hold (an empty list when all is well).
 */
async function partyLedgerMismatches(t: TestClinicContext, party: 'provider' | 'customer') {
  // A provider's balance is what the clinic owes it (credits − debits); a customer's what it owes (debits − credits).
  const owed = party === 'provider' ? sql.raw('e.credit - e.debit') : sql.raw('e.debit - e.credit');
  const owedTotals = party === 'provider' ? sql.raw('b.credits - b.debits') : sql.raw('b.debits - b.credits');
  const table = sql.raw(party === 'provider' ? 'providers' : 'customers');
  const column = sql.raw(party === 'provider' ? 'provider_id' : 'customer_id');
  const { rows } = await t.db.orm.execute(sql`
    select p.account_id, p.id,
      coalesce(${owedTotals}, 0) as balance,
      coalesce((select sum(${owed}) from ledger_entries e
        where e.account_id = p.account_id and e.party_kind = ${party} and e.party_id = p.id), 0) as ledger,
      coalesce((select sum(d.open_amount) from commercial_documents d
        where d.account_id = p.account_id and d.${column} = p.id and d.status <> 'draft' and d.deleted_at is null), 0)
      - coalesce((select sum(y.amount - y.allocated_amount) from payments y
        where y.account_id = p.account_id and y.${column} = p.id and y.reversed_at is null), 0) as open
    from ${table} p
    left join party_balances b on b.account_id = p.account_id and b.party_kind = ${party} and b.party_id = p.id`);
  return rows.filter((row) => {
    const { balance, ledger, open } = row as { balance: string; ledger: string; open: string };
    return !new Big(balance).eq(ledger) || !new Big(ledger).eq(open);
  });
}

/** The invariant for every provider (issue 17). */
export const ledgerMismatches = (t: TestClinicContext) => partyLedgerMismatches(t, 'provider');

/** The invariant for every customer (issue 18). */
export const customerLedgerMismatches = (t: TestClinicContext) => partyLedgerMismatches(t, 'customer');

/**
 * Another clinic's document is 404 for every call in `calls` (made with the other clinic's
 * token) and never in its `list`.
 */
export async function expectHiddenFromOtherClinic(
  t: TestClinicContext,
  list: string,
  id: string,
  calls: readonly (readonly ['GET' | 'PUT' | 'POST' | 'DELETE', string, object | undefined])[],
) {
  for (const [method, url, body] of calls) {
    const response = await t.call(method, url, { token: t.other.token, ...(body ? { body } : {}) });
    expect(response.statusCode, `${method} ${url}`).toBe(404);
  }
  const theirs = (await t.call('GET', list, { token: t.other.token })).json();
  expect(theirs.data.map((row: { id: string }) => row.id)).not.toContain(id);
}

/** A collection or a payment, as its side's routes (`/api/<side>s/…`) and codes (`<side>_…`) name it. */
type MoneySide = 'collection' | 'payment';

/**
 * A reversed collection or payment: audited with its reason and what went back to the documents,
 * and it stays reversed: reversing it again and allocating it (through the side's `allocate` path)
 * are refused with `<side>_already_reversed`; its party's list of reversed ones (`party`:
 * `customerId=…`) shows it alone.
 */
export async function expectReversedForGood(
  t: TestClinicContext,
  side: MoneySide,
  movement: { id: string; version: number },
  {
    allocate,
    documentId,
    audited,
    party,
  }: {
    allocate: 'allocate' | 'allocations';
    documentId: string;
    audited: { reason: string; reallocatedToDocuments: string };
    party: string;
  },
): Promise<void> {
  const again = await t.call('POST', `/api/${side}s/${movement.id}/reverse`, {
    body: { version: movement.version, reason: 'Otra vez' },
  });
  expect(again.statusCode).toBe(409);
  expect(again.json().code).toBe(`${side}_already_reversed`);
  const allocateReversed = await t.call('POST', `/api/${side}s/${movement.id}/${allocate}`, {
    body: { version: movement.version, allocations: [{ documentId, amount: '1' }] },
  });
  expect(allocateReversed.statusCode).toBe(409);
  expect(allocateReversed.json().code).toBe(`${side}_already_reversed`);
  const event = (await t.auditEvents(`${side}_reversed`)).find((e) => e.entityId === movement.id);
  expect(event?.after).toMatchObject(audited);
  const listed = await t.call('GET', `/api/${side}s?status=reversed&${party}`);
  expect(listed.json().data.map((listedOne: { id: string }) => listedOne.id)).toEqual([movement.id]);
}

/**
 * A collection or payment of 100.00 created pending (`created`, the answer to its creation), listed
 * as pending for its party (`party`: `customerId=…`), is marked paid once: the second time is
 * `<side>_already_paid`; it is audited.
 */
export async function expectMarkedPaidOnce(
  t: TestClinicContext,
  side: MoneySide,
  created: { statusCode: number; json: () => { data: { id: string; version: number } } },
  party: string,
): Promise<void> {
  expect(created.statusCode).toBe(201);
  const movement = created.json().data;
  expect(movement).toMatchObject({ status: 'pending', paidOn: null, unallocatedAmount: '100.00' });
  const pending = await t.call('GET', `/api/${side}s?status=pending&${party}`);
  expect(pending.json().total).toBe(1);
  const paid = await t.call('POST', `/api/${side}s/${movement.id}/paid`, {
    body: { version: movement.version, paidOn: '2026-10-22' },
  });
  expectAnswer(paid, 200, { code: `${side}_marked_paid`, data: { status: 'paid', paidOn: '2026-10-22' } });
  const twice = await t.call('POST', `/api/${side}s/${movement.id}/paid`, {
    body: { version: paid.json().data.version, paidOn: '2026-10-23' },
  });
  expect(twice.statusCode).toBe(409);
  expect(twice.json().code).toBe(`${side}_already_paid`);
  expect((await t.auditEvents(`${side}_marked_paid`)).some((e) => e.entityId === movement.id)).toBe(true);
}

/** The ledger entries a collection or a payment posted (its entry, its reversal's), by kind. */
export async function movementLedgerEntries(t: TestClinicContext, movementId: string) {
  const { rows } = await t.db.orm.execute<{ kind: string; debit: string; credit: string }>(
    sql`select kind, debit::text, credit::text from ledger_entries where payment_id = ${movementId}::uuid order by kind`,
  );
  return rows;
}
