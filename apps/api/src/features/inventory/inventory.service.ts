import { clinicToday } from '@odontia/shared/clinic-time';
import {
  type AgeGroup,
  type ApplicationType,
  type ApprovalStatus,
  canChangeApproval,
  type InventoryKind,
  stockLevelOf,
  type UnitMeasurement,
} from '@odontia/shared/enums';
import type { ErrorCode } from '@odontia/shared/errors';
import { priceWithTax, toCents } from '@odontia/shared/money';
import type { Page } from '@odontia/shared/schemas/common';
import {
  type InventoryImportResult,
  type InventoryItem,
  type InventoryListQuery,
  type MedicationInput,
  type StockMovement,
  type SupplyInput,
  suggestedOrderQuantity,
} from '@odontia/shared/schemas/inventory';
import type { RequestContext } from '../../context.ts';
import { guardUnique, violatedConstraint } from '../../db/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { audit } from '../audit/audit.repository.ts';
import * as stockRepository from '../stock/stock.repository.ts';
import { applyStockMovements, toStockMovement } from '../stock/stock.service.ts';
import { buildExportCsv, parseImport } from './inventory.csv.ts';
import * as repository from './inventory.repository.ts';

/**
 * Medicines and supplies (issue 4): one catalogue, `kind` telling them apart. Prices are
 * decimal strings end to end; the stock changes only through the stock service.
 */

export type ItemInput = MedicationInput | SupplyInput;
type UpdateInput = Omit<ItemInput, 'totalStock' | 'allowSimilarName'> & { version: number };

export const notFoundCode: Record<InventoryKind, ErrorCode> = {
  medication: 'medication_not_found',
  supply: 'supply_not_found',
};

/** Approval statuses a new medicine may start in. */
const startingApprovals: readonly ApprovalStatus[] = ['underReview', 'approved'];

/** Catalogue fields of each kind (what create and update write; the rest stays null). */
const commonKeys = [
  'name',
  'description',
  'manufacturer',
  'sku',
  'barCode',
  'costPrice',
  'basePrice',
  'taxRate',
  'minStock',
  'maxStock',
  'reorderStock',
  'storageConditions',
  'productStatus',
] as const;
const medicationKeys = [
  'activePrinciple',
  'concentration',
  'presentation',
  'applicationType',
  'prescriptionRequired',
  'approvalStatus',
  'ageRestriction',
  'dosage',
  'indications',
  'sideEffects',
  'contraindications',
] as const;
const supplyKeys = ['brand', 'model', 'consumable', 'unitMeasurement', 'packagingQty'] as const;

export function fieldsOf(kind: InventoryKind): readonly string[] {
  return [...commonKeys, ...(kind === 'medication' ? medicationKeys : supplyKeys)];
}

/** The columns of an input, only those of its kind. */
function columnsOf(kind: InventoryKind, input: Record<string, unknown>): Partial<repository.InventoryInsert> {
  const columns: Record<string, unknown> = {};
  for (const key of fieldsOf(kind)) columns[key] = input[key] ?? null;
  return columns as Partial<repository.InventoryInsert>;
}

export function toInventoryItem(
  row: repository.InventoryRow & Partial<repository.InventoryRowWithNames>,
): InventoryItem {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    manufacturer: row.manufacturer,
    sku: row.sku,
    barCode: row.barCode,
    costPrice: row.costPrice,
    basePrice: row.basePrice,
    taxRate: row.taxRate,
    priceWithTax: priceWithTax(row.basePrice, row.taxRate),
    lastCost: row.lastCost,
    averageCost: row.averageCost,
    totalStock: row.totalStock,
    minStock: row.minStock,
    maxStock: row.maxStock,
    reorderStock: row.reorderStock,
    stockLevel: stockLevelOf(row),
    storageConditions: row.storageConditions,
    productStatus: row.productStatus,
    activePrinciple: row.activePrinciple,
    concentration: row.concentration,
    presentation: row.presentation,
    applicationType: row.applicationType as ApplicationType | null,
    prescriptionRequired: row.prescriptionRequired,
    approvalStatus: row.approvalStatus,
    ageRestriction: row.ageRestriction as AgeGroup | null,
    dosage: row.dosage,
    indications: row.indications,
    sideEffects: row.sideEffects,
    contraindications: row.contraindications,
    brand: row.brand,
    model: row.model,
    consumable: row.consumable,
    unitMeasurement: row.unitMeasurement as UnitMeasurement | null,
    packagingQty: row.packagingQty,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName ?? null,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName ?? null,
    version: row.version,
  };
}

/** Equal values; decimal strings compare as numbers ('21' and '21.00' are the same rate). */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && decimalPattern.test(a) && decimalPattern.test(b)) {
    return toCents(a) === toCents(b);
  }
  return a === b;
}
const decimalPattern = /^-?\d+(\.\d+)?$/;

function duplicateError(conflict: repository.CodeConflict): AppError {
  return new AppError(conflict.field === 'sku' ? 'duplicate_sku' : 'duplicate_barcode', { ...conflict });
}

