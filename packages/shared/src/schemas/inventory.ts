import { z } from 'zod';
import { decimalText, instantText, moneyText, named } from '../api-schema.ts';
import {
  ageGroups,
  applicationTypes,
  approvalStatuses,
  inventoryKinds,
  productStatuses,
  stockLevels,
  stockMovementKinds,
  unitMeasurements,
} from '../enums.ts';
import {
  moneyAmount,
  optionalText,
  optionalWholeNumber,
  percentage,
  requiredText,
  safeText,
  wholeNumber,
} from '../validation.ts';
import { importRowErrorSchema, listQuerySchema, pageSchema } from './common.ts';
import { recordStampsSchema } from './records.ts';

/**
 * Medicines ("Farmacias", /api/medications) and supplies (/api/supplies), issue 4. Both live in
 * one catalogue with one stock ledger; each kind shows its own fields (spec §3 "Medicine and
 * supply"). Money is a decimal string; stock is a whole number of units.
 */

export const maxStockQuantity = 1_000_000_000;

// ——— Fields shared by both kinds ———
const commonFields = {
  name: requiredText(160),
  description: optionalText(2000),
  manufacturer: optionalText(160),
  /** The clinic's own code; unique in the clinic across both catalogues (409 `duplicate_sku`). */
  sku: optionalText(60),
  /** What a barcode scanner types; unique in the clinic (409 `duplicate_barcode`). */
  barCode: safeText()
    .trim()
    .max(64, 'too_long')
    .refine((value) => value === '' || /^[0-9A-Za-z\-.]+$/.test(value), 'invalid_format')
    .nullish()
    .transform((value) => (value ? value : null)),
  costPrice: moneyAmount(),
  basePrice: moneyAmount(),
  taxRate: percentage(),
  minStock: wholeNumber(0, maxStockQuantity),
  /** Empty: no maximum. */
  maxStock: optionalWholeNumber(0, maxStockQuantity),
  reorderStock: wholeNumber(0, maxStockQuantity),
  storageConditions: optionalText(500),
  productStatus: z.enum(productStatuses).default('active'),
};

const medicationFields = {
  activePrinciple: optionalText(160),
  concentration: optionalText(80),
  presentation: optionalText(160),
  applicationType: z
    .enum(applicationTypes)
    .nullish()
    .transform((value) => value ?? null),
  prescriptionRequired: z.boolean().default(false),
  approvalStatus: z.enum(approvalStatuses).default('underReview'),
  /** child or adult; null: no restriction. */
  ageRestriction: z
    .enum(ageGroups)
    .nullish()
    .transform((value) => value ?? null),
  dosage: optionalText(1000),
  indications: optionalText(2000),
  sideEffects: optionalText(2000),
  contraindications: optionalText(2000),
};

const supplyFields = {
  brand: optionalText(120),
  model: optionalText(120),
  consumable: z.boolean().default(true),
  unitMeasurement: z.enum(unitMeasurements).default('unit'),
  /** Units per package, e.g. 50 cartridges per box; empty when sold loose. */
  packagingQty: optionalWholeNumber(1, 1_000_000),
};

/** The initial stock, only on create: later changes go through stock movements. */
/**
 * A new item: its starting stock, and `allowSimilarName` — true creates it although an item of the
 * same catalogue has the same name but for accents and case (else 409 inventory_similar_name,
 * details.existingId and details.name: the form shows it and asks).
 */
const initialStock = {
  totalStock: wholeNumber(0, maxStockQuantity),
  allowSimilarName: z.boolean().default(false),
};
/** The version the edit started from (409 `version_conflict` when stale). */
const versionField = { version: z.number().int().min(1) };

type StockLevelsInput = { minStock: number; maxStock: number | null; reorderStock: number };

/** As a pharmacist expects: minimum ≤ reorder level ≤ maximum. */
function checkStockLevels(value: StockLevelsInput, ctx: z.RefinementCtx) {
  if (value.minStock > value.reorderStock) {
    ctx.addIssue({ code: 'custom', path: ['minStock'], message: 'min_above_reorder' });
  }
  if (value.maxStock !== null && value.reorderStock > value.maxStock) {
    ctx.addIssue({ code: 'custom', path: ['maxStock'], message: 'reorder_above_max' });
  }
}

/** The create (with the initial stock) and the edit (with the version read) of a kind of item. */
function itemRequestSchemas<TFields extends z.ZodRawShape>(fields: TFields) {
  // Both values have the common fields (the stock levels), which TypeScript cannot see through the generic spread.
  const checkLevels = checkStockLevels as (value: unknown, ctx: z.RefinementCtx) => void;
  return {
    create: z.object({ ...commonFields, ...fields, ...initialStock }).superRefine(checkLevels),
    update: z.object({ ...commonFields, ...fields, ...versionField }).superRefine(checkLevels),
  };
}

