import type { ApprovalStatus, ProductStatus, StockMovementKind } from '@odontia/shared/enums';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { spanishKey } from '../spanish-order.ts';
import { clinicRowColumns } from './columns.ts';
import { clinicKeys, clinicRef, clinicSearchIndex, userRefs } from './records.ts';

/**
 * Inventory (issue 4): medicines ("Farmacias") and supplies in one catalogue, `kind` telling
 * them apart, and one stock ledger. `total_stock` changes only together with its movement, in
 * the same transaction, and always equals the sum of the item's `stock_movements`.
 */

export const inventoryItems = pgTable(
  'inventory_items',
  {
    ...clinicRowColumns,
    kind: text('kind', { enum: ['medication', 'supply'] }).notNull(),
    name: text('name').notNull(),
    description: text('description'),
    manufacturer: text('manufacturer'),
    sku: text('sku'),
    barCode: text('bar_code'),
    costPrice: numeric('cost_price', { precision: 14, scale: 2 }).notNull(),
    basePrice: numeric('base_price', { precision: 14, scale: 2 }).notNull(),
    taxRate: numeric('tax_rate', { precision: 5, scale: 2 }).notNull(),
    totalStock: integer('total_stock').notNull().default(0),
    /**
     * Kept by purchases (issue 17): the unit cost of the last purchase that brought it in, and the
     * moving weighted average cost of what is in stock. `cost_price` stays the catalogue's own.
     */
    lastCost: numeric('last_cost', { precision: 14, scale: 2 }),
    averageCost: numeric('average_cost', { precision: 14, scale: 2 }),
    minStock: integer('min_stock').notNull().default(0),
    maxStock: integer('max_stock'),
    reorderStock: integer('reorder_stock').notNull().default(0),
    storageConditions: text('storage_conditions'),
    productStatus: text('product_status').$type<ProductStatus>().notNull().default('active'),
    // Medicines
    activePrinciple: text('active_principle'),
    concentration: text('concentration'),
    presentation: text('presentation'),
    applicationType: text('application_type'),
    prescriptionRequired: boolean('prescription_required'),
    approvalStatus: text('approval_status').$type<ApprovalStatus>(),
    ageRestriction: text('age_restriction'),
    dosage: text('dosage'),
    indications: text('indications'),
    sideEffects: text('side_effects'),
    contraindications: text('contraindications'),
    // Supplies
    brand: text('brand'),
    model: text('model'),
    consumable: boolean('consumable'),
    unitMeasurement: text('unit_measurement'),
    packagingQty: integer('packaging_qty'),
    /**
     * What search as you type looks in: name, SKU, barcode and active principle, lower-cased
     * and without accents ("anestesico" finds "Anestésico"), under the clinic's trigram index.
     */
    searchText: text('search_text').generatedAlwaysAs(sql`odontia_search_text(name, sku, bar_code, active_principle)`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by'),
    version: integer('version').notNull().default(1),
  },
  (table) => [
    ...clinicKeys(table),
    ...userRefs(table, table.createdBy, table.updatedBy),
    uniqueIndex('inventory_items_sku_unique')
      .on(table.accountId, sql`lower(${table.sku})`)
      .where(sql`${table.sku} is not null`),
    uniqueIndex('inventory_items_bar_code_unique')
      .on(table.accountId, table.barCode)
      .where(sql`${table.barCode} is not null`),
    // Spanish order (migration 0027): a catalogue sorted by name walks it.
    index('inventory_items_name_idx').on(table.accountId, table.kind, spanishKey(table.name), table.id),
    clinicSearchIndex('inventory_items_search_idx', table),
    index('inventory_items_reorder_idx')
      .on(table.accountId, table.kind, table.name)
      .where(sql`${table.totalStock} <= ${table.reorderStock}`),
    check('inventory_items_stock_not_negative', sql`${table.totalStock} >= 0`),
    check(
      'inventory_items_levels_order',
      sql`${table.minStock} <= ${table.reorderStock} and (${table.maxStock} is null or ${table.reorderStock} <= ${table.maxStock})`,
    ),
    check('inventory_items_prices', sql`${table.costPrice} >= 0 and ${table.basePrice} >= 0`),
    check('inventory_items_tax_rate', sql`${table.taxRate} between 0 and 100`),
  ],
);

export const stockMovements = pgTable(
  'stock_movements',
  {
    ...clinicRowColumns,
    itemId: uuid('item_id').notNull(),
    kind: text('kind').$type<StockMovementKind>().notNull(),
    /** Signed: positive in, negative out. */
    quantity: integer('quantity').notNull(),
    /** The item's stock right after this movement. */
    stockAfter: integer('stock_after').notNull(),
    unitCost: numeric('unit_cost', { precision: 14, scale: 2 }),
    reason: text('reason'),
    /** The document or attendance that caused it ('purchase', 'sale', 'attendance', 'import'…). */
    referenceType: text('reference_type'),
    referenceId: uuid('reference_id'),
    userId: uuid('user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    clinicRef(table, table.itemId, inventoryItems),
    ...userRefs(table, table.userId),
    index('stock_movements_item_idx').on(table.accountId, table.itemId, table.createdAt.desc(), table.id.desc()),
    /** The clinic's movements of a period (issue 19: the stock movements report). */
    index('stock_movements_recent_idx').on(table.accountId, table.createdAt, table.id),
    index('stock_movements_reference_idx')
      .on(table.accountId, table.referenceType, table.referenceId)
      .where(sql`${table.referenceId} is not null`),
    check('stock_movements_stock_after', sql`${table.stockAfter} >= 0`),
  ],
);
