import { and, count, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { appRole, type SystemTx, systemRole, type TenantTx } from './tenancy.ts';

/**
 * Search as you type over an accent-free `search_text` column with a trigram index, under
 * row-level security (docs/decisions.md, "Inventory on the server").
 *
 * `LIKE` is not leakproof, so under RLS PostgreSQL must check the clinic policy on every row
 * before it and never reaches the trigram index (a scan of the clinic's whole table). The page's
 * ids and the number of matches are therefore looked up in the system context with the clinic
 * named explicitly (`account_id = <session's clinic>`, the same filter the policy applies), where
 * the index answers in a few milliseconds; the caller then reads the rows back in the clinic
 * context, under RLS, so no other clinic's row can ever come out. Both settings are
 * transaction-local, like the tenant context they briefly replace.
 */

/** The words of a query: each must appear in the search key. */
export function searchWords(q: string | undefined): string[] {
  return (q ?? '').split(/\s+/).filter(Boolean);
}

/** Each word of `q` must appear in `column` (accent- and case-free); LIKE wildcards are literal. */
export function searchCondition(column: PgColumn, q: string | undefined): SQL | undefined {
  const words = searchWords(q);
  if (words.length === 0) return undefined;
  return and(
    ...words.map((word) => {
      const escaped = word.replace(/[\\%_]/g, (char) => `\\${char}`);
      return sql`${column} like '%' || odontia_search_text(${escaped}::text) || '%'`;
    }),
  );
}

/** Whether the trigram index can narrow the search: some word has three letters or more. */
export function usesTrigramIndex(q: string | undefined): boolean {
  return searchWords(q).some((word) => word.normalize('NFD').replace(/\p{Diacritic}/gu, '').length >= 3);
}

/**
 * Runs `fn` in the system context within the clinic's transaction, then returns to the clinic
 * context. `fn` must name the clinic in every query (`account_id = accountId`). An error in `fn`
 * rolls the whole transaction back, so the system context never outlives it.
 */
export async function inSystemContext<T>(
  tx: TenantTx,
  accountId: string,
  fn: (systemTx: SystemTx) => Promise<T>,
): Promise<T> {
  await tx.execute(
    sql`select set_config('role', ${systemRole}, true), set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)`,
  );
  const result = await fn(tx as unknown as SystemTx);
  await tx.execute(
    sql`select set_config('role', ${appRole}, true), set_config('app.account_id', ${accountId}, true), set_config('enable_seqscan', 'on', true), set_config('enable_indexscan', 'on', true)`,
  );
  return result;
}

export interface IndexedPageQuery {
  table: PgTable;
  id: PgColumn;
  /** The whole filter, which MUST include `account_id = accountId`. */
  where: SQL | undefined;
  orderBy: SQL[];
  page: number;
  pageSize: number;
}

/**
 * One page of ids and the number of matches, from one pass over the index in the system context
 * (a separate count only for a page past the end). The caller reads the rows back under RLS.
 */
export async function findPageIds(
  tx: TenantTx,
  accountId: string,
  query: IndexedPageQuery,
): Promise<{ ids: string[]; total: number }> {
  if (!containsAccount(query.where, accountId)) {
    throw new TypeError('findPageIds needs a filter on the clinic (account_id)');
  }
  return inSystemContext(tx, accountId, async (system) => {
    const rows = await system
      .select({ id: query.id, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(query.table)
      .where(query.where)
      .orderBy(...query.orderBy)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    let total = rows[0]?.total;
    if (total === undefined) {
      const [counted] = await system.select({ n: count() }).from(query.table).where(query.where);
      total = counted?.n ?? 0;
    }
    return { ids: rows.map((row) => String(row.id)), total };
  });
}

/** Rows in the order of `ids` (the page order), dropping any that RLS did not return. */
export function inIdOrder<T extends { id: string }>(ids: string[], rows: T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A guard against a forgotten clinic filter: the clinic id must be among the query's parameters. */
function containsAccount(where: SQL | undefined, accountId: string): boolean {
  if (!where) return false;
  const seen = new Set<unknown>();
  const visit = (chunk: unknown): boolean => {
    if (chunk === null || typeof chunk !== 'object' || seen.has(chunk)) return chunk === accountId;
    seen.add(chunk);
    const value = (chunk as { value?: unknown }).value;
    if (value === accountId) return true;
    const chunks = (chunk as { queryChunks?: unknown[] }).queryChunks;
    return Array.isArray(chunks) && chunks.some(visit);
  };
  return visit(where);
}
