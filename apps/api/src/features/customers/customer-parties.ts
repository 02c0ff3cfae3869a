import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import { and, eq, sql } from 'drizzle-orm';
import type { WriterContext as Ctx } from '../../context.ts';
import { customers, patients } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';

/**
 * Who a sale or a collection bills (issue 18; docs/decisions.md "Sales: customers"). Every sale and
 * collection names a `customers` row: a company or insurer made on purpose, or a patient's row made
 * the first time the patient is billed. These are the one way the sales, budgets and collections
 * services reach a customer.
 */

export type CustomerRow = typeof customers.$inferSelect;

/** A live customer of the clinic, or undefined. */
export async function findCustomer(ctx: Ctx, id: string): Promise<CustomerRow | undefined> {
  const [row] = await ctx.tx
    .select()
    .from(customers)
    .where(and(eq(customers.accountId, ctx.accountId), eq(customers.id, id), sql`${customers.deletedAt} is null`));
  return row;
}

/**
 * The patient's customer row, made the first time the patient is billed (name, e-mail and
 * language from the patient; a trigger keeps them in step). 404 patient_not_found for a patient
 * that is not the clinic's or is deleted. Safe under concurrency: the unique index decides.
 */
export async function customerOfPatient(ctx: Ctx, patientId: string): Promise<CustomerRow> {
  const [patient] = await ctx.tx
    .select({
      id: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      email: patients.email,
      phoneArea: patients.phoneArea,
      phone: patients.phone,
      language: patients.language,
      address: patients.address,
      city: patients.city,
      state: patients.state,
      zipCode: patients.zipCode,
      ssn: patients.ssn,
    })
    .from(patients)
    .where(and(eq(patients.accountId, ctx.accountId), eq(patients.id, patientId), sql`${patients.deletedAt} is null`));
  if (!patient) throw new AppError('patient_not_found');
  await ctx.tx
    .insert(customers)
    .values({
      accountId: ctx.accountId,
      id: newId(),
      kind: 'patient',
      patientId: patient.id,
      name: `${patient.lastName}, ${patient.firstName}`,
      email: patient.email,
      phone: [patient.phoneArea, patient.phone].filter(Boolean).join(' ') || null,
      language: patient.language,
      address: patient.address,
      city: patient.city,
      province: patient.state,
      postalCode: patient.zipCode,
      createdBy: ctx.userId,
      updatedBy: ctx.userId,
    })
    .onConflictDoNothing();
  const [row] = await ctx.tx
    .select()
    .from(customers)
    .where(and(eq(customers.accountId, ctx.accountId), eq(customers.patientId, patient.id)));
  if (!row) throw new Error(`customer of patient ${patientId} not written`);
  return row;
}

/**
 * The customer a request names: `customerId`, or the patient's (made when missing). 404
 * customer_not_found / patient_not_found; 409 customer_inactive for new documents when asked.
 */
export async function resolveCustomer(
  ctx: Ctx,
  input: { customerId?: string | null; patientId?: string | null },
  options: { mustBeActive?: boolean } = {},
): Promise<CustomerRow> {
  let customer: CustomerRow | undefined;
  if (input.customerId) {
    customer = await findCustomer(ctx, input.customerId);
    if (!customer) throw new AppError('customer_not_found');
  } else if (input.patientId) {
    customer = await customerOfPatient(ctx, input.patientId);
  } else {
    throw new AppError('validation_error', { fields: [{ path: 'customerId', code: 'required' }] });
  }
  if (options.mustBeActive && !customer.active) {
    throw new AppError('customer_inactive', { customer: { id: customer.id, name: customer.name } });
  }
  return customer;
}

/** What an issued sale or a receipt prints of its customer, as the customer is at that moment. */
export function customerSnapshot(customer: CustomerRow): PartySnapshot {
  return {
    name: customer.name,
    legalName: customer.kind === 'patient' ? null : customer.tradeName,
    taxIdKind: customer.taxIdKind,
    taxId: customer.taxId,
    fiscalCondition: customer.fiscalCondition,
    address: [customer.address, customer.postalCode].filter(Boolean).join(' ') || null,
    city: [customer.city, customer.province].filter(Boolean).join(', ') || null,
    phone: customer.phone,
    email: customer.email,
  };
}