const medicationRequests = itemRequestSchemas(medicationFields);
const supplyRequests = itemRequestSchemas(supplyFields);
/** POST /api/medications */
export const createMedicationRequestSchema = medicationRequests.create;
/** PUT /api/medications/:id (an approval change must follow the allowed transitions). */
export const updateMedicationRequestSchema = medicationRequests.update;
/** POST /api/supplies */
export const createSupplyRequestSchema = supplyRequests.create;
/** PUT /api/supplies/:id */
export const updateSupplyRequestSchema = supplyRequests.update;

export type CreateMedicationRequest = z.input<typeof createMedicationRequestSchema>;
export type UpdateMedicationRequest = z.input<typeof updateMedicationRequestSchema>;
export type CreateSupplyRequest = z.input<typeof createSupplyRequestSchema>;
export type UpdateSupplyRequest = z.input<typeof updateSupplyRequestSchema>;
export type MedicationInput = z.output<typeof createMedicationRequestSchema>;
export type SupplyInput = z.output<typeof createSupplyRequestSchema>;

/** One item as the API answers it: the other kind's fields are null. */
export const inventoryItemSchema = named(
  'InventoryItem',
  z.object({
    id: z.uuid(),
    kind: z.enum(inventoryKinds),
    name: z.string(),
    description: z.string().nullable(),
    manufacturer: z.string().nullable(),
    sku: z.string().nullable(),
    barCode: z.string().nullable(),
    costPrice: decimalText(),
    basePrice: moneyText(),
    taxRate: decimalText(),
    /** basePrice with taxRate added, rounded half-up to cents. */
    priceWithTax: moneyText(),
    /** The unit cost of the last purchase that brought it in (issue 17); null before any. */
    lastCost: decimalText().nullable(),
    /** The weighted average unit cost of the purchases in stock (issue 17); null before any. */
    averageCost: decimalText().nullable(),
    totalStock: z.number().int(),
    minStock: z.number().int(),
    maxStock: z.number().int().nullable(),
    reorderStock: z.number().int(),
    stockLevel: z.enum(stockLevels),
    storageConditions: z.string().nullable(),
    productStatus: z.enum(productStatuses),
    activePrinciple: z.string().nullable(),
    concentration: z.string().nullable(),
    presentation: z.string().nullable(),
    applicationType: z.enum(applicationTypes).nullable(),
    prescriptionRequired: z.boolean().nullable(),
    approvalStatus: z.enum(approvalStatuses).nullable(),
    ageRestriction: z.enum(ageGroups).nullable(),
    dosage: z.string().nullable(),
    indications: z.string().nullable(),
    sideEffects: z.string().nullable(),
    contraindications: z.string().nullable(),
    brand: z.string().nullable(),
    model: z.string().nullable(),
    consumable: z.boolean().nullable(),
    unitMeasurement: z.enum(unitMeasurements).nullable(),
    packagingQty: z.number().int().nullable(),
    ...recordStampsSchema,
  }),
);
export type InventoryItem = z.infer<typeof inventoryItemSchema>;

export const inventorySortColumns = ['name', 'sku', 'totalStock', 'basePrice', 'updatedAt'] as const;

const queryFlag = z
  .enum(['true', 'false'])
  .optional()
  .transform((value) => value === 'true');

/** Filters of both lists and of their CSV export. */
export const inventoryFiltersSchema = z.object({
  /** At or below the reorder level. */
  lowStock: queryFlag,
  approvalStatus: z.enum(approvalStatuses).optional(),
  productStatus: z.enum(productStatuses).optional(),
});

/** GET /api/medications, GET /api/supplies: `q` searches name, SKU, barcode and active principle. */
export const inventoryListQuerySchema = listQuerySchema(inventorySortColumns).extend(inventoryFiltersSchema.shape);
export type InventoryListQuery = z.output<typeof inventoryListQuerySchema>;
/** GET /api/medications/export, GET /api/supplies/export: the list's search, filters and sort, as CSV. */
export const inventoryExportQuerySchema = inventoryListQuerySchema.omit({ page: true, pageSize: true });

export const inventoryPageSchema = pageSchema(inventoryItemSchema);

export const medicationResponseSchema = z.object({
  data: inventoryItemSchema,
  code: z.enum(['medication_created', 'medication_updated']).optional(),
});
export const supplyResponseSchema = z.object({
  data: inventoryItemSchema,
  code: z.enum(['supply_created', 'supply_updated']).optional(),
});

// ——— Stock ———

export const stockMovementSchema = named(
  'StockMovement',
  z.object({
    id: z.uuid(),
    itemId: z.uuid(),
    kind: z.enum(stockMovementKinds),
    /** Signed: positive in, negative out. */
    quantity: z.number().int(),
    /** The item's stock right after this movement. */
    stockAfter: z.number().int(),
    unitCost: decimalText().nullable(),
    reason: z.string().nullable(),
    /** The document or attendance that caused it: 'purchase', 'sale', 'attendance', 'import'… */
    referenceType: z.string().nullable(),
    referenceId: z.uuid().nullable(),
    userId: z.uuid().nullable(),
    userName: z.string().nullable(),
    createdAt: instantText(),
  }),
);
export type StockMovement = z.infer<typeof stockMovementSchema>;

