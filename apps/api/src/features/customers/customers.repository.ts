import { and, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { TenantScope } from '../../db/list-query.ts';
import { recordRepository } from '../../db/records.ts';
import { customers } from '../../db/schema/index.ts';
import { keptKey } from '../../db/spanish-order.ts';
import { listParties, partiesWithDocuments, partyOrder, taxIdKeyOf } from '../commercial/parties.repository.ts';

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

/** Names in Spanish order (db/spanish-order.ts, customers_name_idx). */
const byName = keptKey(customers.nameKey);
const sortColumns: Record<string, unknown> = {
  name: byName,
  taxId: customers.taxId,
  updatedAt: customers.updatedAt,
};

const orderOf = (sort: string | undefined) => partyOrder(sort, { byName, sortColumns, id: customers.id });

export const customersRepository = recordRepository({ table: customers, scope: [], order: orderOf(undefined) });

function filterOf(filters: CustomerFilters): SQL | undefined {
  return and(
    isNull(customers.deletedAt),
    filters.kind ? eq(customers.kind, filters.kind) : undefined,
    filters.active === undefined ? undefined : eq(customers.active, filters.active),
  );
}

/** One page and the number of matches; a search of three letters or more goes through the clinic's search index. */
export const listCustomers = (
  scope: TenantScope,
  query: CustomerFilters & { page: number; pageSize: number },
): Promise<{ rows: CustomerRow[]; total: number }> =>
  listParties(scope, customers, { ...query, filter: filterOf(query), orderBy: orderOf(query.sort) });

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
        sql`${customers.taxIdKey} = ${taxIdKeyOf(taxId)}`,
        exceptId ? ne(customers.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row;
}

/** Which of these customers a live document (not a deleted draft) or any collection names. */
export const customersWithDocuments = (scope: TenantScope, ids: string[]) =>
  partiesWithDocuments(scope, customers, 'customer_id', ids);
