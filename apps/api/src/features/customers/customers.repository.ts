import { and, asc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import { countRows, type TenantScope } from '../../db/list-query.ts';
import { recordRepository } from '../../db/records.ts';
import { commercialDocuments, customers, payments } from '../../db/schema/index.ts';

/**
 * The clinic's customers (issue 18; tenant context, the clinic first in every query as the
 * indexes have it). Writes and one record through `recordRepository`; the list with search as
 * you type, the tax-id look-up and "has documents" here.
 */

export type CustomerRow = typeof customers.$inferSelect;

export interface CustomerFilters {
  q?: string | undefined;
  sort?: string | undefined;
  kind?: 'patient' | 'company' | 'insurer' | undefined;
  active?: boolean | undefined;
}

const byName = sql`lower(${customers.name})`;
const sortColumns: Record<string, unknown> = {
  name: byName,
  taxId: customers.taxId,
  updatedAt: customers.updatedAt,
};

/** The sort column, then the name (customers_name_idx) and the id, so pages never overlap. */
function orderOf(sort: string | undefined): SQL[] {
  const descending = sort?.startsWith('-') ?? false;
  const key = sort?.replace(/^-/, '') ?? '';
  const column = Object.hasOwn(sortColumns, key) ? sortColumns[key] : byName;
  const order = [descending ? sql`${column} desc nulls last` : sql`${column} asc nulls last`];
  if (column !== byName) order.push(asc(byName));
  order.push(asc(customers.id));
  return order;
}

export const customersRepository = recordRepository({ table: customers, scope: [], order: orderOf(undefined) });

function filterOf(filters: CustomerFilters): SQL | undefined {
  return and(
    isNull(customers.deletedAt),
    filters.kind ? eq(customers.kind, filters.kind) : undefined,
    filters.active === undefined ? undefined : eq(customers.active, filters.active),
  );
}

/** One page and the number of matches; a search of three letters or more goes through the clinic's search index. */
export async function listCustomers(
  { tx, accountId }: TenantScope,
  query: CustomerFilters & { page: number; pageSize: number },
): Promise<{ rows: CustomerRow[]; total: number }> {
  if (usesTrigramIndex(query.q)) {
    const { ids, total } = await findPageIds(tx, accountId, {
      table: customers,
      id: customers.id,
      q: query.q ?? '',
      filter: filterOf(query),
      orderBy: orderOf(query.sort),
      page: query.page,
      pageSize: query.pageSize,
    });
    if (ids.length === 0) return { rows: [], total };
    const found = await tx
      .select()
      .from(customers)
      .where(and(eq(customers.accountId, accountId), isNull(customers.deletedAt), inArray(customers.id, ids)));
    return { rows: inIdOrder(ids, found), total };
  }
  const where = and(
    eq(customers.accountId, accountId),
    searchCondition(customers.searchText, query.q),
    filterOf(query),
  );
  const rows = await tx
    .select()
    .from(customers)
    .where(where)
    .orderBy(...orderOf(query.sort))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { rows, total: await countRows(tx, customers, where) };
}

/** A live company or insurer of the clinic (not `exceptId`) with this tax id, whatever its separators or case. */
export async function findByTaxId(
  { tx, accountId }: TenantScope,
  taxId: string,
  exceptId?: string,
): Promise<{ id: string; name: string } | undefined> {
  const [row] = await tx
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(
      and(
        eq(customers.accountId, accountId),
        isNull(customers.deletedAt),
        ne(customers.kind, 'patient'),
        sql`${customers.taxIdKey} = nullif(upper(regexp_replace(${taxId}::text, '[^0-9A-Za-z]', '', 'g')), '')`,
        exceptId ? ne(customers.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row;
}

/** Which of these customers a live document (not a deleted draft) or any collection names. */
export async function customersWithDocuments({ tx, accountId }: TenantScope, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(
      and(
        eq(customers.accountId, accountId),
        inArray(customers.id, ids),
        sql`(exists (select 1 from ${commercialDocuments} d where d.account_id = ${customers.accountId}
              and d.customer_id = ${customers.id} and d.deleted_at is null)
          or exists (select 1 from ${payments} p where p.account_id = ${customers.accountId}
              and p.customer_id = ${customers.id}))`,
      ),
    );
  return new Set(rows.map((row) => row.id));
}
