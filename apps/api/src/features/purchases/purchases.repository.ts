import type { PurchaseListQuery } from '@odontia/shared/schemas/commercial-documents';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { TenantScope } from '../../db/list-query.ts';
import { sameClinicRow } from '../../db/records.ts';
import {
  commercialDocuments,
  inventoryItems,
  providerItems,
  providers,
  purchaseOrderSends,
  users,
} from '../../db/schema/index.ts';
import type { PartyJoin } from '../commercial/party-join.ts';
import * as shared from '../commercial/side-documents.repository.ts';
import { type DocumentRow, liveDocuments } from '../commercial/side-documents.repository.ts';

/**
 * The purchase side of the commercial documents (issue 17): the clinic's documents typed from
 * its providers' papers. Every query names the clinic (its indexes lead with it) and reads live
 * rows only; RLS checks the clinic again. The list, the find, the lock, the lines and the
 * references are the sales' too (features/commercial/side-documents.repository.ts).
 */

export type ProviderRow = typeof providers.$inferSelect;

const live = (scope: TenantScope) => liveDocuments(scope, 'purchase');

/** A live provider of the clinic (the providers' own module is another helper's; read the table). */
export async function findProvider(scope: TenantScope, id: string): Promise<ProviderRow | undefined> {
  const [row] = await scope.tx
    .select()
    .from(providers)
    .where(and(eq(providers.accountId, scope.accountId), eq(providers.id, id), isNull(providers.deletedAt)));
  return row;
}

/** A purchase's provider, for its name. */
const providerJoin: PartyJoin<{ providerName: string | null }> = {
  table: providers,
  on: sameClinicRow(providers, commercialDocuments, commercialDocuments.providerId),
  fields: { providerName: providers.fantasyName },
};
export type ListRow = DocumentRow & { providerName: string | null };
export type NamedDocumentRow = shared.NamedDocumentRow<{ providerName: string | null }>;

/** One page of the clinic's purchases and the number of matches. */
export function listPurchases(scope: TenantScope, query: PurchaseListQuery) {
  return shared.listDocuments(scope, 'purchase', {
    query,
    dates: { from: query.from, to: query.to },
    filters: [query.providerId ? eq(commercialDocuments.providerId, query.providerId) : undefined],
    party: providerJoin,
  });
}

/** One live purchase of the clinic with the names of its provider and of who wrote it. */
export const findPurchase = (scope: TenantScope, id: string) =>
  shared.findDocument(scope, 'purchase', providerJoin, id);

/** The live purchase, locked for the rest of the transaction. */
export const lockPurchase = (scope: TenantScope, id: string) => shared.lockDocument(scope, 'purchase', id);

/** The live purchase with this provider, type, point of sale and number (the one a 409 names). */
export async function findByNumber(
  scope: TenantScope,
  key: { providerId: string; documentType: string; pointOfService: string; documentNumber: string },
  exceptId?: string,
): Promise<DocumentRow | undefined> {
  const [row] = await scope.tx
    .select()
    .from(commercialDocuments)
    .where(
      and(
        live(scope),
        eq(commercialDocuments.providerId, key.providerId),
        eq(commercialDocuments.documentType, key.documentType),
        eq(commercialDocuments.pointOfService, key.pointOfService),
        eq(commercialDocuments.documentNumber, key.documentNumber),
        exceptId ? ne(commercialDocuments.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row;
}

/** The items' stock and costs, locked (id order) before a stock-in moves them. */
export async function lockItemCosts(
  scope: TenantScope,
  ids: string[],
): Promise<{ id: string; totalStock: number; averageCost: string | null }[]> {
  if (ids.length === 0) return [];
  return scope.tx
    .select({ id: inventoryItems.id, totalStock: inventoryItems.totalStock, averageCost: inventoryItems.averageCost })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.accountId, scope.accountId), inArray(inventoryItems.id, [...ids].sort())))
    .orderBy(asc(inventoryItems.id))
    .for('no key update');
}

/** Sets an item's last and average cost (not its version: like stock, not a catalogue edit). */
/** Sets the last and average cost of several items in one statement. */
export async function setItemCosts(
  scope: TenantScope,
  costs: { id: string; lastCost: string; averageCost: string }[],
): Promise<void> {
  if (costs.length === 0) return;
  const values = sql.join(
    costs.map((cost) => sql`(${cost.id}::uuid, ${cost.lastCost}::numeric, ${cost.averageCost}::numeric)`),
    sql`, `,
  );
  await scope.tx.execute(sql`
    update inventory_items as i set last_cost = v.last_cost, average_cost = v.average_cost
    from (values ${values}) as v(id, last_cost, average_cost)
    where i.account_id = ${scope.accountId}::uuid and i.id = v.id`);
}

