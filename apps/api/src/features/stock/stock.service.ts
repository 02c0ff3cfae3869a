import { type StockMovementKind, stockMovementDirection } from '@odontia/shared/enums';
import { maxStockQuantity, type StockMovement } from '@odontia/shared/schemas/inventory';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import * as repository from './stock.repository.ts';

/**
 * The ONE way stock changes (ARCHITECTURE §4 "Stock and ledgers"). Purchases, sales,
 * attendances, adjustments and imports call `applyStockMovements` inside their own
 * transaction: it locks every touched item in id order (one query), checks that no item goes
 * below zero — naming every short item and applying nothing otherwise — then sets the stocks
 * in one UPDATE and appends the movements in one INSERT, each with the stock right after it.
 *
 * A stock change does not bump the item's `version` or `updated_at`: those describe the
 * catalogue data someone edits, and a sale must not turn an open edit form stale. The history
 * of the stock is the ledger.
 */

export interface StockMovementInput {
  itemId: string;
  kind: StockMovementKind;
  /** Signed: positive in, negative out; the sign must match the kind ('return' either way); never 0. */
  quantity: number;
  /** Decimal string, e.g. '12.50'. */
  unitCost?: string | null;
  reason?: string | null;
  referenceType?: string | null;
  referenceId?: string | null;
}

export interface StockContext {
  accountId: string;
  userId: string | null;
}

export interface AppliedStock {
  items: repository.LockedItem[];
  movements: repository.StockMovementRow[];
}

export interface ShortItem {
  id: string;
  kind: string;
  name: string;
  available: number;
  requested: number;
}

export async function applyStockMovements(
  tx: TenantTx,
  context: StockContext,
  movements: StockMovementInput[],
): Promise<AppliedStock> {
  if (movements.length === 0) return { items: [], movements: [] };
  for (const movement of movements) {
    const direction = stockMovementDirection[movement.kind];
    if (direction === undefined) throw new TypeError(`unknown stock movement kind ${movement.kind}`);
    if (!Number.isSafeInteger(movement.quantity) || movement.quantity === 0) {
      throw new TypeError(`stock movement quantity must be a non-zero whole number, got ${movement.quantity}`);
    }
    if (direction !== 0 && Math.sign(movement.quantity) !== direction) {
      throw new TypeError(`a ${movement.kind} movement must have quantity ${direction > 0 ? '> 0' : '< 0'}`);
    }
  }
  const ids = [...new Set(movements.map((movement) => movement.itemId))].sort();
  const scope = { tx, accountId: context.accountId };
  const locked = await repository.lockItems(scope, ids);
  const byId = new Map(locked.map((item) => [item.id, item]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing) throw new AppError('inventory_item_not_found', { itemId: missing });

  // Net change and the largest out-flow asked of each item (all of one item's movements at once).
  const net = new Map<string, number>();
  const out = new Map<string, number>();
  for (const movement of movements) {
    net.set(movement.itemId, (net.get(movement.itemId) ?? 0) + movement.quantity);
    if (movement.quantity < 0) out.set(movement.itemId, (out.get(movement.itemId) ?? 0) - movement.quantity);
  }
  const short: ShortItem[] = [];
  for (const item of locked) {
    const change = net.get(item.id) ?? 0;
    if (item.totalStock + change < 0) {
      short.push({
        id: item.id,
        kind: item.kind,
        name: item.name,
        available: item.totalStock,
        requested: out.get(item.id) ?? -change,
      });
    }
  }
  if (short.length > 0) throw new AppError('insufficient_stock', { items: short });

  // Running stock per item, in the order the movements were given; a later out-flow of an item
  // may follow its in-flow in the same list, so stock_after is checked step by step too.
  const running = new Map(locked.map((item) => [item.id, item.totalStock]));
  const createdAt = new Date();
  const rows = movements.map((movement) => {
    const stockAfter = (running.get(movement.itemId) ?? 0) + movement.quantity;
    running.set(movement.itemId, stockAfter);
    return {
      accountId: context.accountId,
      id: newId(),
      itemId: movement.itemId,
      kind: movement.kind,
      quantity: movement.quantity,
      stockAfter,
      unitCost: movement.unitCost ?? null,
      reason: movement.reason ?? null,
      referenceType: movement.referenceType ?? null,
      referenceId: movement.referenceId ?? null,
      userId: context.userId,
      createdAt,
    };
  });
  const dipping = rows.find((row) => row.stockAfter < 0);
  if (dipping) {
    const item = byId.get(dipping.itemId);
    throw new AppError('insufficient_stock', {
      items: [
        {
          id: dipping.itemId,
          kind: item?.kind,
          name: item?.name,
          available: item?.totalStock ?? 0,
          requested: out.get(dipping.itemId) ?? 0,
        },
      ],
    });
  }
  // Issue 35: no item holds more than the contracts' bound (the int columns hold about twice it),
  // whichever path adds the stock: an adjustment, a delivery note, a count.
  const overfull = locked.filter((item) => (running.get(item.id) ?? 0) > maxStockQuantity);
  if (overfull.length > 0) {
    throw new AppError('stock_above_limit', {
      items: overfull.map((item) => ({
        id: item.id,
        kind: item.kind,
        name: item.name,
        available: item.totalStock,
        max: maxStockQuantity,
      })),
    });
  }
  await repository.setStocks(
    scope,
    locked.map((item) => ({ id: item.id, totalStock: running.get(item.id) ?? item.totalStock })),
  );
  const inserted = await repository.insertMovements(scope, rows);
  return {
    items: locked.map((item) => ({ ...item, totalStock: running.get(item.id) ?? item.totalStock })),
    movements: inserted,
  };
}

export function toStockMovement(row: repository.StockMovementWithUser): StockMovement {
  return {
    id: row.id,
    itemId: row.itemId,
    kind: row.kind,
    quantity: row.quantity,
    stockAfter: row.stockAfter,
    unitCost: row.unitCost,
    reason: row.reason,
    referenceType: row.referenceType,
    referenceId: row.referenceId,
    userId: row.userId,
    userName: row.userName,
    createdAt: row.createdAt.toISOString(),
  };
}
