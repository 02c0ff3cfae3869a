import type { SaleListQuery } from '@odontia/shared/schemas/sales';
import { and, asc, desc, eq, getTableColumns, gte, inArray, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import { countRows, sortedBy, type TenantScope } from '../../db/list-query.ts';
import {
  commercialDocuments,
  customers,
  documentLines,
  einvoiceSubmissions,
  inventoryItems,
  pointsOfSale,
  treatments,
  users,
} from '../../db/schema/index.ts';

/**
 * The sale side of the commercial documents (issue 18): what the clinic bills its customers.
 * Every query names the clinic (its indexes lead with it) and reads live rows; RLS checks again.
 */

export type DocumentRow = typeof commercialDocuments.$inferSelect;
export type DocumentInsert = typeof commercialDocuments.$inferInsert;
export type LineRow = typeof documentLines.$inferSelect;
export type LineInsert = typeof documentLines.$inferInsert;

const live = (scope: TenantScope) =>
  and(
    eq(commercialDocuments.accountId, scope.accountId),
    eq(commercialDocuments.side, 'sale'),
    isNull(commercialDocuments.deletedAt),
  );

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

function filterOf(query: SaleListQuery): SQL | undefined {
  return and(
    eq(commercialDocuments.side, 'sale'),
    isNull(commercialDocuments.deletedAt),
    query.customerId ? eq(commercialDocuments.customerId, query.customerId) : undefined,
    query.patientId ? eq(commercialDocuments.patientId, query.patientId) : undefined,
    query.documentType ? eq(commercialDocuments.documentType, query.documentType) : undefined,
    query.status ? eq(commercialDocuments.status, query.status) : undefined,
    query.dateFrom ? gte(commercialDocuments.date, query.dateFrom) : undefined,
    query.dateTo ? lte(commercialDocuments.date, query.dateTo) : undefined,
  );
}

const listColumns = { ...getTableColumns(commercialDocuments), customerName: customers.name };
export type ListRow = DocumentRow & { customerName: string | null };

function listSelect(scope: TenantScope) {
  return scope.tx
    .select(listColumns)
    .from(commercialDocuments)
    .leftJoin(
      customers,
      and(eq(customers.accountId, commercialDocuments.accountId), eq(customers.id, commercialDocuments.customerId)),
    );
}

/** One page of the clinic's sales and the number of matches. */
export async function listSales(
  scope: TenantScope,
  query: SaleListQuery,
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

export async function findSale(scope: TenantScope, id: string): Promise<NamedDocumentRow | undefined> {
  const [row] = await scope.tx
    .select({
      ...listColumns,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
      registeredByName: registrar.completeName,
    })
    .from(commercialDocuments)
    .leftJoin(
      customers,
      and(eq(customers.accountId, commercialDocuments.accountId), eq(customers.id, commercialDocuments.customerId)),
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

/** The live sale, locked for the rest of the transaction. */
export async function lockSale(scope: TenantScope, id: string): Promise<DocumentRow | undefined> {
  const [row] = await scope.tx
    .select()
    .from(commercialDocuments)
    .where(and(live(scope), eq(commercialDocuments.id, id)))
    .for('update');
  return row;
}

/** An issued invoice of the clinic that bills this delivery note (other than `exceptId`). */
export async function findInvoiceOf(scope: TenantScope, deliveryNoteId: string, exceptId: string) {
  const [row] = await scope.tx
    .select()
    .from(commercialDocuments)
    .where(
      and(
        live(scope),
        eq(commercialDocuments.relatedDocumentId, deliveryNoteId),
        eq(commercialDocuments.documentType, 'invoice'),
        eq(commercialDocuments.status, 'issued'),
        ne(commercialDocuments.id, exceptId),
      ),
    )
    .limit(1);
  return row;
}

/** Inserts a draft and answers it as stored (the new row is the transaction's own: no lock to take). */
export async function insertDocument(scope: TenantScope, row: DocumentInsert): Promise<DocumentRow> {
  const [stored] = await scope.tx.insert(commercialDocuments).values(row).returning();
  return stored as DocumentRow;
}

/** Updates a sale and answers it as stored. */
export async function updateDocument(
  scope: TenantScope,
  id: string,
  set: Partial<DocumentInsert>,
): Promise<DocumentRow> {
  const [row] = await scope.tx
    .update(commercialDocuments)
    .set(set)
    .where(and(eq(commercialDocuments.accountId, scope.accountId), eq(commercialDocuments.id, id)))
    .returning();
  if (!row) throw new Error(`sale ${id} not updated`);
  return row;
}

/** Inserts lines and answers them as stored, in position order (what the hash covers). */
export async function insertLines(scope: TenantScope, rows: LineInsert[]): Promise<LineRow[]> {
  if (rows.length === 0) return [];
  const stored = await scope.tx.insert(documentLines).values(rows).returning();
  return stored.sort((a, b) => a.position - b.position);
}

export async function deleteLines(scope: TenantScope, documentId: string): Promise<void> {
  await scope.tx
    .delete(documentLines)
    .where(and(eq(documentLines.accountId, scope.accountId), eq(documentLines.documentId, documentId)));
}

/** The lines as stored (the hash is computed over these). */
export async function storedLines(scope: TenantScope, documentId: string): Promise<LineRow[]> {
  return scope.tx
    .select()
    .from(documentLines)
    .where(and(eq(documentLines.accountId, scope.accountId), eq(documentLines.documentId, documentId)))
    .orderBy(asc(documentLines.position));
}

export type NamedLineRow = LineRow & { itemName: string | null; itemKind: 'medication' | 'supply' | null };

export async function linesOf(scope: TenantScope, documentId: string): Promise<NamedLineRow[]> {
  return scope.tx
    .select({ ...getTableColumns(documentLines), itemName: inventoryItems.name, itemKind: inventoryItems.kind })
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

/** Which of these price-list treatments the clinic has (live). */
export async function existingTreatments(scope: TenantScope, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await scope.tx
    .select({ id: treatments.id })
    .from(treatments)
    .where(and(eq(treatments.accountId, scope.accountId), inArray(treatments.id, ids), isNull(treatments.deletedAt)));
  return new Set(rows.map((row) => row.id));
}

/** The clinic's live point of sale with this code. */
export async function findPointOfSale(scope: TenantScope, code: string) {
  const [row] = await scope.tx
    .select({ id: pointsOfSale.id, code: pointsOfSale.code, name: pointsOfSale.name, active: pointsOfSale.active })
    .from(pointsOfSale)
    .where(
      and(eq(pointsOfSale.accountId, scope.accountId), eq(pointsOfSale.code, code), isNull(pointsOfSale.deletedAt)),
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

export async function relatedFrom(scope: TenantScope, id: string) {
  return scope.tx
    .select(refColumns)
    .from(commercialDocuments)
    .where(and(live(scope), eq(commercialDocuments.relatedDocumentId, id)))
    .orderBy(asc(commercialDocuments.date), asc(commercialDocuments.id));
}

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
    .orderBy(asc(treatments.name), asc(treatments.id))
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
    .orderBy(asc(inventoryItems.name), asc(inventoryItems.id))
    .limit(20);
  return { treatmentRows, itemRows };
}
