import { medicationRoutes, supplyRoutes } from '@odontia/shared/routes/inventory';
import { maxStockQuantity } from '@odontia/shared/schemas/inventory';
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestClinic, setLevel, type TestClinic } from '../../../test/clinics.ts';
import { declaredCollection, describeRecordContract } from '../../../test/record-contract.ts';
import { nitrileGlovesBox, stockLedgerMismatches } from '../../../test/supplies.ts';
import { expectAnswer, expectFieldErrors, type Method, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { listAuditEvents } from '../audit/audit.repository.ts';
import { listItems } from './inventory.repository.ts';

/** Medicines and supplies: catalogue, search, stock adjustments, reorder list, CSV (issue 4). */
describe.each(availableBackends())('inventory on %s', (backend) => {
  const t = useTestClinic(backend);

  let counter = 0;
  const medication = (overrides: Record<string, unknown> = {}) => {
    counter += 1;
    return {
      name: `Lidocaína ${counter}`,
      activePrinciple: 'Lidocaína clorhidrato',
      costPrice: '100',
      basePrice: '150.5',
      taxRate: '21',
      minStock: 2,
      reorderStock: 5,
      maxStock: 50,
      totalStock: 10,
      approvalStatus: 'approved',
      ...overrides,
    };
  };
  const supply = (overrides: Record<string, unknown> = {}) => {
    counter += 1;
    return {
      name: `Guantes de nitrilo ${counter}`,
      ...nitrileGlovesBox,
      minStock: 1,
      reorderStock: 3,
      totalStock: 8,
      ...overrides,
    };
  };
  async function create(base: 'medications' | 'supplies', body: object, token = t.clinic.token) {
    return t.created<{ id: string; version: number; totalStock: number; [key: string]: unknown }>(`/api/${base}`, {
      token,
      body,
    });
  }

  // The ledger invariant, after every scenario: the stock of every item is the sum of its movements,
  // and its newest movement says the same.
  afterEach(async () => {
    expect(await stockLedgerMismatches(t.db)).toEqual([]);
    const { rows: lastRows } = await t.db.orm.execute<{ id: string }>(sql`
      select i.id from inventory_items i
      join lateral (select stock_after from stock_movements s where s.account_id = i.account_id and s.item_id = i.id
                    order by created_at desc, id desc limit 1) last on true
      where last.stock_after <> i.total_stock`);
    expect(lastRows).toEqual([]);
  });

  describeRecordContract(t, {
    entity: 'medication',
    ...declaredCollection(medicationRoutes.list),
    table: 'inventory_items',
    body: () => medication(),
    update: {
      body: () => medication({ name: 'Ibuprofeno 600 mg', basePrice: '200' }),
      shows: { name: 'Ibuprofeno 600 mg', basePrice: '200.00', totalStock: 10 },
      conflictShowsCurrent: false,
    },
    permissions: { read: 'inventory.read', write: 'inventory.write' },
  });
  describeRecordContract(t, {
    entity: 'supply',
    ...declaredCollection(supplyRoutes.list),
    table: 'inventory_items',
    body: () => supply(),
    update: {
      body: () => supply({ name: 'Guantes de látex', basePrice: '8000' }),
      shows: { name: 'Guantes de látex' },
      conflictShowsCurrent: false,
    },
    permissions: { read: 'inventory.read', write: 'inventory.write' },
  });

  describe('catalogue', () => {
    it('asks before a second item named as one of its catalogue but for accents and case (409 inventory_similar_name)', async () => {
      const first = await create('supplies', supply({ name: 'Hilo de sutura reabsorbible' }));
      const again = await t.call('POST', '/api/supplies', { body: supply({ name: '  HILO de SÚTURA reabsorbible ' }) });
      expectAnswer(again, 409, {
        code: 'inventory_similar_name',
        details: { existingId: first.id, name: 'Hilo de sutura reabsorbible' },
      });
      // Asked again with the override, it is created; the other catalogue is not compared.
      await create('supplies', supply({ name: 'Hilo de sutura reabsorbible', allowSimilarName: true }));
      await create('medications', medication({ name: 'Hilo de sutura reabsorbible' }));
      // Another name (ñ is not n) goes through.
      await create('supplies', supply({ name: 'Cuña de madera' }));
      await create('supplies', supply({ name: 'Cuna de madera' }));
    });

    it('creates a medicine with its initial stock as a movement, price with tax and stock level', async () => {
      const response = await t.call('POST', '/api/medications', { body: medication({ name: 'Articaína 4%' }) });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body.code).toBe('medication_created');
      expect(body.data).toMatchObject({
        kind: 'medication',
        name: 'Articaína 4%',
        costPrice: '100.00',
        basePrice: '150.50',
        taxRate: '21.00',
        priceWithTax: '182.11',
        totalStock: 10,
        stockLevel: 'ok',
        approvalStatus: 'approved',
        brand: null,
        consumable: null,
        version: 1,
      });
      expect(body.data.createdByName).toMatch(/^Ana Pérez/);
      const movements = await t.call('GET', `/api/medications/${body.data.id}/stock-movements`);
      expect(movements.json()).toMatchObject({
        total: 1,
        data: [{ kind: 'initial', quantity: 10, stockAfter: 10, userId: t.clinic.userId }],
      });
      expect(movements.json().data[0].userName).toMatch(/^Ana Pérez/);
      const audit = await t.auditEvents('medication_created');
      expect(audit.map((event) => event.entityId)).toContain(body.data.id);
    });

    it('creates a supply without stock: no movement, medicine fields null', async () => {
      const item = await create('supplies', supply({ totalStock: 0 }));
      expect(item).toMatchObject({ kind: 'supply', totalStock: 0, stockLevel: 'critical', approvalStatus: null });
      expect(item.unitMeasurement).toBe('box');
      expect((await t.call('GET', `/api/supplies/${item.id}/stock-movements`)).json().total).toBe(0);
    });

    it('computes the price with tax half-up on cents', async () => {
      const ten = await create('supplies', supply({ basePrice: '10.00', taxRate: '21', totalStock: 0 }));
      expect(ten.priceWithTax).toBe('12.10');
      // 0.05 × 1.10 = 0.055 → 0.06 half-up (a float would give 0.05500000000000001 or banker's 0.06/0.05).
      const half = await create('supplies', supply({ basePrice: '0.05', taxRate: '10', totalStock: 0 }));
      expect(half.priceWithTax).toBe('0.06');
      // 1.15 × 1.5 = 1.725 → 1.73 (a float says 1.7249999…)
      const other = await create('supplies', supply({ basePrice: '1.15', taxRate: '50', totalStock: 0 }));
      expect(other.priceWithTax).toBe('1.73');
    });

    it('validates every field with field codes', async () => {
      const cases: [Record<string, unknown>, { path: string; code: string; min?: number; max?: number }][] = [
        [{ name: '' }, { path: 'name', code: 'required' }],
        [{ name: undefined }, { path: 'name', code: 'required' }],
        [{ basePrice: '-1' }, { path: 'basePrice', code: 'not_negative' }],
        [{ costPrice: 'abc' }, { path: 'costPrice', code: 'invalid_number' }],
        [{ basePrice: '' }, { path: 'basePrice', code: 'required' }],
        [{ taxRate: '101' }, { path: 'taxRate', code: 'too_big', max: 100 }],
        [{ taxRate: '-5' }, { path: 'taxRate', code: 'not_negative' }],
        [
          { minStock: 6, reorderStock: 5 },
          { path: 'minStock', code: 'min_above_reorder' },
        ],
        [
          { reorderStock: 60, maxStock: 50 },
          { path: 'maxStock', code: 'reorder_above_max' },
        ],
        [{ totalStock: -1 }, { path: 'totalStock', code: 'too_small', min: 0 }],
        [{ totalStock: 1.5 }, { path: 'totalStock', code: 'invalid_number' }],
        [{ barCode: 'no spaces!' }, { path: 'barCode', code: 'invalid_format' }],
        [{ approvalStatus: 'nope' }, { path: 'approvalStatus', code: 'invalid_value' }],
      ];
      for (const [overrides, field] of cases) {
        const response = await t.call('POST', '/api/medications', { body: medication(overrides) });
        expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
        expect(response.json().code).toBe('validation_error');
        expect(response.json().details.fields, JSON.stringify(overrides)).toContainEqual(field);
      }
    });

    it('a new medicine starts under review or approved only', async () => {
      for (const approvalStatus of ['suspended', 'withdrawn']) {
        const response = await t.call('POST', '/api/medications', { body: medication({ approvalStatus }) });
        expect(response.statusCode).toBe(400);
        expect(response.json().details.fields).toEqual([{ path: 'approvalStatus', code: 'invalid_transition' }]);
      }
      const underReview = await create('medications', medication({ approvalStatus: undefined }));
      expect(underReview.approvalStatus).toBe('underReview');
    });

    it('refuses a SKU taken in the clinic (any case, either kind) and a taken barcode', async () => {
      const first = await create('medications', medication({ sku: 'LIDO-001', barCode: '7791234567890' }));
      const sameSku = await t.call('POST', '/api/medications', { body: medication({ sku: 'lido-001' }) });
      expect(sameSku.statusCode).toBe(409);
      expect(sameSku.json()).toMatchObject({
        code: 'duplicate_sku',
        details: { field: 'sku', existingId: first.id, existingKind: 'medication' },
      });
      const acrossKinds = await t.call('POST', '/api/supplies', { body: supply({ sku: 'Lido-001' }) });
      expect(acrossKinds.statusCode).toBe(409);
      expect(acrossKinds.json()).toMatchObject({ code: 'duplicate_sku', details: { existingKind: 'medication' } });
      const sameBarCode = await t.call('POST', '/api/supplies', { body: supply({ barCode: '7791234567890' }) });
      expect(sameBarCode.statusCode).toBe(409);
      expect(sameBarCode.json()).toMatchObject({
        code: 'duplicate_barcode',
        details: { field: 'barCode', existingId: first.id },
      });
      // Another clinic may use the same codes.
      const other = await createTestClinic(t.app, t.mailer);
      await create('medications', medication({ sku: 'LIDO-001', barCode: '7791234567890' }), other.token);
      // Editing another item onto a taken SKU is refused too.
      const second = await create('medications', medication({ sku: 'LIDO-002' }));
      const edit = await t.call('PUT', `/api/medications/${second.id}`, {
        body: {
          ...medication({ sku: 'LIDO-001' }),
          version: second.version,
        },
      });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().code).toBe('duplicate_sku');
      // Keeping its own SKU is fine.
      const keep = await t.call('PUT', `/api/medications/${first.id}`, {
        body: {
          ...medication({ sku: 'lido-001', barCode: '7791234567890' }),
          version: first.version,
        },
      });
      expect(keep.statusCode, keep.body).toBe(200);
    });

    it('a unique-index race still answers duplicate_sku', async () => {
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => t.call('POST', '/api/supplies', { body: supply({ sku: 'RACE-1' }) })),
      );
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409]);
      for (const response of responses.filter((r) => r.statusCode === 409)) {
        expect(response.json().code).toBe('duplicate_sku');
      }
    });

    it('updates with the version, never the stock, and audits what changed', async () => {
      const item = await create('medications', medication({ name: 'Ibuprofeno 400 mg', totalStock: 7 }));
      const response = await t.call('PUT', `/api/medications/${item.id}`, {
        body: {
          ...medication({ name: 'Ibuprofeno 600 mg', basePrice: '200', totalStock: 999 }),
          version: 1,
        },
      });
      expectAnswer(response, 200, {
        code: 'medication_updated',
        data: { name: 'Ibuprofeno 600 mg', basePrice: '200.00', totalStock: 7, version: 2 },
      });
      expect(response.json().data.updatedByName).toMatch(/^Ana Pérez/);
      const stale = await t.call('PUT', `/api/medications/${item.id}`, {
        body: {
          ...medication({ name: 'Otro' }),
          version: 1,
        },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().code).toBe('version_conflict');
      expect((await t.call('GET', `/api/medications/${item.id}`)).json().data.name).toBe('Ibuprofeno 600 mg');
      const [event] = await t.db.withTenant(t.clinic.accountId, async (tx) =>
        (await listAuditEvents(tx, { action: 'medication_updated' })).filter((e) => e.entityId === item.id),
      );
      expect(event?.before).toMatchObject({ name: 'Ibuprofeno 400 mg', basePrice: '150.50' });
      expect(event?.after).toMatchObject({ name: 'Ibuprofeno 600 mg', basePrice: '200.00' });
      expect(event?.after).not.toHaveProperty('taxRate');
    });

    it('follows the approval transitions; withdrawn is final', async () => {
      const allowed: [string, string][] = [
        ['underReview', 'approved'],
        ['underReview', 'withdrawn'],
        ['approved', 'suspended'],
        ['approved', 'withdrawn'],
        ['suspended', 'approved'],
        ['suspended', 'withdrawn'],
        ['approved', 'approved'],
      ];
      const refused: [string, string][] = [
        ['underReview', 'suspended'],
        ['approved', 'underReview'],
        ['suspended', 'underReview'],
        ['withdrawn', 'approved'],
        ['withdrawn', 'underReview'],
        ['withdrawn', 'suspended'],
      ];
      const reach = async (status: string) => {
        const start = status === 'underReview' ? 'underReview' : 'approved';
        let item = await create('medications', medication({ approvalStatus: start, totalStock: 0 }));
        const body = medication({ approvalStatus: status, totalStock: 0 });
        if (status !== start) {
          const moved = await t.call('PUT', `/api/medications/${item.id}`, {
            body: {
              ...body,
              version: item.version,
            },
          });
          expect(moved.statusCode, moved.body).toBe(200);
          item = moved.json().data;
        }
        return item;
      };
      for (const [from, to] of allowed) {
        const item = await reach(from);
        const response = await t.call('PUT', `/api/medications/${item.id}`, {
          body: {
            ...medication({ approvalStatus: to, totalStock: 0 }),
            version: item.version,
          },
        });
        expect(response.statusCode, `${from} → ${to}`).toBe(200);
        expect(response.json().data.approvalStatus).toBe(to);
      }
      for (const [from, to] of refused) {
        const item = await reach(from);
        const response = await t.call('PUT', `/api/medications/${item.id}`, {
          body: {
            ...medication({ approvalStatus: to, totalStock: 0 }),
            version: item.version,
          },
        });
        expect(response.statusCode, `${from} → ${to}`).toBe(409);
        expect(response.json()).toMatchObject({ code: 'invalid_transition', details: { from, to } });
      }
    });

    it("answers 404 for another clinic's item and for an item of the other kind", async () => {
      const other = await createTestClinic(t.app, t.mailer);
      const foreign = await create('medications', medication(), other.token);
      const own = await create('supplies', supply());
      const checks: [Method, string, string, object?][] = [
        ['GET', `/api/medications/${foreign.id}`, 'medication_not_found'],
        ['PUT', `/api/medications/${foreign.id}`, 'medication_not_found', { ...medication(), version: 1 }],
        ['GET', `/api/medications/${foreign.id}/stock-movements`, 'medication_not_found'],
        [
          'POST',
          `/api/medications/${foreign.id}/stock-movements`,
          'medication_not_found',
          { direction: 'in', quantity: 1, reason: 'x' },
        ],
        ['GET', `/api/medications/${own.id}`, 'medication_not_found'],
        ['PUT', `/api/medications/${own.id}`, 'medication_not_found', { ...medication(), version: 1 }],
        ['GET', `/api/medications/${own.id}/stock-movements`, 'medication_not_found'],
        [
          'POST',
          `/api/medications/${own.id}/stock-movements`,
          'medication_not_found',
          { direction: 'out', quantity: 1, reason: 'x' },
        ],
        ['GET', `/api/supplies/${foreign.id}`, 'supply_not_found'],
      ];
      for (const [method, url, code, payload] of checks) {
        const response = await t.call(method, url, { body: payload });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.json().code).toBe(code);
      }
      expect((await t.call('GET', `/api/medications/${foreign.id}`, { token: other.token })).statusCode).toBe(200);
    });
  });

  describe('list and search', () => {
    let searchClinic: TestClinic;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      searchClinic = await createTestClinic(t.app, t.mailer);
      const items = [
        medication({
          name: 'Anestésico Tópico Benzocaína',
          activePrinciple: 'Benzocaína',
          sku: 'BENZ-20',
          basePrice: '900',
          totalStock: 3,
          minStock: 1,
          reorderStock: 4,
          approvalStatus: 'approved',
        }),
        medication({
          name: 'Amoxicilina 500 mg',
          activePrinciple: 'Amoxicilina',
          sku: 'AMOX-500',
          barCode: '7790000000011',
          basePrice: '1200',
          totalStock: 40,
          approvalStatus: 'approved',
        }),
        medication({
          name: 'Clorhexidina 0,12%',
          activePrinciple: 'Clorhexidina digluconato',
          sku: 'CLX-012',
          basePrice: '3500.99',
          totalStock: 1,
          minStock: 1,
          reorderStock: 2,
          approvalStatus: 'underReview',
        }),
        medication({
          name: 'Ketorolac 10 mg',
          activePrinciple: 'Ketorolaco trometamol',
          sku: 'KETO_10',
          basePrice: '10',
          totalStock: 20,
          productStatus: 'inactive',
        }),
      ];
      for (const item of items) {
        const created = await create('medications', item, searchClinic.token);
        ids[String((item as unknown as { sku: string }).sku)] = created.id;
      }
      await create('supplies', supply({ name: 'Anestésico en gel (insumo)' }), searchClinic.token);
    });
    const list = async (query: string) => {
      const response = await t.call('GET', `/api/medications?${query}`, { token: searchClinic.token });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { data: { id: string; name: string }[]; total: number; page: number; pageSize: number };
    };
    const names = async (query: string) => (await list(query)).data.map((item) => item.name);

    it('lists one kind with its total, paginated and sorted by name', async () => {
      const page = await list('pageSize=2');
      expect(page).toMatchObject({ total: 4, page: 1, pageSize: 2 });
      expect(page.data.map((item) => item.name)).toEqual(['Amoxicilina 500 mg', 'Anestésico Tópico Benzocaína']);
      expect(await names('page=2&pageSize=2')).toEqual(['Clorhexidina 0,12%', 'Ketorolac 10 mg']);
      expect((await t.call('GET', '/api/medications?pageSize=101', { token: searchClinic.token })).statusCode).toBe(
        400,
      );
      expect((await t.call('GET', '/api/medications?sort=secret', { token: searchClinic.token })).statusCode).toBe(400);
    });

    it('searches without accents or case, by fragments, barcode, SKU and active principle, every word', async () => {
      expect(await names('q=anestesico')).toEqual(['Anestésico Tópico Benzocaína']);
      expect(await names('q=ANESTÉSICO')).toEqual(['Anestésico Tópico Benzocaína']);
      expect(await names('q=xicili')).toEqual(['Amoxicilina 500 mg']);
      expect(await names('q=7790000000011')).toEqual(['Amoxicilina 500 mg']);
      expect(await names('q=clx-012')).toEqual(['Clorhexidina 0,12%']);
      expect(await names('q=digluconato')).toEqual(['Clorhexidina 0,12%']);
      expect(await names('q=topico%20benzo')).toEqual(['Anestésico Tópico Benzocaína']);
      expect(await names('q=topico%20amoxi')).toEqual([]);
      // LIKE wildcards are searched literally.
      expect(await names('q=keto_')).toEqual(['Ketorolac 10 mg']);
      expect(await names('q=%25')).toEqual(['Clorhexidina 0,12%']);
      expect(await names('q=0,12%25')).toEqual(['Clorhexidina 0,12%']);
      expect(await names('q=ket%25ac')).toEqual([]);
      // Other clinics have Lidocaína and Guantes: never found here.
      expect(await list('q=lidocaina')).toMatchObject({ data: [], total: 0 });
      expect(await names('q=gel')).toEqual([]);
    });

    it('a search goes back to the clinic context within its transaction', async () => {
      const settings = await t.db.withTenant(searchClinic.accountId, async (tx) => {
        const found = await listItems(tx, searchClinic.accountId, 'medication', { q: 'amoxi', page: 1, pageSize: 5 });
        const { rows } = await tx.execute<{ role: string; account: string; count: number }>(
          sql`select current_setting('role') as role, current_setting('app.account_id') as account,
                (select count(distinct account_id)::int from inventory_items) as count`,
        );
        return { found: found.rows.map((row) => row.name), total: found.total, ...rows[0] };
      });
      expect(settings).toEqual({
        found: ['Amoxicilina 500 mg'],
        total: 1,
        role: 'odontia_app',
        account: searchClinic.accountId,
        count: 1,
      });
    });

    it('filters by low stock, approval and product status; sorts by any allowed column', async () => {
      expect(await names('lowStock=true')).toEqual(['Anestésico Tópico Benzocaína', 'Clorhexidina 0,12%']);
      expect(await names('approvalStatus=underReview')).toEqual(['Clorhexidina 0,12%']);
      expect(await names('productStatus=inactive')).toEqual(['Ketorolac 10 mg']);
      expect(await names('sort=-basePrice')).toEqual([
        'Clorhexidina 0,12%',
        'Amoxicilina 500 mg',
        'Anestésico Tópico Benzocaína',
        'Ketorolac 10 mg',
      ]);
      expect(await names('sort=totalStock')).toEqual([
        'Clorhexidina 0,12%',
        'Anestésico Tópico Benzocaína',
        'Ketorolac 10 mg',
        'Amoxicilina 500 mg',
      ]);
      expect(await names('sort=sku')).toEqual([
        'Amoxicilina 500 mg',
        'Anestésico Tópico Benzocaína',
        'Clorhexidina 0,12%',
        'Ketorolac 10 mg',
      ]);
      expect((await list('sort=-updatedAt')).total).toBe(4);
    });

    it('exports the list as CSV with the Spanish header, BOM and the same filters', async () => {
      const response = await t.call('GET', '/api/medications/export?lowStock=true&sort=-name', {
        token: searchClinic.token,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="farmacias-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const text = response.body;
      expect(text.startsWith('\uFEFF')).toBe(true);
      const rows = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
      expect(rows[0]?.slice(0, 3)).toEqual(['Nombre', 'SKU', 'Código de barras']);
      expect(rows[0]).toContain('Principio activo');
      expect(rows[0]).toContain('Requiere receta');
      expect(rows.slice(1).map((row) => row[0])).toEqual(['Clorhexidina 0,12%', 'Anestésico Tópico Benzocaína']);
      const header = rows[0] ?? [];
      const clx = rows[1] ?? [];
      expect(clx[header.indexOf('Precio de venta')]).toBe('3500,99');
      expect(clx[header.indexOf('Requiere receta')]).toBe('no');
      expect(clx[header.indexOf('Estado de aprobación')]).toBe('underReview');
      const supplies = await t.call('GET', '/api/supplies/export?q=gel', { token: searchClinic.token });
      expect(supplies.headers['content-disposition']).toMatch(/filename="insumos-/);
      const supplyRows = Papa.parse<string[]>(supplies.body.slice(1), { skipEmptyLines: true }).data;
      expect(supplyRows[0]).toContain('Unidades por envase');
      expect(supplyRows).toHaveLength(2);
      expect(supplyRows[1]?.[supplyRows[0]?.indexOf('Consumible') ?? -1]).toBe('sí');
    });
  });

  describe('stock adjustments and the reorder list', () => {
    it('refuses stock above the bound every field holds (issue 35), naming the item, not a 500', async () => {
      const item = await create('supplies', supply({ name: 'Guantes de nitrilo', totalStock: maxStockQuantity }));
      const above = await t.call('POST', `/api/supplies/${item.id}/stock-movements`, {
        body: { direction: 'in', quantity: maxStockQuantity, reason: 'Conteo físico' },
      });
      expectAnswer(above, 409, {
        code: 'stock_above_limit',
        details: {
          items: [{ id: item.id, name: 'Guantes de nitrilo', available: maxStockQuantity, max: maxStockQuantity }],
        },
      });
      const still = await t.call('GET', `/api/supplies/${item.id}`);
      expect(still.json().data.totalStock).toBe(maxStockQuantity);
      const tooBigAtOnce = await t.call('POST', `/api/supplies/${item.id}/stock-movements`, {
        body: { direction: 'in', quantity: 2 ** 31, reason: 'Conteo físico' },
      });
      expect(tooBigAtOnce.statusCode).toBe(400);
      expect(tooBigAtOnce.json().details.fields).toEqual([
        { path: 'quantity', code: 'too_big', max: maxStockQuantity },
      ]);
    });

    it('adjusts in and out with a reason; refuses going below zero naming the item', async () => {
      const item = await create('supplies', supply({ name: 'Eyectores', totalStock: 5 }));
      const incoming = await t.call('POST', `/api/supplies/${item.id}/stock-movements`, {
        body: {
          direction: 'in',
          quantity: 10,
          reason: 'Conteo físico',
          unitCost: '12,5',
        },
      });
      expectAnswer(incoming, 201, {
        code: 'stock_adjusted',
        data: {
          item: { id: item.id, totalStock: 15, version: 1 },
          movement: { kind: 'adjustment_in', quantity: 10, stockAfter: 15, unitCost: '12.50', reason: 'Conteo físico' },
        },
      });
      expect(incoming.json().data.movement.userName).toMatch(/^Ana Pérez/);
      const outgoing = await t.call('POST', `/api/supplies/${item.id}/stock-movements`, {
        body: {
          direction: 'out',
          quantity: 4,
          reason: 'Vencidos',
        },
      });
      expect(outgoing.json().data).toMatchObject({
        item: { totalStock: 11 },
        movement: { kind: 'adjustment_out', quantity: -4, stockAfter: 11, unitCost: null },
      });
      const tooMany = await t.call('POST', `/api/supplies/${item.id}/stock-movements`, {
        body: {
          direction: 'out',
          quantity: 12,
          reason: 'Rotura',
        },
      });
      expect(tooMany.statusCode).toBe(409);
      expect(tooMany.json()).toMatchObject({
        code: 'insufficient_stock',
        details: { items: [{ id: item.id, kind: 'supply', name: 'Eyectores', available: 11, requested: 12 }] },
      });
      const invalid = await t.call('POST', `/api/supplies/${item.id}/stock-movements`, {
        body: {
          direction: 'out',
          quantity: 0,
          reason: '',
        },
      });
      expectFieldErrors(invalid, [
        { path: 'quantity', code: 'too_small', min: 1 },
        { path: 'reason', code: 'required' },
      ]);
      const history = (await t.call('GET', `/api/supplies/${item.id}/stock-movements?pageSize=2`)).json();
      expect(history.total).toBe(3);
      expect(history.data.map((movement: { kind: string }) => movement.kind)).toEqual([
        'adjustment_out',
        'adjustment_in',
      ]);
      const audit = await t.auditEvents('stock_adjusted');
      expect(audit.filter((event) => event.entityId === item.id)).toHaveLength(2);
    });

    it('20 concurrent requests for the last units: exactly one wins, 19 answer insufficient_stock', async () => {
      const item = await create('supplies', supply({ totalStock: 3 }));
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          t.call('POST', `/api/supplies/${item.id}/stock-movements`, {
            body: {
              direction: 'out',
              quantity: 3,
              reason: 'Consumo',
            },
          }),
        ),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(19);
      expect((await t.call('GET', `/api/supplies/${item.id}`)).json().data.totalStock).toBe(0);
    });

    it('lists active items of both kinds at or below their reorder level, critical first, with a quantity to order', async () => {
      const reorderClinic = await createTestClinic(t.app, t.mailer);
      const token = reorderClinic.token;
      await create(
        'medications',
        medication({ name: 'B crítico', totalStock: 1, minStock: 2, reorderStock: 5, maxStock: 20 }),
        token,
      );
      await create(
        'medications',
        medication({ name: 'A en pedido', totalStock: 4, minStock: 2, reorderStock: 5, maxStock: null }),
        token,
      );
      await create(
        'supplies',
        supply({ name: 'C insumo', totalStock: 3, minStock: 1, reorderStock: 3, maxStock: 10 }),
        token,
      );
      await create('supplies', supply({ name: 'D suficiente', totalStock: 30 }), token);
      await create('supplies', supply({ name: 'E inactivo', totalStock: 0, productStatus: 'inactive' }), token);
      const response = await t.call('GET', '/api/inventory/reorder', { token });
      expect(response.statusCode).toBe(200);
      expect(response.json().total).toBe(3);
      expect(
        response
          .json()
          .data.map((item: { name: string; stockLevel: string; suggestedQuantity: number }) => [
            item.name,
            item.stockLevel,
            item.suggestedQuantity,
          ]),
      ).toEqual([
        ['B crítico', 'critical', 19],
        ['A en pedido', 'reorder', 6],
        ['C insumo', 'reorder', 7],
      ]);
      const onlySupplies = await t.call('GET', '/api/inventory/reorder?kind=supply', { token });
      expect(onlySupplies.json().data.map((item: { name: string }) => item.name)).toEqual(['C insumo']);
    });
  });

  describe('CSV import', () => {
    const header =
      'Nombre;SKU;Precio de venta;Impuesto (%);Stock;Stock mínimo;Punto de pedido;Requiere receta;Estado de aprobación;Color';

    it('previews a file with Spanish labels (dry run), then imports every row with initial movements', async () => {
      const importClinic = await createTestClinic(t.app, t.mailer);
      const content = `\uFEFF${header}\r\nMepivacaína 3%;MEPI-3;mil;21;10;1;2;sí;approved;azul\r\n`;
      // "mil" is not an amount: the preview says so ("1.250,00" is one since issue 34: decimal-input.ts).
      const bad = await t.call('POST', '/api/medications/import', {
        token: importClinic.token,
        body: { content, dryRun: true },
      });
      expect(bad.statusCode).toBe(200);
      expect(bad.json().data).toMatchObject({
        total: 1,
        valid: 0,
        errors: [{ line: 2, field: 'basePrice', code: 'invalid_number' }],
        ignoredColumns: ['Color'],
        created: 0,
      });
      const good = `${header}\nMepivacaína 3%;MEPI-3;1250,50;21;10;1;2;sí;approved;azul\nParacetamol 500 mg;PARA-500;800;10,5;;;;no;;\n`;
      const preview = await t.call('POST', '/api/medications/import', {
        token: importClinic.token,
        body: {
          content: good,
          dryRun: true,
        },
      });
      expect(preview.statusCode).toBe(200);
      expect(preview.json().data).toMatchObject({
        total: 2,
        valid: 2,
        errors: [],
        created: 0,
        preview: [
          { line: 2, name: 'Mepivacaína 3%', sku: 'MEPI-3', totalStock: 10 },
          { line: 3, name: 'Paracetamol 500 mg', sku: 'PARA-500', totalStock: 0 },
        ],
      });
      expect((await t.call('GET', '/api/medications', { token: importClinic.token })).json().total).toBe(0);
      const real = await t.call('POST', '/api/medications/import', {
        token: importClinic.token,
        body: { content: good, dryRun: false },
      });
      expectAnswer(real, 201, { code: 'inventory_imported', data: { created: 2, valid: 2 } });
      const items = (await t.call('GET', '/api/medications', { token: importClinic.token })).json().data;
      expect(items).toMatchObject([
        {
          name: 'Mepivacaína 3%',
          basePrice: '1250.50',
          taxRate: '21.00',
          totalStock: 10,
          prescriptionRequired: true,
          approvalStatus: 'approved',
        },
        {
          name: 'Paracetamol 500 mg',
          taxRate: '10.50',
          totalStock: 0,
          prescriptionRequired: false,
          approvalStatus: 'underReview',
        },
      ]);
      const movements = (
        await t.call('GET', `/api/medications/${items[0].id}/stock-movements`, { token: importClinic.token })
      ).json();
      expect(movements.data).toMatchObject([{ kind: 'initial', quantity: 10, referenceType: 'import' }]);
      const audit = await t.db.withTenant(importClinic.accountId, (tx) =>
        listAuditEvents(tx, { action: 'inventory_imported' }),
      );
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ entity: 'inventory', after: { kind: 'medication', count: 2 } });
      // Importing the same file again: both SKUs already exist, nothing is imported.
      const again = await t.call('POST', '/api/medications/import', {
        token: importClinic.token,
        body: { content: good, dryRun: false },
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({
        code: 'import_has_errors',
        details: {
          total: 2,
          errors: [
            { line: 2, field: 'sku', code: 'already_exists' },
            { line: 3, field: 'sku', code: 'already_exists' },
          ],
        },
      });
    });

    it('accepts field names as headers (any case, comma-separated); one bad row imports nothing', async () => {
      const importClinic = await createTestClinic(t.app, t.mailer);
      const rows = [
        'NAME,sku,barcode,BASEPRICE,taxrate,totalstock,consumable,unitmeasurement,packagingqty,minstock,reorderstock',
        'Guantes de nitrilo M,GUA-M,7791111111111,8500.5,21,20,si,box,100,2,5',
        'Guantes de nitrilo L,gua-m,,8500,21,20,true,box,100,2,5',
        ',GUA-S,7791111111111,-3,150,x,quizás,caja,0,9,5',
        '"Composite A2, jeringa",COMP-A2,,12000,21,3,0,syringe,,1,2',
      ];
      const bad = await t.call('POST', '/api/supplies/import', {
        token: importClinic.token,
        body: {
          content: rows.join('\n'),
          dryRun: false,
        },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('import_has_errors');
      const errors = bad.json().details.errors as { line: number; field: string; code: string }[];
      expect(bad.json().details.total).toBe(4);
      expect(errors).toEqual(
        expect.arrayContaining([
          { line: 3, field: 'sku', code: 'duplicate_in_file' },
          { line: 4, field: 'name', code: 'required' },
          { line: 4, field: 'basePrice', code: 'not_negative' },
          { line: 4, field: 'taxRate', code: 'too_big' },
          { line: 4, field: 'totalStock', code: 'invalid_number' },
          { line: 4, field: 'consumable', code: 'invalid_value' },
          { line: 4, field: 'unitMeasurement', code: 'invalid_value' },
          { line: 4, field: 'packagingQty', code: 'too_small' },
        ]),
      );
      expect(errors.every((error) => error.line !== 2 && error.line !== 5)).toBe(true);
      expect((await t.call('GET', '/api/supplies', { token: importClinic.token })).json().total).toBe(0);
      const good = [rows[0], rows[1], rows[4]].join('\n');
      const real = await t.call('POST', '/api/supplies/import', {
        token: importClinic.token,
        body: { content: good, dryRun: false },
      });
      expect(real.statusCode, real.body).toBe(201);
      expect(real.json().data.created).toBe(2);
      const items = (await t.call('GET', '/api/supplies', { token: importClinic.token })).json().data;
      expect(items).toMatchObject([
        {
          name: 'Composite A2, jeringa',
          unitMeasurement: 'syringe',
          consumable: false,
          totalStock: 3,
          packagingQty: null,
        },
        { name: 'Guantes de nitrilo M', barCode: '7791111111111', consumable: true, packagingQty: 100, totalStock: 20 },
      ]);
    });

    it('refuses more rows than the limit and an empty content', async () => {
      const lines = ['Nombre,Precio de venta', ...Array.from({ length: 5001 }, (_, index) => `Item ${index},1`)];
      const tooMany = await t.call('POST', '/api/supplies/import', {
        body: {
          content: lines.join('\n'),
          dryRun: true,
        },
      });
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json()).toMatchObject({
        code: 'validation_error',
        details: { fields: [{ path: 'content', code: 'too_big' }] },
      });
      const empty = await t.call('POST', '/api/supplies/import', { body: { content: '', dryRun: true } });
      expect(empty.statusCode).toBe(400);
    });

    it('exported files import back into another clinic', async () => {
      const source = await createTestClinic(t.app, t.mailer);
      await create(
        'medications',
        medication({ name: 'Dexametasona 4 mg', sku: 'DEXA-4', totalStock: 6 }),
        source.token,
      );
      await create(
        'medications',
        medication({ name: 'Metronidazol 500 mg', sku: 'METRO-500', totalStock: 0, maxStock: null }),
        source.token,
      );
      const csv = (await t.call('GET', '/api/medications/export', { token: source.token })).body;
      const target = await createTestClinic(t.app, t.mailer);
      const imported = await t.call('POST', '/api/medications/import', {
        token: target.token,
        body: { content: csv, dryRun: false },
      });
      expect(imported.statusCode, imported.body).toBe(201);
      expect(imported.json().data).toMatchObject({ created: 2, ignoredColumns: [] });
      const items = (await t.call('GET', '/api/medications', { token: target.token })).json().data;
      expect(items.map((item: { name: string; totalStock: number }) => [item.name, item.totalStock])).toEqual([
        ['Dexametasona 4 mg', 6],
        ['Metronidazol 500 mg', 0],
      ]);
    });
  });

  describe('permissions', () => {
    it('stock, export, import and the reorder list: administrator and supervisor write; user reads only; customer nothing', async () => {
      const levelClinic = await createTestClinic(t.app, t.mailer);
      const item = await create('supplies', supply({ totalStock: 5 }), levelClinic.token);
      const writes: [Method, string, object][] = [
        ['POST', `/api/supplies/${item.id}/stock-movements`, { direction: 'in', quantity: 1, reason: 'Conteo' }],
        ['POST', '/api/supplies/import', { content: 'Nombre,Precio de venta\nX,1', dryRun: true }],
      ];
      const reads = [`/api/supplies/${item.id}/stock-movements`, '/api/supplies/export', '/api/inventory/reorder'];
      for (const level of ['administrator', 'supervisor', 'user', 'customer'] as const) {
        await setLevel(t.db, levelClinic.userId, level);
        for (const url of reads) {
          const response = await t.call('GET', url, { token: levelClinic.token });
          expect(response.statusCode, `${level} GET ${url}`).toBe(level === 'customer' ? 403 : 200);
        }
        for (const [method, url, payload] of writes) {
          const response = await t.call(method, url, { token: levelClinic.token, body: payload });
          const allowed = level === 'administrator' || level === 'supervisor';
          expect(
            response.statusCode === 403,
            `${level} ${method} ${url} → ${response.statusCode} ${response.body}`,
          ).toBe(!allowed);
          if (allowed) expect(response.statusCode).toBeLessThan(300);
        }
      }
    });
  });
});
