import { type AnyColumn, count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { TenantTx } from './tenancy.ts';

/**
 * What the hand-written lists (patients, inventory, users, stock) repeat: the `sort` of a list
 * query over an allow-list of columns, and the number of rows that match.
 */

/** The transaction and the clinic: what a hand-written repository function receives (a request context has both). */
export interface TenantScope {
  readonly tx: TenantTx;
  readonly accountId: string;
}

/**
 * The column (or key: a name's Spanish order) a list's `sort` names ('name' ascending, '-name' descending) if the allow-list
 * has it, else the list's default column.
 */
export function sortedBy<TColumns extends Record<string, AnyColumn | SQL>>(
  sort: string | undefined,
  columns: TColumns,
  fallback: keyof TColumns,
): { column: AnyColumn | SQL; descending: boolean } {
  const descending = sort?.startsWith('-') ?? false;
  const key = sort?.replace(/^-/, '') ?? '';
  const column = Object.hasOwn(columns, key) ? columns[key] : columns[fallback];
  return { column: column as AnyColumn | SQL, descending };
}

/** How many rows of `table` match `where` (a list's total). */
export async function countRows(tx: TenantTx, table: PgTable, where: SQL | undefined): Promise<number> {
  const [total] = await tx.select({ n: count() }).from(table).where(where);
  return total?.n ?? 0;
}
