import { and, count, desc, eq, sql } from 'drizzle-orm';
import { accountMovements, accounts } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { activeStaff, mb, storedBytes } from './plan-limits.ts';

/** My account (issue 19): the clinic's contract and billing columns of `accounts`, and its movements. */

export interface Scope {
  readonly tx: TenantTx;
  readonly accountId: string;
}

const accountColumns = {
  id: accounts.id,
  clinicName: accounts.clinicName,
  contact: accounts.contact,
  promotionalCode: accounts.promotionalCode,
  plan: accounts.plan,
  planEndsAt: accounts.planEndsAt,
  contractStartsAt: accounts.contractStartsAt,
  renewalRequestedAt: accounts.renewalRequestedAt,
  timeZone: accounts.timeZone,
  defaultLanguage: accounts.defaultLanguage,
  billingSameAsFiscal: accounts.billingSameAsFiscal,
  billingLegalName: accounts.billingLegalName,
  billingTaxId: accounts.billingTaxId,
  billingAddress: accounts.billingAddress,
  billingCity: accounts.billingCity,
  billingPostalCode: accounts.billingPostalCode,
  billingCountry: accounts.billingCountry,
  billingEmail: accounts.billingEmail,
  billingContact: accounts.billingContact,
  legalName: accounts.legalName,
  taxId: accounts.taxId,
  address: accounts.address,
  city: accounts.city,
  country: accounts.country,
  updatedAt: accounts.updatedAt,
  version: accounts.version,
};

/** The clinic's row as My account reads it; locked for an edit when `lock`. */
export async function findAccount({ tx, accountId }: Scope, { lock = false } = {}) {
  const query = tx.select(accountColumns).from(accounts).where(eq(accounts.id, accountId));
  const [row] = lock ? await query.for('no key update') : await query;
  if (!row) throw new Error(`clinic ${accountId} not found`);
  return row;
}
export type AccountRow = Awaited<ReturnType<typeof findAccount>>;

export interface BillingColumns {
  clinicName: string;
  contact: string;
  billingSameAsFiscal: boolean;
  billingLegalName: string | null;
  billingTaxId: string | null;
  billingAddress: string | null;
  billingCity: string | null;
  billingPostalCode: string | null;
  billingCountry: string | null;
  billingEmail: string | null;
  billingContact: string | null;
}

export const billingColumnNames = [
  'clinicName',
  'contact',
  'billingSameAsFiscal',
  'billingLegalName',
  'billingTaxId',
  'billingAddress',
  'billingCity',
  'billingPostalCode',
  'billingCountry',
  'billingEmail',
  'billingContact',
] as const satisfies readonly (keyof BillingColumns)[];

/** Writes the billing data: a new version of the clinic's row (shared with its settings and fiscal data). */
export async function updateBilling({ tx, accountId }: Scope, values: BillingColumns): Promise<void> {
  await tx
    .update(accounts)
    .set({ ...values, updatedAt: new Date(), version: sql`${accounts.version} + 1` })
    .where(eq(accounts.id, accountId));
}

/** The contract's columns (not the version: a renewal never makes the billing form stale). */
export async function updateContract(
  { tx, accountId }: Scope,
  values: Partial<{
    plan: string;
    planEndsAt: Date | null;
    contractStartsAt: Date | null;
    renewalRequestedAt: Date | null;
  }>,
): Promise<void> {
  await tx.update(accounts).set(values).where(eq(accounts.id, accountId));
}

/** What the clinic uses of its plan's limits: active staff users, and its files in MB. */
export async function usage(scope: Scope): Promise<{ professionals: number; storageMb: number }> {
  return { professionals: await activeStaff(scope), storageMb: mb(await storedBytes(scope)) };
}

export type MovementRow = typeof accountMovements.$inferSelect;

/** A page of the clinic's movements, newest first (over account_movements_date_idx). */
export async function pageMovements({ tx, accountId }: Scope, { page, pageSize }: { page: number; pageSize: number }) {
  const where = eq(accountMovements.accountId, accountId);
  const rows = await tx
    .select()
    .from(accountMovements)
    .where(where)
    .orderBy(desc(accountMovements.date), desc(accountMovements.createdAt), desc(accountMovements.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [total] = await tx.select({ total: count() }).from(accountMovements).where(where);
  return { rows, total: Number(total?.total ?? 0) };
}

export async function findMovement({ tx, accountId }: Scope, id: string, { lock = false } = {}) {
  const query = tx
    .select()
    .from(accountMovements)
    .where(and(eq(accountMovements.accountId, accountId), eq(accountMovements.id, id)));
  const [row] = lock ? await query.for('no key update') : await query;
  return row;
}

export async function findMovementByReference({ tx, accountId }: Scope, reference: string) {
  const [row] = await tx
    .select()
    .from(accountMovements)
    .where(and(eq(accountMovements.accountId, accountId), eq(accountMovements.reference, reference)));
  return row;
}

/** The newest renewal order not paid yet, if any. */
export async function findPendingRenewal({ tx, accountId }: Scope) {
  const [row] = await tx
    .select()
    .from(accountMovements)
    .where(
      and(
        eq(accountMovements.accountId, accountId),
        eq(accountMovements.kind, 'renewal_order'),
        eq(accountMovements.status, 'pending'),
      ),
    )
    .orderBy(desc(accountMovements.createdAt))
    .limit(1);
  return row;
}

export async function insertMovement(
  { tx, accountId }: Scope,
  values: Omit<typeof accountMovements.$inferInsert, 'accountId'>,
): Promise<MovementRow> {
  const [row] = await tx
    .insert(accountMovements)
    .values({ ...values, accountId })
    .returning();
  if (!row) throw new Error('movement not inserted');
  return row;
}

export async function markMovementPaid({ tx, accountId }: Scope, id: string, paidAt: Date): Promise<void> {
  await tx
    .update(accountMovements)
    .set({ status: 'paid', paidAt })
    .where(and(eq(accountMovements.accountId, accountId), eq(accountMovements.id, id)));
}
