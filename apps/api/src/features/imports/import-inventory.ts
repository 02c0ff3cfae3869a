import type { InventoryKind } from '@odontia/shared/enums';
import { importFields } from '@odontia/shared/schemas/imports';
import { createMedicationRequestSchema, createSupplyRequestSchema } from '@odontia/shared/schemas/inventory';
import Big from 'big.js';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { inventoryItems } from '../../db/schema/index.ts';
import { fieldsOf } from '../inventory/inventory.service.ts';
import { applyStockMovements } from '../stock/stock.service.ts';
import { clinicDecimalSeparator } from './import-amounts.ts';
import { normalizeHeader } from './import-columns.ts';
import {
  batches,
  createdEvent,
  pick,
  readAmount,
  readTexts,
  readWholeNumber,
  recordEvents,
  recordsImporter,
  updatedEvent,
} from './import-records.ts';

/**
 * Inventory (issue 42, `inventory_items`): each row a medicine or a supply (its `type` column:
 * "Medicamento", "Insumo"…), read with that kind's create contract (amounts as the clinic writes
 * them, the stock levels' order), its SKU and barcode unique in the clinic as the catalogue keeps
 * them (`inventory_items_sku_unique`, `inventory_items_bar_code_unique`: refused `already_exists`).
 *
 * The opening stock goes through the stock ledger as the inventory's own create does: the item
 * is inserted with 0 and an `initial` movement (reference 'import', the run) brings it in, so
 * `total_stock` is always the sum of the item's movements. It is read only when the item is
 * created: afterwards the ledger is the stock's truth (counts and adjustments change it), so a
 * later file's stock is not a change of the row (it is left out of the row's hash).
 * Audited as the inventory's service does: `medication_created` / `supply_created` (with the
 * starting `totalStock`), `…_updated` with what changed.
 */

const importable = new Set<string>(importFields.inventory);

/** The imported fields an update of a kind writes (the rest of the catalogue is kept). */
const updatedFields = (kind: InventoryKind) => fieldsOf(kind).filter((field) => importable.has(field));

const medicationWords = new Set([
  'medicamento',
  'medicamentos',
  'medicacion',
  'farmacia',
  'farmaco',
  'med',
  'medication',
  'medicine',
  'drug',
  'medicament',
  'medicaments',
  'medicacao',
]);
const supplyWords = new Set([
  'insumo',
  'insumos',
  'material',
  'materiales',
  'suministro',
  'consumible',
  'producto',
  'supply',
  'supplies',
  'consumable',
  'fourniture',
  'consommable',
  'materiel',
  'consumivel',
  'produto',
]);

function typeOf(text: string): InventoryKind | null {
  const word = normalizeHeader(text);
  if (medicationWords.has(word)) return 'medication';
  if (supplyWords.has(word)) return 'supply';
  return null;
}

type Values = Record<string, unknown> & { type: InventoryKind; openingStock: number };
type Current = typeof inventoryItems.$inferSelect;

const textFields = [
  'name',
  'sku',
  'barCode',
  'manufacturer',
  'description',
  'activePrinciple',
  'presentation',
  'brand',
  'model',
];

