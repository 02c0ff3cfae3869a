import { and, count, eq, type SQL, sql } from 'drizzle-orm';
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
 *
 * The index is the clinic's (migration 0010): its keys are trigrams hashed with the clinic, so
 * the lookup reads one clinic's lists and never pays for the others' matches (docs/decisions.md,
 * "A clinic among 500"). `LIKE` stays as the exact check of every row it returns.
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

/** A table searched as you type: its clinic and its accent-free search key. */
export interface SearchableTable {
  accountId: PgColumn;
  searchText: PgColumn;
}

/**
 * The index condition of a search: the row's clinic keys hold every trigram of every word
 * (`clinicSearchIndex` in db/schema/records.ts). Written exactly as the index expression, so the
 * planner matches it; the clinic id and words are constants, folded when the statement is planned.
 */
export function clinicSearchKeysCondition(table: SearchableTable, accountId: string, q: string | undefined): SQL {
  const words = searchWords(q).map((word) => sql`odontia_search_text(${word}::text)`);
  return sql`odontia_clinic_search_keys(${table.accountId}, ${table.searchText}) @> odontia_clinic_search_query(${accountId}::uuid, array[${sql.join(words, sql`, `)}]::text[])`;
}

/** Whether the trigram index can narrow the search: some word has three letters or more. */
export function usesTrigramIndex(q: string | undefined): boolean {
  return searchWords(q).some((word) => word.normalize('NFD').replace(/\p{Diacritic}/gu, '').length >= 3);
}

/**
 * Planner settings of the system-context search: the trigram index through a bitmap, in the
 * request's own process (the planner cannot estimate the hashed keys and would otherwise start
 * parallel workers for a few hundred rows, ~10 ms each time).
 */
const plannerForBitmap = {
  enable_seqscan: 'off',
  enable_indexscan: 'off',
  enable_bitmapscan: 'on',
  max_parallel_workers_per_gather: '0',
};
/** …or a walk of a covering index in the list's order, filtering as it goes. */
const plannerForOrderedWalk = { enable_seqscan: 'off', enable_indexscan: 'on', enable_bitmapscan: 'off' };
const plannerDefaults = { enable_seqscan: 'on', enable_indexscan: 'on', enable_bitmapscan: 'on' };

const plannerSettings = (settings: Record<string, string>) =>
  Object.entries(settings).map(([name, value]) => sql`set_config(${name}, ${value}, true)`);

async function setPlanner(tx: TenantTx | SystemTx, settings: Record<string, string>): Promise<void> {
  await tx.execute(sql`select ${sql.join(plannerSettings(settings), sql`, `)}`);
}

/**
 * Runs `fn` in the system context within the clinic's transaction, then returns to the clinic
 * context (one statement each way). `fn` must name the clinic in every query
 * (`account_id = accountId`; findPageIds adds it itself). An error in `fn` rolls the whole
 * transaction back, so the system context never outlives it.
 */
export async function inSystemContext<T>(
  tx: TenantTx,
  accountId: string,
  fn: (systemTx: SystemTx) => Promise<T>,
): Promise<T> {
  // The server's parallel setting is read before it is changed (the select list runs in order).
  const enter = [
    sql`current_setting('max_parallel_workers_per_gather') as workers`,
    sql`set_config('role', ${systemRole}, true)`,
    ...plannerSettings(plannerForBitmap),
  ];
  const { rows } = await tx.execute<{ workers: string }>(sql`select ${sql.join(enter, sql`, `)}`);
  const result = await fn(tx as unknown as SystemTx);
  const leave = [
    sql`set_config('role', ${appRole}, true)`,
    sql`set_config('app.account_id', ${accountId}, true)`,
    ...plannerSettings({ ...plannerDefaults, max_parallel_workers_per_gather: rows[0]?.workers ?? '2' }),
  ];
  await tx.execute(sql`select ${sql.join(leave, sql`, `)}`);
  return result;
}

export interface IndexedPageQuery {
  table: PgTable & SearchableTable;
  id: PgColumn;
  /**
   * The words searched: the clinic's search index narrows the rows to those holding all their
   * trigrams, then `searchCondition` checks the words exactly. findPageIds adds both.
   */
  q: string;
  /** The list's other filters (not deleted, active…); findPageIds adds the clinic and the words. */
  filter: SQL | undefined;
  orderBy: SQL[];
  page: number;
  pageSize: number;
  /**
   * Past this many matches the total is only "more than `countCap`" and, with
   * `orderedByCoveringIndex`, the page is read by walking that index instead of sorting every match.
   */
  countCap?: number;
  /** Whether a btree holds `orderBy` as its key and every filtered column (key or INCLUDE). */
  orderedByCoveringIndex?: boolean;
}

export interface IndexedPage {
  ids: string[];
  total: number;
  /** The total is a floor: there are more matches than it says. */
  totalIsLowerBound: boolean;
}

/**
 * One page of ids and the number of matches, looked up in the system context; the caller reads
 * the rows back under RLS.
 *
 * A search with few matches reads them all through the trigram index and sorts them (one pass,
 * which also counts them). One with thousands (three common letters) would spend its time
 * fetching rows nobody will page through, so with a `countCap` they are counted only up to the
 * cap and, where a covering index has the list's order, the first page comes from walking it.
 */
export async function findPageIds(tx: TenantTx, accountId: string, query: IndexedPageQuery): Promise<IndexedPage> {
  // Through the clinic's search keys, which already hold the clinic's rows only. The clinic is
  // still checked on every row, but as a filter (`is true` keeps it out of the index conditions):
  // the planner cannot know the keys imply it and would AND in the clinic's whole btree range.
  const words = searchCondition(query.table.searchText, query.q);
  const where = and(
    sql`(${query.table.accountId} = ${accountId}::uuid) is true`,
    clinicSearchKeysCondition(query.table, accountId, query.q),
    words,
    query.filter,
  );
  // Walking an index in the list's order: the clinic is the walk's range.
  const walked = and(eq(query.table.accountId, accountId), words, query.filter);
  return inSystemContext(tx, accountId, async (system) => {
    const offset = (query.page - 1) * query.pageSize;
    if (query.countCap !== undefined) {
      const matches = system
        .select({ one: sql`1`.as('one') })
        .from(query.table)
        .where(where)
        .limit(query.countCap + 1)
        .as('matches');
      const [capped] = await system.select({ n: count() }).from(matches);
      if ((capped?.n ?? 0) > query.countCap) {
        if (query.orderedByCoveringIndex) await setPlanner(system, plannerForOrderedWalk);
        // The walk checks the words on the clinic's index entries; the keys would be worked out per row.
        const rows = await system
          .select({ id: query.id })
          .from(query.table)
          .where(query.orderedByCoveringIndex ? walked : where)
          .orderBy(...query.orderBy)
          .limit(query.pageSize)
          .offset(offset);
        return { ids: rows.map((row) => String(row.id)), total: query.countCap, totalIsLowerBound: true };
      }
    }

    const rows = await system
      .select({ id: query.id, total: sql<number>`count(*) over ()`.mapWith(Number) })
      .from(query.table)
      .where(where)
      .orderBy(...query.orderBy)
      .limit(query.pageSize)
      .offset(offset);
    let total = rows[0]?.total;
    if (total === undefined) {
      const [counted] = await system.select({ n: count() }).from(query.table).where(where);
      total = counted?.n ?? 0;
    }
    return { ids: rows.map((row) => String(row.id)), total, totalIsLowerBound: false };
  });
}

/** Rows in the order of `ids` (the page order), dropping any that RLS did not return. */
export function inIdOrder<T extends { id: string }>(ids: string[], rows: T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
