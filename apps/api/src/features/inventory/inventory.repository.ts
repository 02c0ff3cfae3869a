import type { ApprovalStatus, InventoryKind, ProductStatus } from '@odontia/shared/enums';
import { and, asc, eq, getTableColumns, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { findPageIds, inIdOrder, searchCondition, usesTrigramIndex } from '../../db/indexed-search.ts';
import { countRows, sortedBy, type TenantScope } from '../../db/list-query.ts';
import { sameClinicRow } from '../../db/records.ts';
import { inventoryItems, users } from '../../db/schema/index.ts';
import { spanishKey } from '../../db/spanish-order.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/** The catalogue of medicines and supplies (tenant context; every query also names the clinic for its indexes). */

export type InventoryRow = typeof inventoryItems.$inferSelect;
export type InventoryRowWithNames = InventoryRow & { createdByName: string | null; updatedByName: string | null };
export type InventoryInsert = typeof inventoryItems.$inferInsert;

/** Names in Spanish order (db/spanish-order.ts, inventory_items_name_idx). */
const byName = spanishKey(inventoryItems.name);
const sortColumns = {
  name: byName,
  sku: inventoryItems.sku,
  totalStock: inventoryItems.totalStock,
  basePrice: inventoryItems.basePrice,
  updatedAt: inventoryItems.updatedAt,
} as const;

export interface InventoryFilters {
  q?: string | undefined;
  sort?: string | undefined;
  lowStock?: boolean | undefined;
  approvalStatus?: ApprovalStatus | undefined;
  productStatus?: ProductStatus | undefined;
}

/** The list's filters but the clinic and the words. */
function filterOf(kind: InventoryKind, filters: InventoryFilters): SQL | undefined {
  return and(
    eq(inventoryItems.kind, kind),
    filters.lowStock ? sql`${inventoryItems.totalStock} <= ${inventoryItems.reorderStock}` : undefined,
    filters.approvalStatus ? eq(inventoryItems.approvalStatus, filters.approvalStatus) : undefined,
    filters.productStatus ? eq(inventoryItems.productStatus, filters.productStatus) : undefined,
  );
}

function whereOf(accountId: string, kind: InventoryKind, filters: InventoryFilters): SQL | undefined {
  return and(
    eq(inventoryItems.accountId, accountId),
    searchCondition(inventoryItems.searchText, filters.q),
    filterOf(kind, filters),
  );
}

function orderOf(sort: string | undefined): SQL[] {
  const { column, descending } = sortedBy(sort, sortColumns, 'name');
  return [descending ? sql`${column} desc nulls last` : sql`${column} asc nulls last`, asc(inventoryItems.id)];
}

/** One page of a catalogue and the number of matches (two queries, whatever the page size); tests call it with a bare transaction. */
export async function listItems(
  tx: TenantTx,
  accountId: string,
  kind: InventoryKind,
  query: InventoryFilters & { page: number; pageSize: number },
): Promise<{ rows: InventoryRow[]; total: number }> {
  if (usesTrigramIndex(query.q)) {
    // The index pass runs in the system context (see db/indexed-search.ts); rows come back under RLS.
    const { ids, total } = await findPageIds(tx, accountId, {
      table: inventoryItems,
      id: inventoryItems.id,
      q: query.q ?? '',
      filter: filterOf(kind, query),
      orderBy: orderOf(query.sort),
      page: query.page,
      pageSize: query.pageSize,
    });
    if (ids.length === 0) return { rows: [], total };
    const found = await tx
      .select()
      .from(inventoryItems)
      .where(and(eq(inventoryItems.accountId, accountId), inArray(inventoryItems.id, ids)));
    return { rows: inIdOrder(ids, found), total };
  }
  const where = whereOf(accountId, kind, query);
  const rows = await tx
    .select()
    .from(inventoryItems)
    .where(where)
    .orderBy(...orderOf(query.sort))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { rows, total: await countRows(tx, inventoryItems, where) };
}

/** Every match of a catalogue, for the CSV export. */
export async function exportItems(
  { tx, accountId }: TenantScope,
  kind: InventoryKind,
  filters: InventoryFilters,
): Promise<InventoryRow[]> {
  return tx
    .select()
    .from(inventoryItems)
    .where(whereOf(accountId, kind, filters))
    .orderBy(...orderOf(filters.sort));
}

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');

/** One item of a kind, with the names of who created and last changed it. */
export async function findItem(
  { tx, accountId }: TenantScope,
  kind: InventoryKind,
  id: string,
): Promise<InventoryRowWithNames | undefined> {
  const [row] = await tx
    .select({
      ...getTableColumns(inventoryItems),
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(inventoryItems)
    .leftJoin(creator, sameClinicRow(creator, inventoryItems, inventoryItems.createdBy))
    .leftJoin(updater, sameClinicRow(updater, inventoryItems, inventoryItems.updatedBy))
    .where(and(eq(inventoryItems.accountId, accountId), eq(inventoryItems.kind, kind), eq(inventoryItems.id, id)));
  return row;
}

/** The item, locked for the rest of the transaction. */
export async function findItemForUpdate(
  { tx, accountId }: TenantScope,
  kind: InventoryKind,
  id: string,
): Promise<InventoryRow | undefined> {
  const [row] = await tx
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.accountId, accountId), eq(inventoryItems.kind, kind), eq(inventoryItems.id, id)))
    .for('no key update');
  return row;
}