export const importInventoryChunk = recordsImporter<Values, Current>({
  kind: 'inventory',
  read(cell, clinic) {
    const separator = clinicDecimalSeparator(clinic);
    const input: Record<string, unknown> = {};
    const reasons: { field: string; code: string }[] = [];
    const typeText = cell('type');
    const type = typeOf(typeText);
    if (typeText === '') reasons.push({ field: 'type', code: 'required' });
    else if (!type) reasons.push({ field: 'type', code: 'invalid_value' });
    input.type = type ?? 'supply';
    readTexts(input, textFields, cell);
    for (const field of ['costPrice', 'basePrice']) readAmount(input, reasons, field, cell(field), separator);
    readAmount(input, reasons, 'taxRate', cell('taxRate'), separator, true);
    for (const field of ['minStock', 'reorderStock', 'maxStock']) {
      readWholeNumber(input, reasons, field, cell(field), separator);
    }
    input.minStock ??= 0;
    input.reorderStock ??= 0;
    readWholeNumber(input, reasons, 'openingStock', cell('openingStock'), separator);
    input.totalStock = input.openingStock ?? 0;
    return { input, reasons, label: cell('name') || null };
  },
  schema: (input) => (input.type === 'medication' ? createMedicationRequestSchema : createSupplyRequestSchema),
  values: (parsed, input) => {
    const type = input.type as InventoryKind;
    const values = pick(parsed, fieldsOf(type));
    values.taxRate = new Big(String(values.taxRate)).toFixed(2);
    return { ...values, type, openingStock: (parsed as { totalStock: number }).totalStock };
  },
  // The contract names the opening stock totalStock: its reasons are the column's.
  contractFields: { totalStock: 'openingStock' },
  hashed: ({ openingStock: _openingStock, ...values }) => values,
  conflict: (values, current) => (current.kind === values.type ? null : { field: 'type', code: 'invalid_transition' }),
  uniques: [
    {
      field: 'sku',
      key: (values) => (typeof values.sku === 'string' ? values.sku.toLowerCase() : null),
      async holders({ tx, accountId }, keys) {
        if (keys.length === 0) return new Map();
        const rows = await tx
          .select({ id: inventoryItems.id, key: sql<string>`lower(${inventoryItems.sku})` })
          .from(inventoryItems)
          .where(
            and(
              eq(inventoryItems.accountId, accountId),
              sql`lower(${inventoryItems.sku}) in (${sql.join(
                keys.map((key) => sql`${key}`),
                sql`, `,
              )})`,
            ),
          );
        return new Map(rows.map((row) => [row.key, row.id]));
      },
    },
    {
      field: 'barCode',
      key: (values) => (typeof values.barCode === 'string' ? values.barCode : null),
      async holders({ tx, accountId }, keys) {
        if (keys.length === 0) return new Map();
        const rows = await tx
          .select({ id: inventoryItems.id, key: inventoryItems.barCode })
          .from(inventoryItems)
          .where(and(eq(inventoryItems.accountId, accountId), inArray(inventoryItems.barCode, [...keys])));
        return new Map(rows.map((row) => [row.key ?? '', row.id]));
      },
    },
  ],
  async current({ tx, accountId }, ids, lock) {
    if (ids.length === 0) return new Map();
    const query = tx
      .select()
      .from(inventoryItems)
      .where(and(eq(inventoryItems.accountId, accountId), inArray(inventoryItems.id, [...ids])));
    const rows = lock ? await query.for('update') : await query;
    return new Map(rows.map((row) => [row.id, row]));
  },
  async create(ctx, run, rows) {
    const columnsOf = (values: Values) => pick(values, fieldsOf(values.type));
    for (const batch of batches(rows)) {
      await ctx.tx.insert(inventoryItems).values(
        batch.map(
          (row) =>
            ({
              ...columnsOf(row.values),
              kind: row.values.type,
              totalStock: 0,
              id: row.id,
              accountId: ctx.accountId,
              createdBy: ctx.userId,
              updatedBy: ctx.userId,
            }) as typeof inventoryItems.$inferInsert,
        ),
      );
    }
    // The opening stock as the inventory's create brings it in: an 'initial' movement per item.
    const stocked = rows.filter((row) => row.values.openingStock > 0);
    for (const batch of batches(stocked, 1000)) {
      await applyStockMovements(
        ctx.tx,
        { accountId: ctx.accountId, userId: ctx.userId },
        batch.map((row) => ({
          itemId: row.id,
          kind: 'initial',
          quantity: row.values.openingStock,
          referenceType: 'import',
          referenceId: run.id,
        })),
      );
    }
    await recordEvents(
      ctx,
      rows.map((row) =>
        createdEvent(ctx, run, row.values.type, row.id, {
          ...columnsOf(row.values),
          totalStock: row.values.openingStock,
        }),
      ),
    );
  },
  async update(ctx, run, rows, current) {
    const events = [];
    for (const row of rows) {
      const before = current.get(row.id);
      if (!before) continue;
      const next = pick(row.values, updatedFields(row.values.type));
      await ctx.tx
        .update(inventoryItems)
        .set({
          ...(next as Partial<typeof inventoryItems.$inferInsert>),
          version: sql`${inventoryItems.version} + 1`,
          updatedBy: ctx.userId,
          updatedAt: sql`now()`,
        })
        .where(and(eq(inventoryItems.accountId, ctx.accountId), eq(inventoryItems.id, row.id)));
      events.push(updatedEvent(ctx, run, row.values.type, row.id, before as unknown as Record<string, unknown>, next));
    }
    await recordEvents(ctx, events);
  },
});
