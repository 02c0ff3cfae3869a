/**
 * The bench catalogues (the `inventory` and `installation` benches): medicines and supplies named
 * from the words staff type, so searches find realistic shares of a catalogue. Written in bulk
 * with SQL (superuser connection).
 */
import { type SQL, sql } from 'drizzle-orm';
import { type SqlRunner, sqlArray } from './bench-kit.ts';

// Words staff type: the catalogue is built from them, so searches find realistic shares of it.
const medicineWords = [
  'Lidocaína',
  'Articaína',
  'Mepivacaína',
  'Prilocaína',
  'Amoxicilina',
  'Clindamicina',
  'Metronidazol',
  'Ibuprofeno',
  'Ketorolac',
  'Paracetamol',
  'Dexametasona',
  'Clorhexidina',
  'Benzocaína',
  'Diclofenac',
  'Azitromicina',
  'Cefalexina',
];
const supplyWords = [
  'Guantes de nitrilo',
  'Composite',
  'Ionómero vítreo',
  'Fresa diamantada',
  'Lima K',
  'Cono de papel',
  'Eyector de saliva',
  'Babero descartable',
  'Barbijo triple capa',
  'Aguja dental',
  'Hilo retractor',
  'Implante cónico',
  'Gasa estéril',
  'Algodón en rollos',
  'Resina fluida',
  'Adhesivo universal',
];
const variants = [
  'A1',
  'A2',
  'A3',
  'B1',
  '2%',
  '4%',
  '500 mg',
  '400 mg',
  'talle S',
  'talle M',
  'talle L',
  'x100',
  'x50',
];
const manufacturers = ['Bagó', 'Roemmers', 'Elea', 'Densell', '3M', 'Ivoclar', 'Dentsply', 'Medix', 'Voco', 'Coltene'];

/**
 * Items from `source`, a FROM item with the columns `account_id`, `user_id` and `i` (the item's
 * number in its clinic): even numbers medicines, odd supplies; names from the word lists, a
 * variant and the number.
 */
export async function insertItems(db: SqlRunner, source: SQL): Promise<void> {
  await db.execute(sql`
    insert into inventory_items (account_id, id, kind, name, manufacturer, sku, bar_code, cost_price, base_price, tax_rate,
      total_stock, min_stock, reorder_stock, max_stock, product_status, active_principle, approval_status,
      prescription_required, application_type, consumable, unit_measurement, created_by, updated_by)
    select account_id,
      uuid_generate_v7_bench(i),
      case when i % 2 = 0 then 'medication' else 'supply' end,
      case when i % 2 = 0
        then (${sqlArray(medicineWords)})[1 + (i / 2) % ${medicineWords.length}]
        else (${sqlArray(supplyWords)})[1 + (i / 2) % ${supplyWords.length}] end
        || ' ' || (${sqlArray(variants)})[1 + (i / 7) % ${variants.length}] || ' ' || i,
      (${sqlArray(manufacturers)})[1 + i % ${manufacturers.length}],
      'SKU-' || lpad(i::text, 6, '0'),
      '779' || lpad(i::text, 10, '0'),
      (100 + (i % 900))::numeric(14,2), (180 + (i % 1500))::numeric(14,2), case when i % 3 = 0 then 10.5 else 21 end,
      0, 5, 10, 200, 'active',
      case when i % 2 = 0 then lower((${sqlArray(medicineWords)})[1 + (i / 2) % ${medicineWords.length}]) end,
      case when i % 2 = 0 then 'approved' end,
      case when i % 2 = 0 then (i % 4 = 0) end,
      case when i % 2 = 0 then 'oral' end,
      case when i % 2 = 1 then true end,
      case when i % 2 = 1 then 'unit' end,
      user_id, user_id
    from ${source}`);
}

/** Search terms: 3-letter prefixes and middle-of-word fragments of the catalogue's words. */
export const itemPrefixes = ['lid', 'gua', 'com', 'amo', 'ibu', 'fre', 'imp', 'anes', 'clo', 'ket'];
export const itemFragments = ['ocai', 'trilo', 'xicil', 'dazol', 'amant', 'fenac', 'rofen', 'tract'];
