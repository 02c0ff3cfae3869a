import { clinicToday } from '@odontia/shared/clinic-time';
import {
  type AgeGroup,
  type ApplicationType,
  type ApprovalStatus,
  canChangeApproval,
  type InventoryKind,
  type ProductStatus,
  stockLevelOf,
  type UnitMeasurement,
} from '@odontia/shared/enums';
import type { ErrorCode } from '@odontia/shared/errors';
import { priceWithTax, toCents } from '@odontia/shared/money';
import {
  type InventoryImportResult,
  type InventoryItem,
  type InventoryListQuery,
  type MedicationInput,
  type StockMovement,
  type SupplyInput,
  suggestedOrderQuantity,
} from '@odontia/shared/schemas/inventory';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { AuthSession } from '../../plugins/auth.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import * as stockRepository from '../stock/stock.repository.ts';
import { applyStockMovements, toStockMovement } from '../stock/stock.service.ts';
import { buildExportCsv, parseImport } from './inventory.csv.ts';
import * as repository from './inventory.repository.ts';

/**
 * Medicines and supplies (issue 4): one catalogue, `kind` telling them apart. Prices are
 * decimal strings end to end; the stock changes only through the stock service.
 */

export type ItemInput = MedicationInput | SupplyInput;
type UpdateInput = Omit<ItemInput, 'totalStock'> & { version: number };

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
    totalStock: row.totalStock,
    minStock: row.minStock,
    maxStock: row.maxStock,
    reorderStock: row.reorderStock,
    stockLevel: stockLevelOf(row),
    storageConditions: row.storageConditions,
    productStatus: row.productStatus as ProductStatus,
    activePrinciple: row.activePrinciple,
    concentration: row.concentration,
    presentation: row.presentation,
    applicationType: row.applicationType as ApplicationType | null,
    prescriptionRequired: row.prescriptionRequired,
    approvalStatus: row.approvalStatus as ApprovalStatus | null,
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
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (constraint === 'inventory_items_sku_unique') return 'sku';
    if (constraint === 'inventory_items_bar_code_unique') return 'barCode';
  }
  return undefined;
}

export interface InventoryServiceDeps {
  db: Database;
}