/** GET /api/{medications,supplies}/:id/stock-movements: newest first. */
export const stockMovementsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const stockMovementsPageSchema = pageSchema(stockMovementSchema);

/** POST /api/{medications,supplies}/:id/stock-movements: a supervisor's adjustment. */
export const stockAdjustmentRequestSchema = z.object({
  direction: z.enum(['in', 'out']),
  quantity: wholeNumber(1, maxStockQuantity),
  reason: requiredText(500),
  /** What one unit cost, for stock coming in (optional). */
  unitCost: z.preprocess(
    (value) => (value === '' ? undefined : value),
    moneyAmount()
      .optional()
      .transform((value) => value ?? null),
  ),
});
export type StockAdjustmentRequest = z.input<typeof stockAdjustmentRequestSchema>;

export const stockAdjustmentResponseSchema = z.object({
  data: z.object({ item: inventoryItemSchema, movement: stockMovementSchema }),
  code: z.literal('stock_adjusted'),
});

/** GET /api/inventory/reorder: items of both kinds at or below their reorder level, for the "to order" list. */
export const reorderQuerySchema = z.object({
  kind: z.enum(inventoryKinds).optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const reorderItemSchema = inventoryItemSchema.extend({
  /** Units to order: up to the maximum, or to twice the reorder level when there is no maximum. */
  suggestedQuantity: z.number().int(),
});
export const reorderPageSchema = pageSchema(reorderItemSchema);

/** How many units to order so that the stock reaches the maximum (or twice the reorder level). */
export function suggestedOrderQuantity(item: {
  totalStock: number;
  maxStock: number | null;
  reorderStock: number;
  minStock: number;
}): number {
  const target = item.maxStock ?? Math.max(item.reorderStock * 2, item.minStock + 1, 1);
  return Math.max(0, target - item.totalStock);
}

// ——— CSV import ———

export const maxImportRows = 5000;

/** What POST /api/{medications,supplies}/import (csvImportRequestSchema) answers. */
export const inventoryImportResultSchema = z.object({
  /** Data rows in the file. */
  total: z.number().int(),
  /** Rows that would be (or were) imported: 0 while any row is invalid. */
  valid: z.number().int(),
  errors: z.array(importRowErrorSchema),
  /** Columns of the file that match no field (ignored). */
  ignoredColumns: z.array(z.string()),
  /** The first rows as they would be imported. */
  preview: z.array(
    z.object({ line: z.number().int(), name: z.string(), sku: z.string().nullable(), totalStock: z.number().int() }),
  ),
  /** Rows created; 0 on a dry run. */
  created: z.number().int(),
});
export type InventoryImportResult = z.infer<typeof inventoryImportResultSchema>;

export const inventoryImportResponseSchema = z.object({
  data: inventoryImportResultSchema,
  code: z.literal('inventory_imported').optional(),
});

/**
 * CSV columns of each catalogue, in export order, with the Spanish label the export writes.
 * The import accepts either the label or the field name as a column header (any case, with or
 * without accents). Enumerations travel as their codes (`approved`, `oral`, `box`), yes/no as
 * `sí`/`no` (also `si`, `true`, `false`, `1`, `0`), amounts with a dot or a comma.
 */
const commonCsvColumns = [
  ['name', 'Nombre'],
  ['sku', 'SKU'],
  ['barCode', 'Código de barras'],
  ['description', 'Descripción'],
  ['manufacturer', 'Fabricante'],
  ['costPrice', 'Precio de costo'],
  ['basePrice', 'Precio de venta'],
  ['taxRate', 'Impuesto (%)'],
  ['totalStock', 'Stock'],
  ['minStock', 'Stock mínimo'],
  ['reorderStock', 'Punto de pedido'],
  ['maxStock', 'Stock máximo'],
  ['storageConditions', 'Conservación'],
  ['productStatus', 'Estado'],
] as const;

export const inventoryCsvColumns = {
  medication: [
    ...commonCsvColumns,
    ['activePrinciple', 'Principio activo'],
    ['concentration', 'Concentración'],
    ['presentation', 'Presentación'],
    ['applicationType', 'Vía de aplicación'],
    ['prescriptionRequired', 'Requiere receta'],
    ['approvalStatus', 'Estado de aprobación'],
    ['ageRestriction', 'Restricción de edad'],
    ['dosage', 'Posología'],
    ['indications', 'Indicaciones'],
    ['sideEffects', 'Efectos adversos'],
    ['contraindications', 'Contraindicaciones'],
  ],
  supply: [
    ...commonCsvColumns,
    ['brand', 'Marca'],
    ['model', 'Modelo'],
    ['consumable', 'Consumible'],
    ['unitMeasurement', 'Unidad de medida'],
    ['packagingQty', 'Unidades por envase'],
  ],
} as const satisfies Record<(typeof inventoryKinds)[number], readonly (readonly [string, string])[]>;
