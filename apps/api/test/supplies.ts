import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import type { TestClinicContext } from './test-clinic.ts';

/**
 * A supply created through POST /api/supplies as `token` (the clinic's administrator by default):
 * counted by the unit, VAT 21 %, no stock thresholds, none in stock, unless `body` says otherwise.
 * Its id.
 */
export async function createSupply(
  t: TestClinicContext,
  body: { name: string } & Record<string, unknown>,
  token?: string,
): Promise<string> {
  return t
    .created<{ id: string }>('/api/supplies', {
      token,
      body: {
        unitMeasurement: 'unit',
        costPrice: '10',
        basePrice: '20',
        taxRate: '21',
        minStock: 0,
        reorderStock: 0,
        totalStock: 0,
        ...body,
      },
    })
    .then((data) => data.id);
}

/** Boxes of 100 nitrile gloves as the catalogue sells them (VAT 10.5 %): a supply's fields but its name and stock. */
export const nitrileGlovesBox = {
  brand: 'Descarpack',
  unitMeasurement: 'box',
  packagingQty: 100,
  costPrice: '5000',
  basePrice: '7000',
  taxRate: '10.5',
};

/**
 * The stock ledger's invariant, broken: the items whose stock is not the sum of their movements
 * (none, when every write kept it).
 */
export async function stockLedgerMismatches(db: Pick<Database, 'orm'>) {
  const { rows } = await db.orm.execute<{ id: string; total_stock: number; sum: number }>(sql`
    select i.id, i.total_stock, coalesce(m.sum, 0)::int as sum
    from inventory_items i
    left join (select account_id, item_id, sum(quantity) as sum from stock_movements group by 1, 2) m
      on m.account_id = i.account_id and m.item_id = i.id
    where i.total_stock <> coalesce(m.sum, 0)`);
  return rows;
}
