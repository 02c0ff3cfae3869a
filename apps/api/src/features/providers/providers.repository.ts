import { and, asc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import { countRows, type TenantScope } from '../../db/list-query.ts';
import { recordRepository } from '../../db/records.ts';
import { commercialDocuments, payments, providers } from '../../db/schema/index.ts';

/**
 * The clinic's providers (issue 17; tenant context, every query names the clinic first as the
 * indexes do). The writes and one record come from `recordRepository`; the list with search as
 * you type, the tax-id look-up and "has documents" are written here.
 */

export type ProviderRow = typeof providers.$inferSelect;

export interface ProviderFilters {
  q?: string | undefined;
  sort?: string | undefined;
  active?: boolean | undefined;
}

const byName = sql`lower(${providers.fantasyName})`;
const sortColumns: Record<string, SQL | typeof providers.nif | typeof providers.updatedAt> = {
  fantasyName: byName,
  nif: providers.nif,
  updatedAt: providers.updatedAt,
};

/** The list's order: the sort column, then the name (providers_name_idx) and the id, so pages never overlap. */
function orderOf(sort: string | undefined): SQL[] {
  const descending = sort?.startsWith('-') ?? false;
  const key = sort?.replace(/^-/, '') ?? '';
  const column = Object.hasOwn(sortColumns, key) ? (sortColumns[key] as SQL) : byName;
  const direction = (value: unknown) => (descending ? sql`${value} desc nulls last` : sql`${value} asc nulls last`);
  const order = [direction(column)];
  if (column !== byName) order.push(asc(byName));
  order.push(asc(providers.id));
  return order;
}

export const providersRepository = recordRepository({ table: providers, scope: [], order: orderOf(undefined) });

/** The list's filters but the clinic and the words: not deleted, active or not. */
function filterOf(filters: ProviderFilters): SQL | undefined {
  return and(
    isNull(providers.deletedAt),
    filters.active === undefined ? undefined : eq(providers.active, filters.active),
  );
}

function whereOf(accountId: string, filters: ProviderFilters): SQL | undefined {
  return and(eq(providers.accountId, accountId), searchCondition(providers.searchText, filters.q), filterOf(filters));
}

/** One page and the number of matches; a search of three letters or more goes through the clinic's search index. */
export async function listProviders(
  { tx, accountId }: TenantScope,
  query: ProviderFilters & { page: number; pageSize: number },
): Promise<{ rows: ProviderRow[]; total: number }> {
  if (usesTrigramIndex(query.q)) {
    const { ids, total } = await findPageIds(tx, accountId, {
      table: providers,
      id: providers.id,
      q: query.q ?? '',
      filter: filterOf(query),
      orderBy: orderOf(query.sort),
      page: query.page,
      pageSize: query.pageSize,
    });
    if (ids.length === 0) return { rows: [], total };
    const found = await tx
      .select()
      .from(providers)
      .where(and(eq(providers.accountId, accountId), isNull(providers.deletedAt), inArray(providers.id, ids)));
    return { rows: inIdOrder(ids, found), total };
  }
  const where = whereOf(accountId, query);
  const rows = await tx
    .select()
    .from(providers)
    .where(where)
    .orderBy(...orderOf(query.sort))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { rows, total: await countRows(tx, providers, where) };
}

/** Every match, in the list's order, for the CSV export. */
export async function exportProviders(
  { tx, accountId }: TenantScope,
  filters: ProviderFilters,
): Promise<ProviderRow[]> {
  return tx
    .select()
    .from(providers)
    .where(whereOf(accountId, filters))
    .orderBy(...orderOf(filters.sort));
}

/** A live provider of the clinic (not `exceptId`) with this tax id, whatever its separators or case. */
export async function findByTaxId(
  { tx, accountId }: TenantScope,
  nif: string,
  exceptId?: string,
): Promise<{ id: string; fantasyName: string } | undefined> {
  const [row] = await tx
    .select({ id: providers.id, fantasyName: providers.fantasyName })
    .from(providers)
    .where(
      and(
        eq(providers.accountId, accountId),
        isNull(providers.deletedAt),
        sql`${providers.taxIdKey} = nullif(upper(regexp_replace(${nif}::text, '[^0-9A-Za-z]', '', 'g')), '')`,
        exceptId ? ne(providers.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row;
}

/**
 * Which of these providers a live document (a deleted draft does not count) or any payment (never
 * deleted) names: those are deactivated, never deleted. Two probes per provider through commercial_documents_provider_idx and payments_provider_idx.
 */
export async function providersWithDocuments({ tx, accountId }: TenantScope, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: providers.id })
    .from(providers)
    .where(
      and(
        eq(providers.accountId, accountId),
        inArray(providers.id, ids),
        sql`(exists (select 1 from ${commercialDocuments} d where d.account_id = ${providers.accountId}
              and d.provider_id = ${providers.id} and d.deleted_at is null)
          or exists (select 1 from ${payments} p where p.account_id = ${providers.accountId}
              and p.provider_id = ${providers.id}))`,
      ),
    );
  return new Set(rows.map((row) => row.id));
}