/** Remembers each provider SKU → item pairing with its last unit cost. */
export async function rememberSkus(
  scope: TenantScope,
  providerId: string,
  pairs: { sku: string; itemId: string; unitCost: string }[],
): Promise<void> {
  const byKey = new Map(pairs.map((pair) => [pair.sku.trim().toLowerCase(), pair]));
  if (byKey.size === 0) return;
  await scope.tx
    .insert(providerItems)
    .values(
      [...byKey.entries()].map(([skuKey, pair]) => ({
        accountId: scope.accountId,
        providerId,
        skuKey,
        sku: pair.sku.trim(),
        itemId: pair.itemId,
        lastUnitCost: pair.unitCost,
      })),
    )
    .onConflictDoUpdate({
      target: [providerItems.accountId, providerItems.providerId, providerItems.skuKey],
      set: {
        sku: sql`excluded.sku`,
        itemId: sql`excluded.item_id`,
        lastUnitCost: sql`excluded.last_unit_cost`,
        lastSeenAt: sql`now()`,
      },
    });
}

export async function findSku(scope: TenantScope, providerId: string, sku: string) {
  const [row] = await scope.tx
    .select({
      itemId: providerItems.itemId,
      itemName: inventoryItems.name,
      itemKind: inventoryItems.kind,
      lastUnitCost: providerItems.lastUnitCost,
    })
    .from(providerItems)
    .innerJoin(inventoryItems, sameClinicRow(inventoryItems, providerItems, providerItems.itemId))
    .where(
      and(
        eq(providerItems.accountId, scope.accountId),
        eq(providerItems.providerId, providerId),
        eq(providerItems.skuKey, sku.trim().toLowerCase()),
      ),
    );
  return row;
}

/** The live purchases that name this one as their related document. */
export const relatedFrom = (scope: TenantScope, id: string) => shared.relatedFrom(scope, 'purchase', id);

/**
 * What registered receipts (delivery notes, invoices) received of each of these order lines,
 * leaving out `exceptDocumentId` (the receipt being checked); lines never received are absent.
 */
export async function receivedOf(
  scope: TenantScope,
  sourceLineIds: string[],
  exceptDocumentId: string | null,
): Promise<Map<string, string>> {
  if (sourceLineIds.length === 0) return new Map();
  const { rows } = await scope.tx.execute<{ source_line_id: string; received: string }>(sql`
    select l.source_line_id, sum(l.quantity)::text as received
    from document_lines l
    join commercial_documents d on d.account_id = l.account_id and d.id = l.document_id
    where l.account_id = ${scope.accountId}::uuid
      and l.source_line_id in (${sql.join(
        sourceLineIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      and d.side = 'purchase' and d.status = 'registered' and d.deleted_at is null
      and d.id is distinct from ${exceptDocumentId}::uuid
    group by l.source_line_id`);
  return new Map(rows.map((row) => [row.source_line_id, row.received]));
}

/** The live delivery notes and invoices that receive lines of this order, oldest first. */
export async function receiptsOf(scope: TenantScope, orderId: string) {
  const { rows } = await scope.tx.execute<{
    id: string;
    document_type: string;
    point_of_service: string | null;
    document_number: string | null;
    date: string;
    total: string;
    status: 'draft' | 'registered' | 'issued';
  }>(sql`
    select d.id, d.document_type, d.point_of_service, d.document_number, d.date::text as date, d.total::text as total, d.status
    from commercial_documents d
    where d.account_id = ${scope.accountId}::uuid and d.side = 'purchase' and d.deleted_at is null
      and exists (
        select 1 from document_lines l join document_lines o on o.account_id = l.account_id and o.id = l.source_line_id
        where l.account_id = d.account_id and l.document_id = d.id and o.document_id = ${orderId}::uuid
      )
    order by d.date, d.created_at, d.id`);
  return rows;
}

/** Records one e-mail of an order to its provider. */
export async function insertSend(
  scope: TenantScope & { userId: string },
  row: { id: string; documentId: string; sentTo: string; sentAt: Date },
): Promise<void> {
  await scope.tx.insert(purchaseOrderSends).values({ accountId: scope.accountId, sentBy: scope.userId, ...row });
}

/** The order's e-mails to its provider, oldest first, with who sent each. */
export async function sendsOf(scope: TenantScope, documentId: string) {
  return scope.tx
    .select({ sentAt: purchaseOrderSends.sentAt, to: purchaseOrderSends.sentTo, sentByName: users.completeName })
    .from(purchaseOrderSends)
    .leftJoin(users, sameClinicRow(users, purchaseOrderSends, purchaseOrderSends.sentBy))
    .where(and(eq(purchaseOrderSends.accountId, scope.accountId), eq(purchaseOrderSends.documentId, documentId)))
    .orderBy(asc(purchaseOrderSends.sentAt), asc(purchaseOrderSends.id));
}
