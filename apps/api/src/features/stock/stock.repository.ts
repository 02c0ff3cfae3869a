import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { countRows, type TenantScope } from '../../db/list-query.ts';
import { sameClinicRow } from '../../db/records.ts';
import { inventoryItems, stockMovements, users } from '../../db/schema/index.ts';

/** The stock ledger: locked item rows, one batched stock update, one multi-row insert of movements. */

export type StockMovementRow = typeof stockMovements.$inferSelect;
export type LockedItem = { id: string; kind: 'medication' | 'supply'; name: string; totalStock: number };

/**
 * Locks the items in id order (a consistent order: two transactions never wait on each other in a
 * cycle). FOR NO KEY UPDATE, the lock the stock UPDATE itself takes: it does not wait for the
 * KEY SHARE locks that rows referencing the item (an attendance's items, a prescription's lines)
 * take, so a transaction that wrote such a row before moving stock cannot deadlock with another
 * doing the same, which FOR UPDATE did (two saves of the last units at once).
 */
export async function lockItems({ tx, accountId }: TenantScope, ids: string[]): Promise<LockedItem[]> {
  return tx
    .select({
      id: inventoryItems.id,
      kind: inventoryItems.kind,
      name: inventoryItems.name,
      totalStock: inventoryItems.totalStock,
    })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.accountId, accountId), inArray(inventoryItems.id, ids)))
    .orderBy(asc(inventoryItems.id))
    .for('no key update');
}

/** Sets the stock of several items in one statement. */
export async function setStocks(
  { tx, accountId }: TenantScope,
  stocks: { id: string; totalStock: number }[],
): Promise<void> {
  if (stocks.length === 0) return;
  const values = sql.join(
    stocks.map((stock) => sql`(${stock.id}::uuid, ${stock.totalStock}::int)`),
    sql`, `,
  );
  await tx.execute(sql`
    update inventory_items as i set total_stock = v.total_stock
    from (values ${values}) as v(id, total_stock)
    where i.account_id = ${accountId}::uuid and i.id = v.id`);
}

const insertChunk = 1000;

export async function insertMovements(
  { tx }: TenantScope,
  rows: (typeof stockMovements.$inferInsert)[],
): Promise<StockMovementRow[]> {
  const inserted: StockMovementRow[] = [];
  for (let start = 0; start < rows.length; start += insertChunk) {
    inserted.push(
      ...(await tx
        .insert(stockMovements)
        .values(rows.slice(start, start + insertChunk))
        .returning()),
    );
  }
  return inserted;
}

export type StockMovementWithUser = StockMovementRow & { userName: string | null };

const movementColumns = {
  accountId: stockMovements.accountId,
  id: stockMovements.id,
  itemId: stockMovements.itemId,
  kind: stockMovements.kind,
  quantity: stockMovements.quantity,
  stockAfter: stockMovements.stockAfter,
  unitCost: stockMovements.unitCost,
  reason: stockMovements.reason,
  referenceType: stockMovements.referenceType,
  referenceId: stockMovements.referenceId,
  userId: stockMovements.userId,
  createdAt: stockMovements.createdAt,
  userName: users.completeName,
};

/** An item's movements, newest first, with the name of who made each. */
export async function listMovements(
  { tx, accountId }: TenantScope,
  itemId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: StockMovementWithUser[]; total: number }> {
  const where: SQL | undefined = and(eq(stockMovements.accountId, accountId), eq(stockMovements.itemId, itemId));
  const rows = await tx
    .select(movementColumns)
    .from(stockMovements)
    .leftJoin(users, sameClinicRow(users, stockMovements, stockMovements.userId))
    .where(where)
    .orderBy(desc(stockMovements.createdAt), desc(stockMovements.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  return { rows, total: await countRows(tx, stockMovements, where) };
}

export async function findMovement(
  { tx, accountId }: TenantScope,
  id: string,
): Promise<StockMovementWithUser | undefined> {
  const [row] = await tx
    .select(movementColumns)
    .from(stockMovements)
    .leftJoin(users, sameClinicRow(users, stockMovements, stockMovements.userId))
    .where(and(eq(stockMovements.accountId, accountId), eq(stockMovements.id, id)));
  return row;
}