/** A unique index refused the row (two requests raced past the check): which code, and whose. */
function violatedField(error: unknown): 'sku' | 'barCode' | undefined {
  const constraint = violatedConstraint(error);
  if (constraint === 'inventory_items_sku_unique') return 'sku';
  if (constraint === 'inventory_items_bar_code_unique') return 'barCode';
  return undefined;
}

/**
 * Runs a write under a savepoint: a unique-index race becomes 409 duplicate_sku /
 * duplicate_barcode, naming the item that holds the code.
 */
function guardCodes<T>(
  ctx: RequestContext,
  codes: { sku: string | null; barCode: string | null },
  write: () => Promise<T>,
  exceptId?: string,
): Promise<T> {
  return guardUnique(ctx.tx, write, async (error) => {
    const field = violatedField(error);
    if (!field) throw error;
    const conflict = await repository.findCodeConflict(ctx, codes, exceptId);
    if (conflict) throw duplicateError(conflict);
    throw new AppError(field === 'sku' ? 'duplicate_sku' : 'duplicate_barcode', { field });
  });
}

async function findOfKind(ctx: RequestContext, kind: InventoryKind, id: string) {
  const row = await repository.findItem(ctx, kind, id);
  if (!row) throw new AppError(notFoundCode[kind]);
  return row;
}

async function getItem(ctx: RequestContext, kind: InventoryKind, id: string): Promise<InventoryItem> {
  return toInventoryItem(await findOfKind(ctx, kind, id));
}

/** The new items of a create or an import: the stock starts at 0 and comes in as 'initial' movements. */
function newItemRow(
  ctx: RequestContext,
  kind: InventoryKind,
  id: string,
  input: ItemInput,
): repository.InventoryInsert {
  return {
    ...columnsOf(kind, input),
    accountId: ctx.accountId,
    id,
    kind,
    name: input.name,
    costPrice: input.costPrice,
    basePrice: input.basePrice,
    taxRate: input.taxRate,
    totalStock: 0,
    createdBy: ctx.userId,
    updatedBy: ctx.userId,
  };
}

type Kind = { ctx: RequestContext; kind: InventoryKind };
type Item = Kind & { id: string };
type PageRequest = { page: number; pageSize: number };

