import type { PurchaseListQuery } from '@odontia/shared/schemas/commercial-documents';
import { and, asc, desc, eq, getTableColumns, gte, inArray, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import { countRows, sortedBy, type TenantScope } from '../../db/list-query.ts';
import {
  commercialDocuments,
  documentLines,
  inventoryItems,
  paymentAllocations,
  payments,
  providerItems,
  providers,
  users,
} from '../../db/schema/index.ts';

/**
 * The purchase side of the commercial documents (issue 17): the clinic's documents typed from
 * its providers' papers. Every query names the clinic (its indexes lead with it) and reads live
 * rows only; RLS checks the clinic again.
 */

export type DocumentRow = typeof commercialDocuments.$inferSelect;
export type DocumentInsert = typeof commercialDocuments.$inferInsert;
export type LineRow = typeof documentLines.$inferSelect;
export type LineInsert = typeof documentLines.$inferInsert;
export type ProviderRow = typeof providers.$inferSelect;

const live = (scope: TenantScope) =>
  and(
    eq(commercialDocuments.accountId, scope.accountId),
    eq(commercialDocuments.side, 'purchase'),
    isNull(commercialDocuments.deletedAt),
  );

/** A live provider of the clinic (the providers' own module is another helper's; read the table). */
export async function findProvider(scope: TenantScope, id: string): Promise<ProviderRow | undefined> {
  const [row] = await scope.tx
    .select()
    .from(providers)
    .where(and(eq(providers.accountId, scope.accountId), eq(providers.id, id), isNull(providers.deletedAt)));
  return row;
}

const sortColumns = {
  date: commercialDocuments.date,
  documentNumber: commercialDocuments.documentNumber,
  total: commercialDocuments.total,
  dueDate: commercialDocuments.dueDate,
} as const;

function orderOf(sort: string | undefined): SQL[] {
  const { column, descending } = sortedBy(sort ?? '-date', sortColumns, 'date');
  return [
    descending ? sql`${column} desc nulls last` : sql`${column} asc nulls last`,
    descending ? desc(commercialDocuments.id) : asc(commercialDocuments.id),
  ];
}

/** The list's filters but the clinic and the words. */
function filterOf(query: PurchaseListQuery): SQL | undefined {
  return and(
    eq(commercialDocuments.side, 'purchase'),
    isNull(commercialDocuments.deletedAt),
    query.providerId ? eq(commercialDocuments.providerId, query.providerId) : undefined,
    query.documentType ? eq(commercialDocuments.documentType, query.documentType) : undefined,
    query.status ? eq(commercialDocuments.status, query.status) : undefined,
    query.from ? gte(commercialDocuments.date, query.from) : undefined,
    query.to ? lte(commercialDocuments.date, query.to) : undefined,
  );
}

const listColumns = {
  ...getTableColumns(commercialDocuments),
  providerName: providers.fantasyName,
};
export type ListRow = DocumentRow & { providerName: string | null };

function listSelect(scope: TenantScope) {
  return scope.tx
    .select(listColumns)
    .from(commercialDocuments)
    .leftJoin(
      providers,
      and(eq(providers.accountId, commercialDocuments.accountId), eq(providers.id, commercialDocuments.providerId)),
    );
}

/** One page of the clinic's purchases and the number of matches. */
export async function listPurchases(
  scope: TenantScope,
  query: PurchaseListQuery,
): Promise<{ rows: ListRow[]; total: number; totalIsLowerBound: boolean }> {
  if (usesTrigramIndex(query.q)) {
    const { ids, total, totalIsLowerBound } = await findPageIds(scope.tx, scope.accountId, {
      table: commercialDocuments,
      id: commercialDocuments.id,
      q: query.q ?? '',
      filter: filterOf(query),
      orderBy: orderOf(query.sort),
      page: query.page,
      pageSize: query.pageSize,
      countCap: 1000,
    });
    if (ids.length === 0) return { rows: [], total, totalIsLowerBound };
    const found = await listSelect(scope).where(
      and(eq(commercialDocuments.accountId, scope.accountId), inArray(commercialDocuments.id, ids)),
    );
    return { rows: inIdOrder(ids, found), total, totalIsLowerBound };
  }
  const where = and(
    eq(commercialDocuments.accountId, scope.accountId),
    searchCondition(commercialDocuments.searchText, query.q),
    filterOf(query),
  );
  const rows = await listSelect(scope)
    .where(where)
    .orderBy(...orderOf(query.sort))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { rows, total: await countRows(scope.tx, commercialDocuments, where), totalIsLowerBound: false };
}

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');
const registrar = alias(users, 'registrar');

export type NamedDocumentRow = ListRow & {
  createdByName: string | null;
  updatedByName: string | null;
  registeredByName: string | null;
};

/** One live purchase of the clinic with the names of its provider and of who wrote it. */
export async function findPurchase(scope: TenantScope, id: string): Promise<NamedDocumentRow | undefined> {
  const [row] = await scope.tx
    .select({
      ...listColumns,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
      registeredByName: registrar.completeName,
    })
    .from(commercialDocuments)
    .leftJoin(
      providers,
      and(eq(providers.accountId, commercialDocuments.accountId), eq(providers.id, commercialDocuments.providerId)),
    )
    .leftJoin(
      creator,
      and(eq(creator.accountId, commercialDocuments.accountId), eq(creator.id, commercialDocuments.createdBy)),
    )
    .leftJoin(
      updater,
      and(eq(updater.accountId, commercialDocuments.accountId), eq(updater.id, commercialDocuments.updatedBy)),
    )
    .leftJoin(
      registrar,
      and(eq(registrar.accountId, commercialDocuments.accountId), eq(registrar.id, commercialDocuments.registeredBy)),
    )
    .where(and(live(scope), eq(commercialDocuments.id, id)));
  return row;
}

/** The live purchase, locked for the rest of the transaction. */
export async function lockPurchase(scope: TenantScope, id: string): Promise<DocumentRow | undefined> {
  const [row] = await scope.tx
    .select()
    .from(commercialDocuments)
    .where(and(live(scope), eq(commercialDocuments.id, id)))
    .for('update');
  return row;
}

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

/** A registered invoice of the clinic that bills this delivery note (other than `exceptId`). */
export async function findInvoiceOf(
  scope: TenantScope,
  deliveryNoteId: string,
  exceptId: string,
): Promise<DocumentRow | undefined> {
  const [row] = await scope.tx
    .select()
    .from(commercialDocuments)
    .where(
      and(
        live(scope),
        eq(commercialDocuments.relatedDocumentId, deliveryNoteId),
        eq(commercialDocuments.documentType, 'invoice'),
        eq(commercialDocuments.status, 'registered'),
        ne(commercialDocuments.id, exceptId),
      ),
    )
    .limit(1);
  return row;
}

export async function insertDocument(scope: TenantScope, row: DocumentInsert): Promise<void> {
  await scope.tx.insert(commercialDocuments).values(row);
}

export async function updateDocument(scope: TenantScope, id: string, set: Partial<DocumentInsert>): Promise<void> {
  await scope.tx
    .update(commercialDocuments)
    .set(set)
    .where(and(eq(commercialDocuments.accountId, scope.accountId), eq(commercialDocuments.id, id)));
}

export async function insertLines(scope: TenantScope, rows: LineInsert[]): Promise<void> {
  if (rows.length > 0) await scope.tx.insert(documentLines).values(rows);
}

/** A draft's lines go away when it is saved again (the database refuses it once registered). */
export async function deleteLines(scope: TenantScope, documentId: string): Promise<void> {
  await scope.tx
    .delete(documentLines)
    .where(and(eq(documentLines.accountId, scope.accountId), eq(documentLines.documentId, documentId)));
}

export type NamedLineRow = LineRow & { itemName: string | null; itemKind: 'medication' | 'supply' | null };

export async function linesOf(scope: TenantScope, documentId: string): Promise<NamedLineRow[]> {
  return scope.tx
    .select({
      ...getTableColumns(documentLines),
      itemName: inventoryItems.name,
      itemKind: inventoryItems.kind,
    })
    .from(documentLines)
    .leftJoin(
      inventoryItems,
      and(eq(inventoryItems.accountId, documentLines.accountId), eq(inventoryItems.id, documentLines.itemId)),
    )
    .where(and(eq(documentLines.accountId, scope.accountId), eq(documentLines.documentId, documentId)))
    .orderBy(asc(documentLines.position));
}

/** Which of these catalogue items the clinic has. */
export async function existingItems(scope: TenantScope, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await scope.tx
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.accountId, scope.accountId), inArray(inventoryItems.id, ids)));
  return new Set(rows.map((row) => row.id));
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
    .for('update');
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
    .innerJoin(
      inventoryItems,
      and(eq(inventoryItems.accountId, providerItems.accountId), eq(inventoryItems.id, providerItems.itemId)),
    )
    .where(
      and(
        eq(providerItems.accountId, scope.accountId),
        eq(providerItems.providerId, providerId),
        eq(providerItems.skuKey, sku.trim().toLowerCase()),
      ),
    );
  return row;
}

