import type { DocumentType } from '@odontia/shared/enums';
import Big from 'big.js';
import { and, eq, sql } from 'drizzle-orm';
import { commercialDocuments, documentLines, providers } from '../src/db/schema/index.ts';
import { documentEntry, postLedgerEntries } from '../src/features/current-accounts/ledger.ts';
import { newId } from '../src/lib/ids.ts';
import type { TestClinic } from './clinics.ts';
import type { TestClinicContext } from './test-clinic.ts';

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
  const id = newId();
  const documentType = input.documentType ?? 'invoice';
  const date = input.date ?? '2026-10-01';
  const net = new Big(input.net ?? '1000');
  const vat = net.times('0.21').round(2, Big.roundHalfUp);
  const total = net.plus(vat).toFixed(2);
  const number = input.number ?? String(counter).padStart(8, '0');
  await t.db.withTenant(clinic.accountId, async (tx) => {
    const ctx = { tx, accountId: clinic.accountId, userId: clinic.userId };
    await tx.insert(commercialDocuments).values({
      accountId: clinic.accountId,
      id,
      side: 'purchase',
      status: 'draft',
      documentType,
      providerId: input.providerId,
      pointOfService: '0001',
      documentNumber: number,
      date,
      dueDate: input.dueDate === undefined ? date : input.dueDate,
      currency: input.currency ?? 'argentine_peso',
      relatedDocumentId: input.relatedDocumentId ?? null,
      createdBy: clinic.userId,
      updatedBy: clinic.userId,
    });
    await tx.insert(documentLines).values({
      accountId: clinic.accountId,
      id: newId(),
      documentId: id,
      position: 1,
      description: 'Anestesia carpule x 50',
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
      side: 'purchase',
      documentType,
      partyId: input.providerId,
      date,
      total,
      description: `${documentType} 0001-${number}`,
    });
    await tx
      .update(commercialDocuments)
      .set({
        status: 'registered',
        subtotal1: net.toFixed(2),
        subtotal2: net.toFixed(2),
        vatTotal: vat.toFixed(2),
        total,
        vatBreakdown: [{ rate: '21.00', base: net.toFixed(2), vat: vat.toFixed(2) }],
        openAmount: moved?.openAmount ?? '0',
        counterpartySnapshot: { name: 'Clínica' },
        issuerSnapshot: { name: 'Proveedor' },
        registeredAt: new Date(),
        registeredBy: clinic.userId,
      })
      .where(and(eq(commercialDocuments.accountId, clinic.accountId), eq(commercialDocuments.id, id)));
    if (moved) await postLedgerEntries(ctx, [moved.entry]);
  });
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
 * The ledger invariant of every provider of every clinic: party_balances = Σ ledger = Σ open
 * amounts of its registered documents − Σ unallocated of its non-reversed payments. Answers the
 * providers where it does not hold (an empty list when all is well).
 */
export async function ledgerMismatches(t: TestClinicContext) {
  const { rows } = await t.db.orm.execute(sql`
    select p.account_id, p.id,
      coalesce(b.credits - b.debits, 0) as balance,
      coalesce((select sum(e.credit - e.debit) from ledger_entries e
        where e.account_id = p.account_id and e.party_kind = 'provider' and e.party_id = p.id), 0) as ledger,
      coalesce((select sum(d.open_amount) from commercial_documents d
        where d.account_id = p.account_id and d.provider_id = p.id and d.status <> 'draft' and d.deleted_at is null), 0)
      - coalesce((select sum(y.amount - y.allocated_amount) from payments y
        where y.account_id = p.account_id and y.provider_id = p.id and y.reversed_at is null), 0) as open
    from providers p
    left join party_balances b on b.account_id = p.account_id and b.party_kind = 'provider' and b.party_id = p.id`);
  return rows.filter((row) => {
    const { balance, ledger, open } = row as { balance: string; ledger: string; open: string };
    return !new Big(balance).eq(ledger) || !new Big(ledger).eq(open);
  });
}

/**
 * The same invariant for every customer (issue 18): party_balances = Σ ledger (debits − credits)
 * = Σ open amounts of its issued sales − Σ unallocated of its non-reversed collections.
 */
export async function customerLedgerMismatches(t: TestClinicContext) {
  const { rows } = await t.db.orm.execute(sql`
    select c.account_id, c.id,
      coalesce(b.debits - b.credits, 0) as balance,
      coalesce((select sum(e.debit - e.credit) from ledger_entries e
        where e.account_id = c.account_id and e.party_kind = 'customer' and e.party_id = c.id), 0) as ledger,
      coalesce((select sum(d.open_amount) from commercial_documents d
        where d.account_id = c.account_id and d.customer_id = c.id and d.status <> 'draft' and d.deleted_at is null), 0)
      - coalesce((select sum(y.amount - y.allocated_amount) from payments y
        where y.account_id = c.account_id and y.customer_id = c.id and y.reversed_at is null), 0) as open
    from customers c
    left join party_balances b on b.account_id = c.account_id and b.party_kind = 'customer' and b.party_id = c.id`);
  return rows.filter((row) => {
    const { balance, ledger, open } = row as { balance: string; ledger: string; open: string };
    return !new Big(balance).eq(ledger) || !new Big(ledger).eq(open);
  });
}
