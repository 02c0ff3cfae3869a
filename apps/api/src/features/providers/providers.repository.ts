import { and, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { TenantScope } from '../../db/list-query.ts';
import { recordRepository } from '../../db/records.ts';
import { providers } from '../../db/schema/index.ts';
import { keptKey } from '../../db/spanish-order.ts';
import {
  listParties,
  partiesWithDocuments,
  partyOrder,
  partyWhere,
  taxIdKeyOf,
} from '../commercial/parties.repository.ts';

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

/** Names in Spanish order (db/spanish-order.ts, providers_name_idx). */
const byName = keptKey(providers.nameKey);
const sortColumns: Record<string, SQL | typeof providers.nif | typeof providers.updatedAt> = {
  fantasyName: byName,
  nif: providers.nif,
  updatedAt: providers.updatedAt,
};

/** The list's order: the sort column, then the name (providers_name_idx) and the id, so pages never overlap. */
const orderOf = (sort: string | undefined) => partyOrder(sort, { byName, sortColumns, id: providers.id });

export const providersRepository = recordRepository({ table: providers, scope: [], order: orderOf(undefined) });

/** The list's filters but the clinic and the words: not deleted, active or not. */
function filterOf(filters: ProviderFilters): SQL | undefined {
  return and(
    isNull(providers.deletedAt),
    filters.active === undefined ? undefined : eq(providers.active, filters.active),
  );
}

const whereOf = (accountId: string, filters: ProviderFilters) =>
  partyWhere(providers, accountId, filters.q, filterOf(filters));

/** One page and the number of matches; a search of three letters or more goes through the clinic's search index. */
export const listProviders = (
  scope: TenantScope,
  query: ProviderFilters & { page: number; pageSize: number },
): Promise<{ rows: ProviderRow[]; total: number }> =>
  listParties(scope, providers, { ...query, filter: filterOf(query), orderBy: orderOf(query.sort) });

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
        sql`${providers.taxIdKey} = ${taxIdKeyOf(nif)}`,
        exceptId ? ne(providers.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row;
}

/** Which of these providers a live document or any payment names: those are deactivated, never deleted. */
export const providersWithDocuments = (scope: TenantScope, ids: string[]) =>
  partiesWithDocuments(scope, providers, 'provider_id', ids);
