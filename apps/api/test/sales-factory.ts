import type { DocumentType } from '@odontia/shared/enums';
import Big from 'big.js';
import { and, eq } from 'drizzle-orm';
import { commercialDocuments, customers, documentLines } from '../src/db/schema/index.ts';
import { documentEntry, postLedgerEntries } from '../src/features/current-accounts/ledger.ts';
import { customerOfPatient } from '../src/features/customers/customer-parties.ts';
import { newId } from '../src/lib/ids.ts';
import type { TestClinic } from './clinics.ts';
import type { TestClinicContext } from './test-clinic.ts';

/**
 * Sales factories for the collections and customers' accounts tests (issue 18), which must not
 * depend on the sales routes: rows written straight into the tables as the clinic, the way issuing
 * a sale moves money (the draft with its line, then status issued with its number, totals, open
 * amount and ledger entry through `documentEntry` + `postLedgerEntries`). No hash chain: the
 * chain columns stay empty (the collections never read them).
 */

let counter = 0;

/** A company (or insurer) customer of the clinic. */
export async function insertCustomer(
  t: TestClinicContext,
  overrides: Partial<typeof customers.$inferInsert> = {},
  clinic: TestClinic = t.clinic,
): Promise<string> {
  counter += 1;
  const id = newId();
  await t.db.withTenant(clinic.accountId, (tx) =>
    tx.insert(customers).values({
      accountId: clinic.accountId,
      id,
      kind: 'company',
      name: `Obra Social Norte ${counter}`,
      taxIdKind: 'cuit',
      taxId: `30-${String(60000000 + counter * 7919).slice(0, 8)}-${counter % 10}`,
      email: `cobranzas${counter}@obrasocial.example`,
      language: 'es',
      paymentTermDays: 30,
      createdBy: clinic.userId,
      updatedBy: clinic.userId,
      ...overrides,
    }),
  );
  return id;
}

/** The patient's customer row (made on first billing), as the sales service makes it. */
export async function customerIdOfPatient(
  t: TestClinicContext,
  patientId: string,
  clinic: TestClinic = t.clinic,
): Promise<string> {
  return t.db.withTenant(clinic.accountId, async (tx) => {
    const row = await customerOfPatient({ tx, accountId: clinic.accountId, userId: clinic.userId }, patientId);
    return row.id;
  });
}

export interface SaleFactoryInput {
  customerId?: string;
  patientId?: string;
  documentType?: DocumentType;
  date?: string;
  dueDate?: string | null;
  currency?: string;
  /** The net of its one line (VAT 21 % is added). */
  net?: string;
  relatedDocumentId?: string;
}

/** An issued sale (invoice by default): total = net × 1.21, open amount signed, the ledger entry posted. */
export async function insertIssuedSale(
  t: TestClinicContext,
  input: SaleFactoryInput,
  clinic: TestClinic = t.clinic,
): Promise<{ id: string; total: string; customerId: string; number: string }> {
  counter += 1;
  const id = newId();
  const documentType = input.documentType ?? 'invoice';
  const date = input.date ?? '2026-10-01';
  const net = new Big(input.net ?? '1000');
  const vat = net.times('0.21').round(2, Big.roundHalfUp);
  const total = net.plus(vat).toFixed(2);
  const sequence = 100000 + counter;
  const number = String(sequence).padStart(8, '0');
  const customerId = await t.db.withTenant(clinic.accountId, async (tx) => {
    const ctx = { tx, accountId: clinic.accountId, userId: clinic.userId };
    let customerId = input.customerId;
    let patientId: string | null = null;
    if (!customerId) {
      if (!input.patientId) throw new Error('insertIssuedSale: customerId or patientId');
      const customer = await customerOfPatient(ctx, input.patientId);
      customerId = customer.id;
      patientId = customer.patientId;
    } else {
      const [row] = await tx
        .select({ patientId: customers.patientId })
        .from(customers)
        .where(and(eq(customers.accountId, clinic.accountId), eq(customers.id, customerId)));
      patientId = row?.patientId ?? null;
    }
    await tx.insert(commercialDocuments).values({
      accountId: clinic.accountId,
      id,
      side: 'sale',
      status: 'draft',
      documentType,
      customerId,
      patientId,
      pointOfService: '0001',
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
      description: 'Consulta y limpieza',
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
      side: 'sale',
      documentType,
      partyId: customerId,
      date,
      total,
      description: `${documentType} 0001-${number}`,
    });
    await tx
      .update(commercialDocuments)
      .set({
        status: 'issued',
        documentNumber: number,
        sequenceNumber: sequence,
        subtotal1: net.toFixed(2),
        subtotal2: net.toFixed(2),
        vatTotal: vat.toFixed(2),
        total,
        vatBreakdown: [{ rate: '21.00', base: net.toFixed(2), vat: vat.toFixed(2) }],
        openAmount: moved?.openAmount ?? '0',
        counterpartySnapshot: { name: 'Cliente' },
        issuerSnapshot: { name: 'Clínica' },
        registeredAt: new Date(),
        registeredBy: clinic.userId,
      })
      .where(and(eq(commercialDocuments.accountId, clinic.accountId), eq(commercialDocuments.id, id)));
    if (moved) await postLedgerEntries(ctx, [moved.entry]);
    return customerId;
  });
  return { id, total, customerId, number: `0001-${number}` };
}
