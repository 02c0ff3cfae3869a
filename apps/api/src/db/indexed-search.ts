import { and, count as count_, eq, type SQL, sql } from 'drizzle-orm';
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

type Handle = TenantTx | SystemTx;

/** Whether the handle's connection pipelines (node-postgres in pipeline mode, db/client.ts). */
function pipelines(handle: Handle): boolean {
  const { client } = handle._.session as unknown as { client?: { pipeline?: unknown } };
  return client?.pipeline === true;
}

/**
 * Runs the steps in order. Each step must send its statement when called (`.execute()`, not a
 * lazy builder). On a pipelining connection they are all sent at once and come back in one round
 * trip; elsewhere (PGlite) each waits for the one before.
 */
export async function sendInOrder<T extends readonly unknown[]>(
  handle: Handle,
  steps: { [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (pipelines(handle)) return (await Promise.all(steps.map((step) => step()))) as unknown as T;
  const answers: unknown[] = [];
  for (const step of steps) answers.push(await step());
  return answers as unknown as T;
}

/**
 * Into the system context within the clinic's transaction, with the planner settings of the
 * search; the server's parallel setting is kept in `app.parallel_workers` first (the select list
 * runs in order) so that `leaveSystem` restores it without a round trip of its own.
 */
const enterSystem = (planner: Record<string, string>) =>
  sql`select ${sql.join(
    [
      sql`set_config('app.parallel_workers', current_setting('max_parallel_workers_per_gather'), true)`,
      sql`set_config('role', ${systemRole}, true)`,
      ...plannerSettings(planner),
    ],
    sql`, `,
  )}`;

const leaveSystem = (accountId: string) =>
  sql`select ${sql.join(
    [
      sql`set_config('role', ${appRole}, true)`,
      sql`set_config('app.account_id', ${accountId}, true)`,
      ...plannerSettings(plannerDefaults),
      sql`set_config('max_parallel_workers_per_gather', current_setting('app.parallel_workers'), true)`,
    ],
    sql`, `,
  )}`;

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
  await tx.execute(enterSystem(plannerForBitmap));
  const result = await fn(tx as unknown as SystemTx);
  await tx.execute(leaveSystem(accountId));
  return result;
}

/**
 * The ids of the page the transaction's last search found, as `uuid[]`: a statement sent after
 * the search in the same round trip reads its rows back with `id = any(${pageIds})`, under RLS.
 * Read in a subquery (one value for the statement): under RLS only a leakproof condition reaches
 * the index, and the text's cast to uuid[] is not one; `id = any(<that value>)` is.
 */
export const pageIds = sql`(select coalesce(nullif(current_setting('app.page_ids', true), ''), '{}')::uuid[])::uuid[]`;

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

/** The ids of a page's rows `alias`, in their order; none gives NULL. */
const pageIdsOf = (alias: string) => sql.raw(`array_agg(${alias}.id) filter (where ${alias}.id is not null)`);

const noRows = async <TRow>(): Promise<TRow[]> => [];

type PageAnswer = {
  ids: string[] | null;
  total: number | string | null;
};

/**
 * One page of ids and the number of matches, looked up in the system context; the caller reads
 * the rows back under RLS (`findPage` does it in the same round trip).
 */
export async function findPageIds(tx: TenantTx, accountId: string, query: IndexedPageQuery): Promise<IndexedPage> {
  const { rows: _rows, ...page } = await findPage(tx, accountId, query, null);
  return page;
}

/**
 * One page of a search and the number of matches, in one round trip to the database: into the
 * system context, the search, back into the clinic's context and `readRows` (the page's rows read
 * back under RLS by `pageIds`), sent together on a pipelining connection. The search is one
 * statement: the matches counted up to the cap and, when there are no more than that, the page
 * sorted from them (one pass, which also counts them); it keeps the page's ids in the
 * transaction-local `app.page_ids`.
 *
 * A search with thousands of matches (three common letters) would spend its time fetching rows
 * nobody will page through, so past the cap the count stops there and, where a covering index has
 * the list's order, the page comes from walking it: a second round trip, for such searches only.
 */
export async function findPage<TRow>(
  tx: TenantTx,
  accountId: string,
  query: IndexedPageQuery,
  readRows: (() => Promise<TRow[]>) | null,
): Promise<IndexedPage & { rows: TRow[] }> {
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
  const offset = (query.page - 1) * query.pageSize;
  const system = tx as unknown as SystemTx;
  const cap = query.countCap;
  // One pass of the index: the matches (no more than the cap and one), counted and sorted there,
  // the page cut from them. The subquery goes by the table's name, so the list's order (written
  // on the table's columns) sorts its rows.
  const matches = sql`(select * from ${query.table} where ${where}${cap === undefined ? sql`` : sql` limit ${cap + 1}`}) as ${query.table}`;
  const sorted = sql`select ${query.id} as id, count(*) over () as total from ${matches}
    order by ${sql.join(query.orderBy, sql`, `)} limit ${query.pageSize} offset ${offset}`;
  // The page's ids in the page's order (the sorted subquery feeds the aggregate in its order).
  const search = sql`select set_config('app.page_ids', coalesce(${pageIdsOf('p')}::text, '{}'), true) as keep,
      ${pageIdsOf('p')} as ids, max(p.total) as total from (${sorted}) p`;
  const [, searched, , rows] = await sendInOrder<[unknown, { rows: PageAnswer[] }, unknown, TRow[]]>(tx, [
    () => tx.execute(enterSystem(plannerForBitmap)).execute(),
    () => system.execute<PageAnswer>(search).execute(),
    () => tx.execute(leaveSystem(accountId)).execute(),
    readRows ?? noRows<TRow>,
  ]);
  const answer = searched.rows[0];
  const ids = (answer?.ids ?? []).map(String);
  let total = Number(answer?.total ?? 0);
  if (ids.length === 0 && offset > 0) {
    // A page past the last match: the window saw no row; count them (up to the cap) on their own.
    const limited = system
      .select({ one: sql`1`.as('one') })
      .from(query.table)
      .where(where)
      .limit(cap === undefined ? Number.MAX_SAFE_INTEGER : cap + 1)
      .as('m');
    const [counted] = await system.select({ n: count_() }).from(limited);
    total = counted?.n ?? 0;
  }
  if (cap === undefined || total <= cap) return { ids, total, totalIsLowerBound: false, rows };
  if (ids.length === 0 && offset > 0) return { ids, total: cap, totalIsLowerBound: true, rows };

  // More than the cap: walk the covering index in the list's order, checking the words on the
  // clinic's index entries (the keys would be worked out per row), the clinic as the walk's range.
  const walked = and(eq(query.table.accountId, accountId), words, query.filter);
  const walk = system
    .select({ id: sql`${query.id}`.as('id') })
    .from(query.table)
    .where(query.orderedByCoveringIndex ? walked : where)
    .orderBy(...query.orderBy)
    .limit(query.pageSize)
    .offset(offset);
  const walkSearch = sql`select set_config('app.page_ids', coalesce(${pageIdsOf('p')}::text, '{}'), true) as keep,
      ${pageIdsOf('p')} as ids from (${walk}) p`;
  const planner = query.orderedByCoveringIndex ? { ...plannerForBitmap, ...plannerForOrderedWalk } : plannerForBitmap;
  const [, walkedPage, , walkedRows] = await sendInOrder<[unknown, { rows: PageAnswer[] }, unknown, TRow[]]>(tx, [
    () => tx.execute(enterSystem(planner)).execute(),
    () => system.execute<PageAnswer>(walkSearch).execute(),
    () => tx.execute(leaveSystem(accountId)).execute(),
    readRows ?? noRows<TRow>,
  ]);
  const walkedIds = (walkedPage.rows[0]?.ids ?? []).map(String);
  return { ids: walkedIds, total: cap, totalIsLowerBound: true, rows: walkedRows };
}

/** Rows in the order of `ids` (the page order), dropping any that RLS did not return. */
export function inIdOrder<T extends { id: string }>(ids: string[], rows: T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
