import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import { countRows, type TenantScope } from '../../db/list-query.ts';
import { commercialDocuments, type customers, payments, type providers } from '../../db/schema/index.ts';

/**
 * What the clinic's two kinds of commercial party share (providers, issue 17; customers, issue
 * 18): the list's order, the page with search as you type, the tax-id key and "has documents".
 * Their columns, filters and rules stay in providers/ and customers/.
 */

type PartyTable = typeof providers | typeof customers;

/** The sort column, then the name (the table's name index) and the id, so pages never overlap. */
export function partyOrder(
  sort: string | undefined,
  { byName, sortColumns, id }: { byName: SQL; sortColumns: Record<string, unknown>; id: PartyTable['id'] },
): SQL[] {
  const descending = sort?.startsWith('-') ?? false;
  const key = sort?.replace(/^-/, '') ?? '';
  const column = Object.hasOwn(sortColumns, key) ? sortColumns[key] : byName;
  const order = [descending ? sql`${column} desc nulls last` : sql`${column} asc nulls last`];
  if (column !== byName) order.push(asc(byName));
  order.push(asc(id));
  return order;
}

/** The live parties that match: the clinic, the words, `filter` (not deleted, active…). */
export const partyWhere = (table: PartyTable, accountId: string, q: string | undefined, filter: SQL | undefined) =>
  and(eq(table.accountId, accountId), searchCondition(table.searchText, q), filter);

export interface PartyPage {
  q?: string | undefined;
  /** The list's filters but the clinic and the words. */
  filter: SQL | undefined;
  orderBy: SQL[];
  page: number;
  pageSize: number;
}

/** One page and the number of matches; a search of three letters or more goes through the clinic's search index. */
export async function listParties<TTable extends PartyTable>(
  { tx, accountId }: TenantScope,
  table: TTable,
  { q, filter, orderBy, page, pageSize }: PartyPage,
): Promise<{ rows: TTable['$inferSelect'][]; total: number }> {
  const party = table as PartyTable;
  if (usesTrigramIndex(q)) {
    const { ids, total } = await findPageIds(tx, accountId, {
      table: party,
      id: party.id,
      q: q ?? '',
      filter,
      orderBy,
      page,
      pageSize,
    });
    if (ids.length === 0) return { rows: [], total };
    const found = await tx
      .select()
      .from(party)
      .where(and(eq(party.accountId, accountId), isNull(party.deletedAt), inArray(party.id, ids)));
    return { rows: inIdOrder(ids, found as TTable['$inferSelect'][]), total };
  }
  const where = partyWhere(party, accountId, q, filter);
  const rows = await tx
    .select()
    .from(party)
    .where(where)
    .orderBy(...orderBy)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { rows: rows as TTable['$inferSelect'][], total: await countRows(tx, party, where) };
}

/** A tax id as the tables' `tax_id_key` holds it: letters and digits only, upper case (none: null). */
export const taxIdKeyOf = (taxId: string) =>
  sql`nullif(upper(regexp_replace(${taxId}::text, '[^0-9A-Za-z]', '', 'g')), '')`;

/**
 * Which of these parties a live document (a deleted draft does not count) or any payment or
 * collection (never deleted) names: those are deactivated, never deleted. Two probes per party
 * through the documents' and payments' party indexes.
 */
export async function partiesWithDocuments(
  { tx, accountId }: TenantScope,
  table: PartyTable,
  partyColumn: 'provider_id' | 'customer_id',
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const column = sql.raw(partyColumn);
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(
      and(
        eq(table.accountId, accountId),
        inArray(table.id, ids),
        sql`(exists (select 1 from ${commercialDocuments} d where d.account_id = ${table.accountId}
              and d.${column} = ${table.id} and d.deleted_at is null)
          or exists (select 1 from ${payments} p where p.account_id = ${table.accountId}
              and p.${column} = ${table.id}))`,
      ),
    );
  return new Set(rows.map((row) => row.id));
}
