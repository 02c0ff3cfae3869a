import type { SaleListQuery } from '@odontia/shared/schemas/sales';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { searchCondition } from '../../db/indexed-search.ts';
import type { TenantScope } from '../../db/list-query.ts';
import { sameClinicRow } from '../../db/records.ts';
import {
  commercialDocuments,
  customers,
  einvoiceSubmissions,
  inventoryItems,
  treatments,
} from '../../db/schema/index.ts';
import type { PartyJoin } from '../commercial/party-join.ts';
import * as shared from '../commercial/side-documents.repository.ts';
import { type DocumentRow, liveDocuments } from '../commercial/side-documents.repository.ts';

/**
 * The sale side of the commercial documents (issue 18): what the clinic bills its customers.
 * Every query names the clinic (its indexes lead with it) and reads live rows; RLS checks again.
 * The list, the find, the lock, the lines and the references are the purchases' too
 * (features/commercial/side-documents.repository.ts).
 */

import { spanishKey } from '../../db/spanish-order.ts';

const _live = (scope: TenantScope) => liveDocuments(scope, 'sale');

/** A sale's customer, for its name. */
const customerJoin: PartyJoin<{ customerName: string | null }> = {
  table: customers,
  on: sameClinicRow(customers, commercialDocuments, commercialDocuments.customerId),
  fields: { customerName: customers.name },
};
export type ListRow = DocumentRow & { customerName: string | null };
export type NamedDocumentRow = shared.NamedDocumentRow<{ customerName: string | null }>;

/** One page of the clinic's sales and the number of matches. */
export function listSales(scope: TenantScope, query: SaleListQuery) {
  return shared.listDocuments(scope, 'sale', {
    query,
    dates: { from: query.dateFrom, to: query.dateTo },
    filters: [
      query.customerId ? eq(commercialDocuments.customerId, query.customerId) : undefined,
      query.patientId ? eq(commercialDocuments.patientId, query.patientId) : undefined,
    ],
    party: customerJoin,
  });
}

/** One live sale of the clinic with the names of its customer and of who wrote it. */
export const findSale = (scope: TenantScope, id: string) => shared.findDocument(scope, 'sale', customerJoin, id);

/** The live sale, locked for the rest of the transaction. */
export const lockSale = (scope: TenantScope, id: string) => shared.lockDocument(scope, 'sale', id);

/** Which of these price-list treatments the clinic has (live). */
export async function existingTreatments(scope: TenantScope, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await scope.tx
    .select({ id: treatments.id })
    .from(treatments)
    .where(and(eq(treatments.accountId, scope.accountId), inArray(treatments.id, ids), isNull(treatments.deletedAt)));
  return new Set(rows.map((row) => row.id));
}

/** The live sales that name this one as their related document. */
export const relatedFrom = (scope: TenantScope, id: string) => shared.relatedFrom(scope, 'sale', id);

export async function einvoiceOf(scope: TenantScope, documentId: string) {
  const [row] = await scope.tx
    .select()
    .from(einvoiceSubmissions)
    .where(and(eq(einvoiceSubmissions.accountId, scope.accountId), eq(einvoiceSubmissions.documentId, documentId)));
  return row;
}

/** The price list's treatments and the catalogue's items matching the words (20 at most). */
export async function billables(scope: TenantScope, q: string) {
  const treatmentRows = await scope.tx
    .select({
      id: treatments.id,
      code: treatments.code,
      name: treatments.name,
      group: treatments.groupName,
      unitPrice: treatments.price,
      vatRate: treatments.vatRate,
    })
    .from(treatments)
    .where(
      and(
        eq(treatments.accountId, scope.accountId),
        isNull(treatments.deletedAt),
        eq(treatments.active, true),
        searchCondition(treatments.searchText, q || undefined),
      ),
    )
    .orderBy(asc(spanishKey(treatments.name)), asc(treatments.id))
    .limit(20);
  const itemRows = await scope.tx
    .select({
      id: inventoryItems.id,
      kind: inventoryItems.kind,
      code: inventoryItems.sku,
      name: inventoryItems.name,
      unitPrice: inventoryItems.basePrice,
      vatRate: inventoryItems.taxRate,
      stock: inventoryItems.totalStock,
    })
    .from(inventoryItems)
    .where(
      and(eq(inventoryItems.accountId, scope.accountId), searchCondition(inventoryItems.searchText, q || undefined)),
    )
    .orderBy(asc(spanishKey(inventoryItems.name)), asc(inventoryItems.id))
    .limit(20);
  return { treatmentRows, itemRows };
}