export function createInventoryService({ db }: InventoryServiceDeps) {
  /** Runs a write; a unique-index race becomes 409 duplicate_sku / duplicate_barcode. */
  async function writing<T>(
    session: AuthSession,
    codes: { sku: string | null; barCode: string | null },
    fn: (tx: TenantTx) => Promise<T>,
    exceptId?: string,
  ): Promise<T> {
    try {
      return await db.withTenant(session.accountId, fn);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const field = violatedField(error);
      if (!field) throw error;
      const conflict = await db.withTenant(session.accountId, (tx) =>
        repository.findCodeConflict(tx, session.accountId, codes, exceptId),
      );
      if (conflict) throw duplicateError(conflict);
      throw new AppError(field === 'sku' ? 'duplicate_sku' : 'duplicate_barcode', { field });
    }
  }

  async function getItem(tx: TenantTx, session: AuthSession, kind: InventoryKind, id: string) {
    const row = await repository.findItem(tx, session.accountId, kind, id);
    if (!row) throw new AppError(notFoundCode[kind]);
    return toInventoryItem(row);
  }

  return {
    async list(session: AuthSession, kind: InventoryKind, query: InventoryListQuery) {
      const { rows, total } = await db.withTenant(session.accountId, (tx) =>
        repository.listItems(tx, session.accountId, kind, query),
      );
      return { data: rows.map(toInventoryItem), total, page: query.page, pageSize: query.pageSize };
    },

    async get(session: AuthSession, kind: InventoryKind, id: string): Promise<InventoryItem> {
      return db.withTenant(session.accountId, (tx) => getItem(tx, session, kind, id));
    },

    async create(session: AuthSession, kind: InventoryKind, input: ItemInput, ip: string): Promise<InventoryItem> {
      if (kind === 'medication') {
        const approval = (input as MedicationInput).approvalStatus;
        if (!startingApprovals.includes(approval)) {
          throw new AppError('validation_error', { fields: [{ path: 'approvalStatus', code: 'invalid_transition' }] });
        }
      }
      return writing(session, input, async (tx) => {
        const conflict = await repository.findCodeConflict(tx, session.accountId, input);
        if (conflict) throw duplicateError(conflict);
        const id = newId();
        await repository.insertItems(tx, [
          {
            ...columnsOf(kind, input),
            accountId: session.accountId,
            id,
            kind,
            name: input.name,
            costPrice: input.costPrice,
            basePrice: input.basePrice,
            taxRate: input.taxRate,
            totalStock: 0,
            createdBy: session.userId,
            updatedBy: session.userId,
          },
        ]);
        if (input.totalStock > 0) {
          await applyStockMovements(tx, { accountId: session.accountId, userId: session.userId }, [
            { itemId: id, kind: 'initial', quantity: input.totalStock },
          ]);
        }
        const item = await getItem(tx, session, kind, id);
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          action: `${kind}_created`,
          entity: kind,
          entityId: id,
          ip,
          after: { ...columnsOf(kind, input), totalStock: input.totalStock },
        });
        return item;
      });
    },

    async update(
      session: AuthSession,
      kind: InventoryKind,
      id: string,
      input: UpdateInput,
      ip: string,
    ): Promise<InventoryItem> {
      return writing(
        session,
        input,
        async (tx) => {
          const current = await repository.findItemForUpdate(tx, session.accountId, kind, id);
          if (!current) throw new AppError(notFoundCode[kind]);
          if (current.version !== input.version) throw new AppError('version_conflict');
          if (kind === 'medication') {
            const from = (current.approvalStatus ?? 'underReview') as ApprovalStatus;
            const to = (input as unknown as MedicationInput).approvalStatus;
            if (!canChangeApproval(from, to)) throw new AppError('invalid_transition', { from, to });
          }
          const conflict = await repository.findCodeConflict(tx, session.accountId, input, id);
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
          await repository.updateItem(tx, session.accountId, id, { ...next, updatedBy: session.userId });
          await recordAuditEvent(tx, {
            accountId: session.accountId,
            userId: session.userId,
            action: `${kind}_updated`,
            entity: kind,
            entityId: id,
            ip,
            before,
            after,
          });
          return getItem(tx, session, kind, id);
        },
        id,
      );
    },

    async listMovements(
      session: AuthSession,
      kind: InventoryKind,
      id: string,
      page: { page: number; pageSize: number },
    ): Promise<{ data: StockMovement[]; total: number; page: number; pageSize: number }> {
      return db.withTenant(session.accountId, async (tx) => {
        const item = await repository.findItem(tx, session.accountId, kind, id);
        if (!item) throw new AppError(notFoundCode[kind]);
        const { rows, total } = await stockRepository.listMovements(tx, session.accountId, id, page);
        return { data: rows.map(toStockMovement), total, page: page.page, pageSize: page.pageSize };
      });
    },

    async adjust(
      session: AuthSession,
      kind: InventoryKind,
      id: string,
      input: { direction: 'in' | 'out'; quantity: number; reason: string; unitCost: string | null },
      ip: string,
    ): Promise<{ item: InventoryItem; movement: StockMovement }> {
      return db.withTenant(session.accountId, async (tx) => {
        const found = await repository.findItem(tx, session.accountId, kind, id);
        if (!found) throw new AppError(notFoundCode[kind]);
        const { movements } = await applyStockMovements(tx, { accountId: session.accountId, userId: session.userId }, [
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
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          action: 'stock_adjusted',
          entity: kind,
          entityId: id,
          ip,
          before: { totalStock: found.totalStock },
          after: {
            totalStock: movementRow.stockAfter,
            quantity: movementRow.quantity,
            reason: input.reason,
            unitCost: input.unitCost,
          },
        });
        const movement = await stockRepository.findMovement(tx, session.accountId, movementRow.id);
        if (!movement) throw new Error('the adjustment movement is missing');
        return { item: await getItem(tx, session, kind, id), movement: toStockMovement(movement) };
      });
    },

    async reorder(session: AuthSession, query: { kind?: InventoryKind | undefined; page: number; pageSize: number }) {
      const { rows, total } = await db.withTenant(session.accountId, (tx) =>
        repository.listReorder(tx, session.accountId, query),
      );
      return {
        data: rows.map((row) => ({ ...toInventoryItem(row), suggestedQuantity: suggestedOrderQuantity(row) })),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    async exportCsv(
      session: AuthSession,
      kind: InventoryKind,
      filters: repository.InventoryFilters,
    ): Promise<{ csv: string; fileName: string }> {
      const rows = await db.withTenant(session.accountId, (tx) =>
        repository.exportItems(tx, session.accountId, kind, filters),
      );
      const day = clinicToday(session.timeZone);
      const prefix = kind === 'medication' ? 'farmacias' : 'insumos';
      return { csv: buildExportCsv(kind, rows.map(toInventoryItem)), fileName: `${prefix}-${day}.csv` };
    },

    async importCsv(
      session: AuthSession,
      kind: InventoryKind,
      input: { content: string; dryRun: boolean },
      ip: string,
    ): Promise<InventoryImportResult> {
      const parsed = parseImport(kind, input.content);
      return writing(session, { sku: null, barCode: null }, async (tx) => {
        const existing = await repository.existingCodes(
          tx,
          session.accountId,
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
          return {
            id: newId(),
            totalStock: value.totalStock,
            row: {
              ...columnsOf(kind, value),
              accountId: session.accountId,
              id: '',
              kind,
              name: value.name,
              costPrice: value.costPrice,
              basePrice: value.basePrice,
              taxRate: value.taxRate,
              totalStock: 0,
              createdBy: session.userId,
              updatedBy: session.userId,
            } satisfies repository.InventoryInsert,
          };
        });
        await repository.insertItems(
          tx,
          items.map((item) => ({ ...item.row, id: item.id })),
        );
        await applyStockMovements(
          tx,
          { accountId: session.accountId, userId: session.userId },
          items
            .filter((item) => item.totalStock > 0)
            .map((item) => ({ itemId: item.id, kind: 'initial', quantity: item.totalStock, referenceType: 'import' })),
        );
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          action: 'inventory_imported',
          entity: 'inventory',
          ip,
          after: { kind, count: items.length },
        });
        return { ...result, created: items.length };
      });
    },
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
