import type { DocumentType } from '@odontia/shared/enums';
import { and, eq } from 'drizzle-orm';
import { customers } from '../src/db/schema/index.ts';
import { customerOfPatient } from '../src/features/customers/customer-parties.ts';
import { newId } from '../src/lib/ids.ts';
import type { TestClinic } from './clinics.ts';
import { insertFinalDocument } from './commercial.ts';
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
  const sequence = 100000 + counter;
  const number = String(sequence).padStart(8, '0');
  const { id, total, customerId } = await t.db.withTenant(clinic.accountId, async (tx) => {
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
    const issued = await insertFinalDocument(ctx, {
      ...input,
      side: 'sale',
      partyId: customerId,
      number,
      description: 'Consulta y limpieza',
      draft: { customerId, patientId },
      final: {
        status: 'issued',
        documentNumber: number,
        sequenceNumber: sequence,
        counterpartySnapshot: { name: 'Cliente' },
        issuerSnapshot: { name: 'Clínica' },
      },
    });
    return { ...issued, customerId };
  });
  return { id, total, customerId, number: `0001-${number}` };
}