export interface CodeConflict {
  field: 'sku' | 'barCode';
  existingId: string;
  existingKind: InventoryKind;
}

/** An item of the clinic (either kind) that already has this SKU (any case) or barcode. */
/**
 * A live item of the catalogue with this name but for accents and case (its Spanish key,
 * db/spanish-order.ts), through inventory_items_name_idx: what a new item's name may duplicate.
 */
export async function findSimilarName(
  { tx, accountId }: TenantScope,
  kind: InventoryKind,
  name: string,
): Promise<{ id: string; name: string } | undefined> {
  const [row] = await tx
    .select({ id: inventoryItems.id, name: inventoryItems.name })
    .from(inventoryItems)
    .where(
      and(
        eq(inventoryItems.accountId, accountId),
        eq(inventoryItems.kind, kind),
        sql`${spanishKey(inventoryItems.name)} = ${spanishKey(sql`${name.trim()}::text`)}`,
      ),
    )
    .limit(1);
  return row;
}

export async function findCodeConflict(
  { tx, accountId }: TenantScope,
  codes: { sku: string | null; barCode: string | null },
  exceptId?: string,
): Promise<CodeConflict | undefined> {
  const matches: SQL[] = [];
  if (codes.sku) matches.push(sql`lower(${inventoryItems.sku}) = lower(${codes.sku})`);
  if (codes.barCode) matches.push(eq(inventoryItems.barCode, codes.barCode));
  if (matches.length === 0) return undefined;
  const rows = await tx
    .select({
      id: inventoryItems.id,
      kind: inventoryItems.kind,
      sku: inventoryItems.sku,
      barCode: inventoryItems.barCode,
    })
    .from(inventoryItems)
    .where(
      and(
        eq(inventoryItems.accountId, accountId),
        or(...matches),
        exceptId ? ne(inventoryItems.id, exceptId) : undefined,
      ),
    )
    .limit(2);
  const bySku = codes.sku ? rows.find((row) => row.sku?.toLowerCase() === codes.sku?.toLowerCase()) : undefined;
  if (bySku) return { field: 'sku', existingId: bySku.id, existingKind: bySku.kind };
  const byBarCode = rows.find((row) => row.barCode === codes.barCode);
  if (byBarCode) return { field: 'barCode', existingId: byBarCode.id, existingKind: byBarCode.kind };
  return undefined;
}

/** Which of these SKUs (lower-cased) and barcodes the clinic already uses (the import's check, one query). */
export async function existingCodes(
  { tx, accountId }: TenantScope,
  skus: string[],
  barCodes: string[],
): Promise<{ skus: Set<string>; barCodes: Set<string> }> {
  const found = { skus: new Set<string>(), barCodes: new Set<string>() };
  if (skus.length === 0 && barCodes.length === 0) return found;
  const matches: SQL[] = [];
  if (skus.length > 0) matches.push(sql`lower(${inventoryItems.sku}) = any(${sql.param(skus)}::text[])`);
  if (barCodes.length > 0) matches.push(sql`${inventoryItems.barCode} = any(${sql.param(barCodes)}::text[])`);
  const rows = await tx
    .select({ sku: inventoryItems.sku, barCode: inventoryItems.barCode })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.accountId, accountId), or(...matches)));
  for (const row of rows) {
    if (row.sku) found.skus.add(row.sku.toLowerCase());
    if (row.barCode) found.barCodes.add(row.barCode);
  }
  return found;
}

const insertChunk = 500;

export async function insertItems({ tx }: TenantScope, rows: InventoryInsert[]): Promise<InventoryRow[]> {
  const inserted: InventoryRow[] = [];
  for (let start = 0; start < rows.length; start += insertChunk) {
    inserted.push(
      ...(await tx
        .insert(inventoryItems)
        .values(rows.slice(start, start + insertChunk))
        .returning()),
    );
  }
  return inserted;
}

export async function updateItem(
  { tx, accountId }: TenantScope,
  id: string,
  change: Partial<InventoryInsert>,
): Promise<void> {
  await tx
    .update(inventoryItems)
    .set({ ...change, updatedAt: new Date(), version: sql`${inventoryItems.version} + 1` })
    .where(and(eq(inventoryItems.accountId, accountId), eq(inventoryItems.id, id)));
}

/** Active items of both kinds (or one) at or below their reorder level: critical first, then by name. */
export async function listReorder(
  { tx, accountId }: TenantScope,
  query: { kind?: InventoryKind | undefined; page: number; pageSize: number },
): Promise<{ rows: InventoryRow[]; total: number }> {
  const where = and(
    eq(inventoryItems.accountId, accountId),
    query.kind ? eq(inventoryItems.kind, query.kind) : inArray(inventoryItems.kind, ['medication', 'supply']),
    sql`${inventoryItems.totalStock} <= ${inventoryItems.reorderStock}`,
    eq(inventoryItems.productStatus, 'active'),
  );
  const rows = await tx
    .select()
    .from(inventoryItems)
    .where(where)
    .orderBy(
      sql`case when ${inventoryItems.totalStock} <= ${inventoryItems.minStock} then 0 else 1 end`,
      asc(byName),
      asc(inventoryItems.id),
    )
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { rows, total: await countRows(tx, inventoryItems, where) };
}
