import { and, asc, count, eq, getTableColumns, ilike, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { authorizationTemplates, users } from '../../db/schema/index.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';

/** The clinic's informed-consent templates (tenant context). Deleted ones never come out. */

export type TemplateInsert = typeof authorizationTemplates.$inferInsert;
export type TemplateRow = typeof authorizationTemplates.$inferSelect;
export type TemplateRowWithNames = TemplateRow & { createdByName: string | null; updatedByName: string | null };

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');

const live = (accountId: string) =>
  and(eq(authorizationTemplates.accountId, accountId), isNull(authorizationTemplates.deletedAt));

function selectWithNames(tx: TenantTx) {
  return tx
    .select({
      ...getTableColumns(authorizationTemplates),
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(authorizationTemplates)
    .leftJoin(
      creator,
      and(eq(creator.accountId, authorizationTemplates.accountId), eq(creator.id, authorizationTemplates.createdBy)),
    )
    .leftJoin(
      updater,
      and(eq(updater.accountId, authorizationTemplates.accountId), eq(updater.id, authorizationTemplates.updatedBy)),
    );
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (match) => `\\${match}`);

/** One page by title, and the count. */
export async function listTemplates(
  tx: TenantTx,
  accountId: string,
  query: { q?: string; active?: boolean; page: number; pageSize: number },
): Promise<{ rows: TemplateRowWithNames[]; total: number }> {
  const conditions: (SQL | undefined)[] = [live(accountId)];
  if (query.q) conditions.push(ilike(authorizationTemplates.title, `%${escapeLike(query.q)}%`));
  if (query.active !== undefined) conditions.push(eq(authorizationTemplates.active, query.active));
  const where = and(...conditions);
  const rows = await selectWithNames(tx)
    .where(where)
    .orderBy(asc(authorizationTemplates.title), asc(authorizationTemplates.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await tx.select({ n: count() }).from(authorizationTemplates).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findTemplate(
  tx: TenantTx,
  accountId: string,
  id: string,
): Promise<TemplateRowWithNames | undefined> {
  const [row] = await selectWithNames(tx).where(and(live(accountId), eq(authorizationTemplates.id, id)));
  return row;
}

export async function findTemplateForUpdate(
  tx: TenantTx,
  accountId: string,
  id: string,
): Promise<TemplateRow | undefined> {
  const [row] = await tx
    .select()
    .from(authorizationTemplates)
    .where(and(live(accountId), eq(authorizationTemplates.id, id)))
    .for('update');
  return row;
}

/** Inserts templates; the system context writes a new clinic's default one at sign-up. */
export async function insertTemplates(tx: TenantTx | SystemTx, rows: TemplateInsert[]): Promise<void> {
  if (rows.length > 0) await tx.insert(authorizationTemplates).values(rows);
}

export async function updateTemplate(
  tx: TenantTx,
  accountId: string,
  id: string,
  change: Partial<TemplateInsert>,
): Promise<void> {
  await tx
    .update(authorizationTemplates)
    .set({ ...change, updatedAt: new Date(), version: sql`${authorizationTemplates.version} + 1` })
    .where(and(eq(authorizationTemplates.accountId, accountId), eq(authorizationTemplates.id, id)));
}

export async function softDeleteTemplate(tx: TenantTx, accountId: string, id: string, userId: string): Promise<void> {
  const now = new Date();
  await tx
    .update(authorizationTemplates)
    .set({
      deletedAt: now,
      deletedBy: userId,
      updatedAt: now,
      updatedBy: userId,
      version: sql`${authorizationTemplates.version} + 1`,
    })
    .where(and(eq(authorizationTemplates.accountId, accountId), eq(authorizationTemplates.id, id)));
}
