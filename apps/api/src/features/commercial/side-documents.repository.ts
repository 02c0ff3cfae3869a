import { and, asc, desc, eq, getTableColumns, gte, inArray, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import { countRows, sortedBy, type TenantScope } from '../../db/list-query.ts';
import { sameClinicRow } from '../../db/records.ts';
import { commercialDocuments, documentLines, inventoryItems, users } from '../../db/schema/index.ts';
import type { PartyJoin } from './party-join.ts';

/**
 * The commercial documents of one side (purchases, issue 17; sales, issue 18): the list, a
 * document with its party's and people's names, the lock, the lines and the references, written
 * once. Every query names the clinic (its indexes lead with it) and reads live rows of the side
 * only; RLS checks the clinic again. What differs by side (the party, the list's filters, the
 * numbering) stays in purchases.repository.ts and sales.repository.ts.
 */

export type DocumentSide = 'purchase' | 'sale';
export type DocumentRow = typeof commercialDocuments.$inferSelect;
export type DocumentInsert = typeof commercialDocuments.$inferInsert;
export type LineRow = typeof documentLines.$inferSelect;
export type LineInsert = typeof documentLines.$inferInsert;
export type ListRow<TParty> = DocumentRow & TParty;
export type NamedDocumentRow<TParty> = ListRow<TParty> & {
  createdByName: string | null;
  updatedByName: string | null;
  registeredByName: string | null;
};

/** The clinic's live documents of the side. */
export const liveDocuments = (scope: TenantScope, side: DocumentSide) =>
  and(
    eq(commercialDocuments.accountId, scope.accountId),
    eq(commercialDocuments.side, side),
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

function listSelect<TParty>(scope: TenantScope, party: PartyJoin<TParty>) {
  return scope.tx
    .select({ ...getTableColumns(commercialDocuments), ...party.fields })
    .from(commercialDocuments)
    .leftJoin(party.table, party.on);
}

export interface DocumentListRequest<TParty> {
  query: {
    q?: string | undefined;
    sort?: string | undefined;
    page: number;
    pageSize: number;
    documentType?: string | undefined;
    status?: (typeof commercialDocuments.$inferSelect)['status'] | undefined;
  };
  /** The list's date range (each side's query names it its own way). */
  dates: { from: string | undefined; to: string | undefined };
  /** The side's own filters (its party): type, status and dates are every side's. */
  filters: (SQL | undefined)[];
  party: PartyJoin<TParty>;
}

/** One page of the clinic's documents of the side and the number of matches. */
export async function listDocuments<TParty>(
  scope: TenantScope,
  side: DocumentSide,
  { query, dates, filters, party }: DocumentListRequest<TParty>,
): Promise<{ rows: ListRow<TParty>[]; total: number; totalIsLowerBound: boolean }> {
  const filter = and(
    eq(commercialDocuments.side, side),
    isNull(commercialDocuments.deletedAt),
    ...filters,
    query.documentType ? eq(commercialDocuments.documentType, query.documentType) : undefined,
    query.status ? eq(commercialDocuments.status, query.status) : undefined,
    dates.from ? gte(commercialDocuments.date, dates.from) : undefined,
    dates.to ? lte(commercialDocuments.date, dates.to) : undefined,
  );
  if (usesTrigramIndex(query.q)) {
    const { ids, total, totalIsLowerBound } = await findPageIds(scope.tx, scope.accountId, {
      table: commercialDocuments,
      id: commercialDocuments.id,
      q: query.q ?? '',
      filter,
      orderBy: orderOf(query.sort),
      page: query.page,
      pageSize: query.pageSize,
      countCap: 1000,
    });
    if (ids.length === 0) return { rows: [], total, totalIsLowerBound };
    const found = await listSelect(scope, party).where(
      and(eq(commercialDocuments.accountId, scope.accountId), inArray(commercialDocuments.id, ids)),
    );
    return { rows: inIdOrder(ids, found as unknown as ListRow<TParty>[]), total, totalIsLowerBound };
  }
  const where = and(
    eq(commercialDocuments.accountId, scope.accountId),
    searchCondition(commercialDocuments.searchText, query.q),
    filter,
  );
  const rows = await listSelect(scope, party)
    .where(where)
    .orderBy(...orderOf(query.sort))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return {
    rows: rows as unknown as ListRow<TParty>[],
    total: await countRows(scope.tx, commercialDocuments, where),
    totalIsLowerBound: false,
  };
}

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');
const registrar = alias(users, 'registrar');

/** One live document of the side with the names of its party and of who wrote and registered it. */
export async function findDocument<TParty>(
  scope: TenantScope,
  side: DocumentSide,
  party: PartyJoin<TParty>,
  id: string,
): Promise<NamedDocumentRow<TParty> | undefined> {
  const [row] = await scope.tx
    .select({
      ...getTableColumns(commercialDocuments),
      ...party.fields,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
      registeredByName: registrar.completeName,
    })
    .from(commercialDocuments)
    .leftJoin(party.table, party.on)
    .leftJoin(creator, sameClinicRow(creator, commercialDocuments, commercialDocuments.createdBy))
    .leftJoin(updater, sameClinicRow(updater, commercialDocuments, commercialDocuments.updatedBy))
    .leftJoin(registrar, sameClinicRow(registrar, commercialDocuments, commercialDocuments.registeredBy))
    .where(and(liveDocuments(scope, side), eq(commercialDocuments.id, id)));
  return row as unknown as NamedDocumentRow<TParty> | undefined;
}

/** The live document of the side, locked for the rest of the transaction. */
export async function lockDocument(
  scope: TenantScope,
  side: DocumentSide,
  id: string,
): Promise<DocumentRow | undefined> {
  const [row] = await scope.tx
    .select()
    .from(commercialDocuments)
    .where(and(liveDocuments(scope, side), eq(commercialDocuments.id, id)))
    .for('no key update');
  return row;
}

/** Inserts a draft and answers it as stored (the new row is the transaction's own: no lock to take). */
export async function insertDocument(scope: TenantScope, row: DocumentInsert): Promise<DocumentRow> {
  const [stored] = await scope.tx.insert(commercialDocuments).values(row).returning();
  return stored as DocumentRow;
}

/** Updates a document and answers it as stored. */
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
  if (!row) throw new Error(`document ${id} not updated`);
  return row;
}

/** Inserts lines and answers them as stored, in position order (what a sale's hash covers). */
export async function insertLines(scope: TenantScope, rows: LineInsert[]): Promise<LineRow[]> {
  if (rows.length === 0) return [];
  const stored = await scope.tx.insert(documentLines).values(rows).returning();
  return stored.sort((a, b) => a.position - b.position);
}

/** The lines as stored, in order (a sale's hash is computed over these). */
export async function storedLines(scope: TenantScope, documentId: string): Promise<LineRow[]> {
  return scope.tx
    .select()
    .from(documentLines)
    .where(and(eq(documentLines.accountId, scope.accountId), eq(documentLines.documentId, documentId)))
    .orderBy(asc(documentLines.position));
}

/** A final invoice of the side that bills this delivery note (other than `exceptId`). */
export async function findInvoiceOf(
  scope: TenantScope,
  { side, finalStatus }: { side: DocumentSide; finalStatus: 'issued' | 'registered' },
  deliveryNoteId: string,
  exceptId: string,
): Promise<DocumentRow | undefined> {
  const [row] = await scope.tx
    .select()
    .from(commercialDocuments)
    .where(
      and(
        liveDocuments(scope, side),
        eq(commercialDocuments.relatedDocumentId, deliveryNoteId),
        eq(commercialDocuments.documentType, 'invoice'),
        eq(commercialDocuments.status, finalStatus),
        ne(commercialDocuments.id, exceptId),
      ),
    )
    .limit(1);
  return row;
}

/** A draft's lines go away when it is saved again (the database refuses it once final). */
export async function deleteLines(scope: TenantScope, documentId: string): Promise<void> {
  await scope.tx
    .delete(documentLines)
    .where(and(eq(documentLines.accountId, scope.accountId), eq(documentLines.documentId, documentId)));
}

export type NamedLineRow = LineRow & {
  itemName: string | null;
  itemKind: 'medication' | 'supply' | null;
  professionalName: string | null;
};

const lineProfessionals = alias(users, 'line_professionals');

/** The document's lines in order, with the name and kind of their catalogue item and their professional's name. */
export async function linesOf(scope: TenantScope, documentId: string): Promise<NamedLineRow[]> {
  return scope.tx
    .select({
      ...getTableColumns(documentLines),
      itemName: inventoryItems.name,
      itemKind: inventoryItems.kind,
      professionalName: lineProfessionals.completeName,
    })
    .from(documentLines)
    .leftJoin(inventoryItems, sameClinicRow(inventoryItems, documentLines, documentLines.itemId))
    .leftJoin(lineProfessionals, sameClinicRow(lineProfessionals, documentLines, documentLines.professionalId))
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

const refColumns = {
  id: commercialDocuments.id,
  documentType: commercialDocuments.documentType,
  pointOfService: commercialDocuments.pointOfService,
  documentNumber: commercialDocuments.documentNumber,
  date: commercialDocuments.date,
  total: commercialDocuments.total,
};

/** How these documents are referred to (type, number, date, total). */
export async function documentRefs(scope: TenantScope, ids: string[]) {
  if (ids.length === 0) return [];
  return scope.tx
    .select(refColumns)
    .from(commercialDocuments)
    .where(and(eq(commercialDocuments.accountId, scope.accountId), inArray(commercialDocuments.id, ids)));
}

/** The live documents of the side that name this one as their related document. */
export async function relatedFrom(scope: TenantScope, side: DocumentSide, id: string) {
  return scope.tx
    .select(refColumns)
    .from(commercialDocuments)
    .where(and(liveDocuments(scope, side), eq(commercialDocuments.relatedDocumentId, id)))
    .orderBy(asc(commercialDocuments.date), asc(commercialDocuments.id));
}