const refColumns = {
  id: commercialDocuments.id,
  documentType: commercialDocuments.documentType,
  pointOfService: commercialDocuments.pointOfService,
  documentNumber: commercialDocuments.documentNumber,
  date: commercialDocuments.date,
  total: commercialDocuments.total,
};

export async function documentRefs(scope: TenantScope, ids: string[]) {
  if (ids.length === 0) return [];
  return scope.tx
    .select(refColumns)
    .from(commercialDocuments)
    .where(and(eq(commercialDocuments.accountId, scope.accountId), inArray(commercialDocuments.id, ids)));
}

/** The live documents that name this one as their related document. */
export async function relatedFrom(scope: TenantScope, id: string) {
  return scope.tx
    .select(refColumns)
    .from(commercialDocuments)
    .where(and(live(scope), eq(commercialDocuments.relatedDocumentId, id)))
    .orderBy(asc(commercialDocuments.date), asc(commercialDocuments.id));
}

/** The payments and credit notes applied to this document. */
export async function allocationsOf(scope: TenantScope, documentId: string) {
  const credit = alias(commercialDocuments, 'credit');
  return scope.tx
    .select({
      id: paymentAllocations.id,
      paymentId: paymentAllocations.paymentId,
      paymentNumber: payments.number,
      creditDocumentId: paymentAllocations.creditDocumentId,
      paymentDate: payments.date,
      creditDate: credit.date,
      amount: paymentAllocations.amount,
      reversedAt: paymentAllocations.reversedAt,
      createdAt: paymentAllocations.createdAt,
    })
    .from(paymentAllocations)
    .leftJoin(
      payments,
      and(eq(payments.accountId, paymentAllocations.accountId), eq(payments.id, paymentAllocations.paymentId)),
    )
    .leftJoin(
      credit,
      and(eq(credit.accountId, paymentAllocations.accountId), eq(credit.id, paymentAllocations.creditDocumentId)),
    )
    .where(and(eq(paymentAllocations.accountId, scope.accountId), eq(paymentAllocations.documentId, documentId)))
    .orderBy(asc(paymentAllocations.createdAt), asc(paymentAllocations.id));
}
