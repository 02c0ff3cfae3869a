import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { stockLedgerMismatches } from '../../../test/supplies.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';
import { applyStockMovements, type StockMovementInput } from './stock.service.ts';

/** The one mechanism that changes stock: all or nothing, locked, the ledger always adds up. */
describe.each(availableBackends())('stock service on %s', (backend) => {
  const t = useTestClinic(backend);

  async function item(name: string, totalStock: number, base = 'supplies') {
    return (
      await t.created<{ id: string }>(`/api/${base}`, {
        body: { name, basePrice: '10', costPrice: '5', taxRate: '21', minStock: 0, reorderStock: 0, totalStock },
      })
    ).id;
  }
  const apply = (movements: StockMovementInput[], accountId = t.clinic.accountId) =>
    t.db.withTenant(accountId, (tx) => applyStockMovements(tx, { accountId, userId: t.clinic.userId }, movements));
  async function stocks(ids: string[]) {
    const { rows } = await t.db.orm.execute<{ id: string; total_stock: number }>(
      sql`select id, total_stock from inventory_items where id in ${sql.raw(`('${ids.join("','")}')`)}`,
    );
    return Object.fromEntries(ids.map((id) => [id, rows.find((row) => row.id === id)?.total_stock]));
  }
  const movementCount = async () =>
    (await t.db.orm.execute<{ n: number }>(sql`select count(*)::int as n from stock_movements`)).rows[0]?.n;

  afterEach(async () => {
    expect(await stockLedgerMismatches(t.db)).toEqual([]);
  });

  it('applies several movements of several items at once, with the stock after each', async () => {
    const a = await item('Fresas diamantadas', 10);
    const b = await item('Conos de papel', 4, 'medications');
    const referenceId = newId();
    const result = await apply([
      { itemId: a, kind: 'sale', quantity: -3, referenceType: 'sale', referenceId },
      { itemId: b, kind: 'consumption', quantity: -4, referenceType: 'attendance', referenceId },
      { itemId: a, kind: 'purchase', quantity: 5, unitCost: '7.25' },
      { itemId: a, kind: 'return', quantity: 1 },
      { itemId: b, kind: 'return', quantity: 2 },
    ]);
    expect(result.movements.map((movement) => [movement.itemId, movement.quantity, movement.stockAfter])).toEqual([
      [a, -3, 7],
      [b, -4, 0],
      [a, 5, 12],
      [a, 1, 13],
      [b, 2, 2],
    ]);
    expect(result.movements[2]).toMatchObject({ unitCost: '7.25', userId: t.clinic.userId });
    expect(result.items.find((entry) => entry.id === a)?.totalStock).toBe(13);
    expect(await stocks([a, b])).toEqual({ [a]: 13, [b]: 2 });
  });

  it('one short item applies nothing and names every short item', async () => {
    const a = await item('Agujas dentales cortas', 10);
    const b = await item('Hilo retractor', 1);
    const c = await item('Limas K', 2);
    const before = await movementCount();
    const attempt = apply([
      { itemId: a, kind: 'sale', quantity: -5 },
      { itemId: b, kind: 'sale', quantity: -1 },
      { itemId: b, kind: 'sale', quantity: -1 },
      { itemId: c, kind: 'consumption', quantity: -3 },
    ]);
    await expect(attempt).rejects.toMatchObject({
      code: 'insufficient_stock',
      details: {
        items: expect.arrayContaining([
          { id: b, kind: 'supply', name: 'Hilo retractor', available: 1, requested: 2 },
          { id: c, kind: 'supply', name: 'Limas K', available: 2, requested: 3 },
        ]),
      },
    });
    expect((await attempt.catch((error) => error)).details.items).toHaveLength(2);
    expect(await stocks([a, b, c])).toEqual({ [a]: 10, [b]: 1, [c]: 2 });
    expect(await movementCount()).toBe(before);
  });

  it("refuses an unknown item, another clinic's item, a zero or wrongly signed quantity", async () => {
    const own = await item('Baberos', 3);
    const unknown = newId();
    await expect(apply([{ itemId: unknown, kind: 'purchase', quantity: 1 }])).rejects.toMatchObject({
      code: 'inventory_item_not_found',
      details: { itemId: unknown },
    });
    await expect(apply([{ itemId: own, kind: 'purchase', quantity: 1 }], t.other.accountId)).rejects.toMatchObject({
      code: 'inventory_item_not_found',
    });
    await expect(apply([{ itemId: own, kind: 'purchase', quantity: 0 }])).rejects.toThrow(/non-zero/);
    await expect(apply([{ itemId: own, kind: 'sale', quantity: 2 }])).rejects.toThrow(/< 0/);
    await expect(apply([{ itemId: own, kind: 'initial', quantity: -1 }])).rejects.toThrow(/> 0/);
    await expect(apply([{ itemId: own, kind: 'purchase', quantity: 1.5 }])).rejects.toThrow(/whole/);
    expect(await stocks([own])).toEqual({ [own]: 3 });
  });

  it('does not let a list dip below zero before a later in-flow of the same item', async () => {
    const a = await item('Composite A2', 0);
    await expect(
      apply([
        { itemId: a, kind: 'sale', quantity: -2 },
        { itemId: a, kind: 'purchase', quantity: 5 },
      ]),
    ).rejects.toMatchObject({ code: 'insufficient_stock' });
    expect(await stocks([a])).toEqual({ [a]: 0 });
  });

  it('concurrent multi-item decrements in opposite orders neither deadlock nor oversell', async () => {
    const a = await item('Implante 3,5 x 10', 10);
    const b = await item('Ionómero vítreo', 10);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        apply(
          index % 2 === 0
            ? [
                { itemId: a, kind: 'sale', quantity: -1 },
                { itemId: b, kind: 'sale', quantity: -1 },
              ]
            : [
                { itemId: b, kind: 'consumption', quantity: -1 },
                { itemId: a, kind: 'consumption', quantity: -1 },
              ],
        ),
      ),
    );
    const applied = results.filter((result) => result.status === 'fulfilled').length;
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'insufficient_stock' });
    }
    expect(applied).toBe(10);
    expect(await stocks([a, b])).toEqual({ [a]: 0, [b]: 0 });
  });

  it.skipIf(backend === 'pglite')(
    'does not wait for a row that references the item (the foreign-key lock of an open save)',
    async () => {
      const a = await item('Hilo de sutura', 5);
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let referenced: () => void = () => {};
      const isReferenced = new Promise<void>((resolve) => {
        referenced = resolve;
      });
      // An open save that has just written a row pointing at the item: PostgreSQL holds
      // FOR KEY SHARE on the item until that transaction ends.
      const openSave = t.db.withTenant(t.clinic.accountId, async (tx) => {
        await tx.execute(sql`select id from inventory_items where id = ${a} for key share`);
        referenced();
        await released;
      });
      await isReferenced;
      try {
        const moved = await t.db.withTenant(t.clinic.accountId, async (tx) => {
          await tx.execute(sql`set local lock_timeout = '2s'`);
          return applyStockMovements(tx, { accountId: t.clinic.accountId, userId: t.clinic.userId }, [
            { itemId: a, kind: 'consumption', quantity: -1 },
          ]);
        });
        expect(moved.items[0]?.totalStock).toBe(4);
      } finally {
        release();
        await openSave;
      }
      expect(await stocks([a])).toEqual({ [a]: 4 });
    },
  );
});
