import { type AnyColumn, and, asc, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { patients, users } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/** What every clinical record of a patient checks first (tenant context). */

/**
 * Whether the clinic has this patient (not deleted). With `lock`, the patient is share-locked for
 * the rest of the transaction so a record is never written for a patient being deleted at the
 * same moment.
 */
export async function patientExists(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  options: { lock?: boolean } = {},
): Promise<boolean> {
  const query = tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.accountId, accountId), eq(patients.id, patientId), isNull(patients.deletedAt)));
  const rows = options.lock ? await query.for('share') : await query;
  return rows.length > 0;
}

/** An active user of the clinic who can attend patients (any level but customer). */
/** Upper bound of the professionals list: far above any clinic's staff, a guard against a runaway answer. */
export const maxProfessionals = 500;

/** The clinic's active users who are not customers, by name, with licence and specialty. */
export async function listProfessionals(tx: TenantTx, accountId: string) {
  return tx
    .select({
      id: users.id,
      completeName: users.completeName,
      licenseNumber: users.licenseNumber,
      specialty: users.specialty,
    })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.active, true), ne(users.level, 'customer')))
    .orderBy(asc(users.completeName), asc(users.id))
    .limit(maxProfessionals);
}

export async function findProfessional(
  tx: TenantTx,
  accountId: string,
  userId: string,
): Promise<{ id: string; completeName: string } | undefined> {
  const [row] = await tx
    .select({ id: users.id, completeName: users.completeName, level: users.level, active: users.active })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.id, userId)));
  if (!row?.active || row.level === 'customer') return undefined;
  return { id: row.id, completeName: row.completeName };
}

/**
 * ORDER BY of "a patient's records, newest first": the same direction and null order as the
 * partial indexes (drizzle writes `desc` there as DESC NULLS LAST), so the index gives the order
 * and the first page reads 20 index entries, not the whole history.
 */
export function newestFirst(date: AnyColumn, id: AnyColumn): SQL[] {
  return [sql`${date} desc nulls last`, sql`${id} desc nulls last`];
}
