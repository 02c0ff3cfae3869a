import { and, asc, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { countRows, sortedBy, type TenantScope } from '../../db/list-query.ts';
import { users } from '../../db/schema/index.ts';
import { spanishKey } from '../../db/spanish-order.ts';
import type { SystemTx } from '../../db/tenancy.ts';

/** The clinic's users (tenant context only: RLS keeps every other clinic out). */

export type UserRow = typeof users.$inferSelect;

/** Names in Spanish order (db/spanish-order.ts, users_name_idx). */
const sortColumns = {
  completeName: spanishKey(users.completeName),
  email: users.email,
  level: users.level,
  createdAt: users.createdAt,
} as const;

export interface ListUsersQuery {
  q?: string | undefined;
  page: number;
  pageSize: number;
  sort?: string | undefined;
}

export async function listUsers(
  { tx }: TenantScope,
  query: ListUsersQuery,
): Promise<{ rows: UserRow[]; total: number }> {
  const escaped = query.q?.replace(/[\\%_]/g, (char) => `\\${char}`);
  const where: SQL | undefined = escaped
    ? or(ilike(users.completeName, `%${escaped}%`), ilike(users.email, `%${escaped}%`))
    : undefined;
  const { column, descending } = sortedBy(query.sort, sortColumns, 'completeName');
  const rows = await tx
    .select()
    .from(users)
    .where(where)
    .orderBy(descending ? desc(column) : asc(column), asc(users.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { rows, total: await countRows(tx, users, where) };
}

/**
 * A new membership of a login (issue 19: an invitation may name a person of another clinic), in
 * the system context; the caller names the clinic.
 */
export async function insertMembership(tx: SystemTx, user: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await tx.insert(users).values(user).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** The user, locked for the rest of the transaction. */
export async function findUserForUpdate({ tx }: TenantScope, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('no key update');
  return row;
}

/** Locks the clinic's active administrators and counts them (the last one must stay). */
export async function lockActiveAdministrators({ tx }: TenantScope): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.level, 'administrator'), eq(users.active, true)))
    .for('no key update');
  return rows.map((row) => row.id);
}

export async function updateUser(
  { tx }: TenantScope,
  id: string,
  change: Partial<Pick<UserRow, 'level' | 'active' | 'licenseNumber' | 'specialty'>>,
): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({ ...change, updatedAt: new Date(), version: sql`${users.version} + 1` })
    .where(eq(users.id, id))
    .returning();
  if (!row) throw new Error('update returned no row');
  return row;
}