export const inventoryService = {
  async list({ ctx, kind, query }: Kind & { query: InventoryListQuery }) {
    const { rows, total } = await repository.listItems(ctx.tx, ctx.accountId, kind, query);
    return { data: rows.map(toInventoryItem), total, page: query.page, pageSize: query.pageSize };
  },

  get({ ctx, kind, id }: Item): Promise<InventoryItem> {
    return getItem(ctx, kind, id);
  },

  async create({ ctx, kind, input }: Kind & { input: ItemInput }): Promise<InventoryItem> {
    if (kind === 'medication') {
      const approval = (input as MedicationInput).approvalStatus;
      if (!startingApprovals.includes(approval)) {
        throw new AppError('validation_error', { fields: [{ path: 'approvalStatus', code: 'invalid_transition' }] });
      }
    }
    // The same name but for accents and case is most often the same item typed again: the form asks first.
    if (!input.allowSimilarName) {
      const similar = await repository.findSimilarName(ctx, kind, input.name);
      if (similar) throw new AppError('inventory_similar_name', { existingId: similar.id, name: similar.name });
    }
    return guardCodes(ctx, input, async () => {
      const conflict = await repository.findCodeConflict(ctx, input);
      if (conflict) throw duplicateError(conflict);
      const id = newId();
      await repository.insertItems(ctx, [newItemRow(ctx, kind, id, input)]);
      if (input.totalStock > 0) {
        await applyStockMovements(ctx.tx, ctx, [{ itemId: id, kind: 'initial', quantity: input.totalStock }]);
      }
      const item = await getItem(ctx, kind, id);
      await audit(ctx, {
        action: `${kind}_created`,
        entity: kind,
        entityId: id,
        after: { ...columnsOf(kind, input), totalStock: input.totalStock },
      });
      return item;
    });
  },

  async update({ ctx, kind, id, input }: Item & { input: UpdateInput }): Promise<InventoryItem> {
    return guardCodes(
      ctx,
      input,
      async () => {
        const current = await repository.findItemForUpdate(ctx, kind, id);
        if (!current) throw new AppError(notFoundCode[kind]);
        if (current.version !== input.version) throw new AppError('version_conflict');
        if (kind === 'medication') {
          const from = current.approvalStatus ?? 'underReview';
          const to = (input as unknown as MedicationInput).approvalStatus;
          if (!canChangeApproval(from, to)) throw new AppError('invalid_transition', { from, to });
        }
        const conflict = await repository.findCodeConflict(ctx, input, id);
        if (conflict) throw duplicateError(conflict);
        const next = columnsOf(kind, input);
        const before: Record<string, unknown> = {};
        const after: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(next)) {
          const old = (current as Record<string, unknown>)[key];
          if (!sameValue(old, value)) {
            before[key] = old;
            after[key] = value;
          }
        }
        await repository.updateItem(ctx, id, { ...next, updatedBy: ctx.userId });
        await audit(ctx, { action: `${kind}_updated`, entity: kind, entityId: id, before, after });
        return getItem(ctx, kind, id);
      },
      id,
    );
  },

  async listMovements({ ctx, kind, id, query }: Item & { query: PageRequest }): Promise<Page<StockMovement>> {
    await findOfKind(ctx, kind, id);
    const { rows, total } = await stockRepository.listMovements(ctx, id, query);
    return { data: rows.map(toStockMovement), total, page: query.page, pageSize: query.pageSize };
  },

  async adjust({
    ctx,
    kind,
    id,
    input,
  }: Item & {
    input: { direction: 'in' | 'out'; quantity: number; reason: string; unitCost: string | null };
  }): Promise<{ item: InventoryItem; movement: StockMovement }> {
    const found = await findOfKind(ctx, kind, id);
    const { movements } = await applyStockMovements(ctx.tx, ctx, [
      {
        itemId: id,
        kind: input.direction === 'in' ? 'adjustment_in' : 'adjustment_out',
        quantity: input.direction === 'in' ? input.quantity : -input.quantity,
        reason: input.reason,
        unitCost: input.unitCost,
      },
    ]);
    const movementRow = movements[0];
    if (!movementRow) throw new Error('the adjustment wrote no movement');
    await audit(ctx, {
      action: 'stock_adjusted',
      entity: kind,
      entityId: id,
      before: { totalStock: found.totalStock },
      after: {
        totalStock: movementRow.stockAfter,
        quantity: movementRow.quantity,
        reason: input.reason,
        unitCost: input.unitCost,
      },
    });
    const movement = await stockRepository.findMovement(ctx, movementRow.id);
    if (!movement) throw new Error('the adjustment movement is missing');
    return { item: await getItem(ctx, kind, id), movement: toStockMovement(movement) };
  },

  async reorder({ ctx, query }: { ctx: RequestContext; query: PageRequest & { kind?: InventoryKind | undefined } }) {
    const { rows, total } = await repository.listReorder(ctx, query);
    return {
      data: rows.map((row) => ({ ...toInventoryItem(row), suggestedQuantity: suggestedOrderQuantity(row) })),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  },

  async exportCsv({
    ctx,
    kind,
    query,
  }: Kind & { query: repository.InventoryFilters }): Promise<{ csv: string; fileName: string }> {
    const rows = await repository.exportItems(ctx, kind, query);
    const day = clinicToday(ctx.timeZone);
    const prefix = kind === 'medication' ? 'farmacias' : 'insumos';
    return { csv: buildExportCsv(kind, rows.map(toInventoryItem)), fileName: `${prefix}-${day}.csv` };
  },

  /** A dry run answers the check; otherwise every row is created, or none (409 import_has_errors). */
  async importCsv({
    ctx,
    kind,
    input,
  }: Kind & { input: { content: string; dryRun: boolean } }): Promise<InventoryImportResult> {
    const parsed = parseImport(kind, input.content);
    return guardCodes(ctx, { sku: null, barCode: null }, async () => {
      const existing = await repository.existingCodes(
        ctx,
        parsed.rows.flatMap((row) => (row.value?.sku ? [row.value.sku.toLowerCase()] : [])),
        parsed.rows.flatMap((row) => (row.value?.barCode ? [row.value.barCode] : [])),
      );
      const errors = [...parsed.errors];
      for (const row of parsed.rows) {
        if (row.value?.sku && existing.skus.has(row.value.sku.toLowerCase())) {
          errors.push({ line: row.line, field: 'sku', code: 'already_exists' });
        }
        if (row.value?.barCode && existing.barCodes.has(row.value.barCode)) {
          errors.push({ line: row.line, field: 'barCode', code: 'already_exists' });
        }
      }
      errors.sort((a, b) => a.line - b.line);
      const total = parsed.rows.length;
      const valid = errors.length > 0 ? 0 : total;
      const preview = parsed.rows
        .filter((row) => row.value)
        .slice(0, 10)
        .map((row) => ({
          line: row.line,
          name: row.value?.name ?? '',
          sku: row.value?.sku ?? null,
          totalStock: row.value?.totalStock ?? 0,
        }));
      const result: InventoryImportResult = {
        total,
        valid,
        errors,
        ignoredColumns: parsed.ignoredColumns,
        preview,
        created: 0,
      };
      if (input.dryRun) return result;
      if (errors.length > 0) throw new AppError('import_has_errors', { errors, total });
      if (total === 0) return result;
      const items = parsed.rows.map((row) => {
        const value = row.value as ItemInput;
        return { id: newId(), totalStock: value.totalStock, value };
      });
      await repository.insertItems(
        ctx,
        items.map((item) => newItemRow(ctx, kind, item.id, item.value)),
      );
      await applyStockMovements(
        ctx.tx,
        ctx,
        items
          .filter((item) => item.totalStock > 0)
          .map((item) => ({ itemId: item.id, kind: 'initial', quantity: item.totalStock, referenceType: 'import' })),
      );
      await audit(ctx, { action: 'inventory_imported', entity: 'inventory', after: { kind, count: items.length } });
      return { ...result, created: items.length };
    });
  },
};
