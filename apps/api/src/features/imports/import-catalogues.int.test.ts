import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { importUploadBody } from '../../../test/import-files.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * The catalogue kinds of the import wizard (issue 42) on both databases: providers, the price
 * list and inventory, each from its own export (UTF-8 or Windows-1252, its own column names):
 * the dry run's outcome per row (broken rows, duplicated external ids, a unique value taken),
 * the import, amounts as the clinic writes them, the same file again = unchanged, one changed row
 * = one update, audited as the features do; the opening stock through the ledger.
 */

describe.each(availableBackends())('catalogue imports on %s', (backend) => {
  const t = useTestClinic(backend, { env: { IMPORT_CHUNK_ROWS: '50' } });

  async function settle(id: string) {
    for (let round = 0; round < 50; round++) {
      const run = (await t.call('GET', `/api/imports/${id}`)).json().data;
      if (run.state !== 'checking' && run.state !== 'importing') return run;
      await t.app.jobs.runDue();
    }
    throw new Error('import did not settle');
  }

  async function importAll(kind: string, content: Buffer, name = `${kind}.csv`) {
    const body = await importUploadBody({ kind, source: 'Gesden', name, content });
    const uploaded = await t.call('POST', '/api/imports', {
      headers: { 'content-type': body.contentType },
      body: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const preview = uploaded.json().data;
    const check = await t.call('POST', `/api/imports/${preview.run.id}/check`, {
      body: { encoding: preview.encoding, mapping: preview.suggestedMapping },
    });
    expect(check.statusCode, check.body).toBe(200);
    const checked = await settle(preview.run.id);
    expect(checked.state).toBe('checked');
    const refused = (await t.call('GET', `/api/imports/${preview.run.id}/rows?phase=check&outcome=refused`)).json()
      .data as { line: number; externalId: string | null; reasons: { field: string; code: string }[] }[];
    const run = await t.call('POST', `/api/imports/${preview.run.id}/run`);
    expect(run.statusCode, run.body).toBe(200);
    const done = await settle(preview.run.id);
    expect(done.state).toBe('done');
    return {
      preview,
      checked,
      done,
      refused: refused.map(({ line, externalId, reasons }) => ({ line, externalId, reasons })),
    };
  }

  const utf8 = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
  /** Windows-1252: Latin-1's letters, and the euro sign at 0x80. */
  const latin1 = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n`.replaceAll('€', '\u0080'), 'latin1');
  const query = async <T>(text: ReturnType<typeof sql>) =>
    (await t.db.withSystem((tx) => tx.execute(text))).rows as T[];

  it('imports providers: tax ids unique, currencies read, re-import unchanged, a change audited', async () => {
    const lines = [
      'Cód. Proveedor;Proveedor;Razón social;CIF;Tipo NIF;Correo;Teléfono;Moneda;Días de pago',
      'P-1;Depósito Norte;Depósito Norte S.L.;B12345674;NIF;pedidos@norte.example;912345678;EUR;30',
      'P-2;Implantes Sur;;;;;;;60',
      'P-3;;Sin nombre S.A.;;;;;;',
      'P-2;Duplicado;;;;;;;',
      'P-4;Tercero;;B-1234567-4;NIF;;;;',
      'P-5;Dólares;;;;;;XYZ;',
    ];
    const first = await importAll('providers', utf8(lines));
    expect(first.preview.suggestedMapping).toMatchObject({
      externalId: 0,
      fantasyName: 1,
      bussinesName: 2,
      nif: 3,
      taxIdKind: 4,
      email: 5,
      phoneBusiness: 6,
      currency: 7,
      paymentTermDays: 8,
    });
    expect(first.checked.counts).toEqual({ created: 2, updated: 0, unchanged: 0, refused: 4 });
    expect(first.refused).toEqual([
      { line: 4, externalId: 'P-3', reasons: [{ field: 'fantasyName', code: 'required' }] },
      { line: 5, externalId: 'P-2', reasons: [{ field: 'externalId', code: 'duplicate_in_file' }] },
      { line: 6, externalId: 'P-4', reasons: [{ field: 'nif', code: 'already_exists' }] },
      { line: 7, externalId: 'P-5', reasons: [{ field: 'currency', code: 'invalid_value' }] },
    ]);
    expect(first.done.counts).toEqual({ created: 2, updated: 0, unchanged: 0, refused: 4 });
    const rows = await query<Record<string, unknown>>(
      sql`select fantasy_name, bussines_name, nif, tax_id_kind, currency, payment_term_days, email from providers where fantasy_name in ('Depósito Norte', 'Implantes Sur') order by fantasy_name`,
    );
    expect(rows).toEqual([
      {
        fantasy_name: 'Depósito Norte',
        bussines_name: 'Depósito Norte S.L.',
        nif: 'B12345674',
        tax_id_kind: 'nif',
        currency: 'euro',
        payment_term_days: 30,
        email: 'pedidos@norte.example',
      },
      expect.objectContaining({ fantasy_name: 'Implantes Sur', nif: null, payment_term_days: 60 }),
    ]);
    const created = await t.auditEvents('provider_created');
    expect(
      created.filter((event) => (event.after as { importRunId?: string })?.importRunId === first.preview.run.id),
    ).toHaveLength(2);

    const again = await importAll('providers', utf8(lines));
    expect(again.done.counts).toEqual({ created: 0, updated: 0, unchanged: 2, refused: 4 });

    const changed = await importAll('providers', utf8(lines.map((line) => line.replace(';;;;;;60', ';;;;;;45'))));
    expect(changed.done.counts).toEqual({ created: 0, updated: 1, unchanged: 1, refused: 4 });
    const updated = (await t.auditEvents('provider_updated')).at(-1);
    expect(updated?.before).toEqual({ paymentTermDays: 60 });
    expect(updated?.after).toEqual({ paymentTermDays: 45, importRunId: changed.preview.run.id });
  });

  it('imports the price list from Windows-1252 with amounts as the clinic writes them', async () => {
    const lines = [
      'Código;Prestación;Familia;Precio;IVA;Minutos;Id',
      'LIMP;Limpieza dental;Prevención;12.500,50;21%;45;T1',
      'EXO;Exodoncia;Cirugía;€ 80,00;21,0;;T2',
      'IMP;Implante;Implantes;1,250;21;60;T3',
      'BLAN;Blanqueamiento;Estética;gratis;21;;T4',
      ';;Sin nombre;5;;;T5',
      'ORT;Ortodoncia;Ortodoncia;1000000000000;21;;T6',
      'DUP;Duplicado;;10;;;T1',
    ];
    const first = await importAll('priceList', latin1(lines));
    expect(first.preview.run.detectedEncoding).toBe('windows-1252');
    expect(first.checked.counts).toEqual({ created: 2, updated: 0, unchanged: 0, refused: 5 });
    expect(first.refused).toEqual([
      { line: 4, externalId: 'T3', reasons: [{ field: 'price', code: 'ambiguous_number' }] },
      { line: 5, externalId: 'T4', reasons: [{ field: 'price', code: 'invalid_number' }] },
      { line: 6, externalId: 'T5', reasons: [{ field: 'name', code: 'required' }] },
      { line: 7, externalId: 'T6', reasons: [{ field: 'price', code: 'too_big' }] },
      { line: 8, externalId: 'T1', reasons: [{ field: 'externalId', code: 'duplicate_in_file' }] },
    ]);
    const rows = await query<Record<string, unknown>>(
      sql`select code, name, group_name, price::text as price, vat_rate::text as vat_rate, duration_minutes from treatments where code in ('LIMP', 'EXO') order by code`,
    );
    expect(rows).toEqual([
      {
        code: 'EXO',
        name: 'Exodoncia',
        group_name: 'Cirugía',
        price: '80.00',
        vat_rate: '21.00',
        duration_minutes: 30,
      },
      {
        code: 'LIMP',
        name: 'Limpieza dental',
        group_name: 'Prevención',
        price: '12500.50',
        vat_rate: '21.00',
        duration_minutes: 45,
      },
    ]);
    expect(
      (await t.auditEvents('treatment_created')).filter(
        (event) => (event.after as { importRunId?: string })?.importRunId === first.preview.run.id,
      ),
    ).toHaveLength(2);

    const again = await importAll('priceList', latin1(lines));
    expect(again.done.counts).toEqual({ created: 0, updated: 0, unchanged: 2, refused: 5 });

    // The same treatment code as another record: refused, never a 500.
    const taken = await importAll('priceList', latin1(['Código;Prestación;Precio;Id', 'limp;Otra limpieza;10;T9']));
    expect(taken.done.counts).toEqual({ created: 0, updated: 0, unchanged: 0, refused: 1 });
    expect(taken.refused).toEqual([
      { line: 2, externalId: 'T9', reasons: [{ field: 'code', code: 'already_exists' }] },
    ]);

    const changed = await importAll('priceList', latin1(lines.map((line) => line.replace('€ 80,00', '95'))));
    expect(changed.done.counts).toEqual({ created: 0, updated: 1, unchanged: 1, refused: 5 });
    const updated = (await t.auditEvents('treatment_updated')).at(-1);
    expect(updated?.before).toEqual({ price: '80.00' });
    expect(updated?.after).toEqual({ price: '95.00', importRunId: changed.preview.run.id });
  });

  it('reads the number cells of an XLSX as numbers, whatever the clinic separator', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Tarifa');
    sheet.addRow(['Id', 'Tratamiento', 'Precio', 'IVA']);
    sheet.addRow(['X1', 'Corona de zirconio', 12500.5, 21]);
    sheet.addRow(['X2', 'Férula', 1.125, 21]);
    sheet.addRow(['X3', 'Empaste', 1250, 0.1]);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const done = await importAll('priceList', xlsx, 'tarifa.xlsx');
    expect(done.preview.run.format).toBe('xlsx');
    expect(done.done.counts).toEqual({ created: 2, updated: 0, unchanged: 0, refused: 1 });
    expect(done.refused).toEqual([
      { line: 3, externalId: 'X2', reasons: [{ field: 'price', code: 'too_many_decimals' }] },
    ]);
    const rows = await query<Record<string, unknown>>(
      sql`select name, price::text as price, vat_rate::text as vat_rate from treatments where name in ('Corona de zirconio', 'Empaste') order by name`,
    );
    expect(rows).toEqual([
      { name: 'Corona de zirconio', price: '12500.50', vat_rate: '21.00' },
      { name: 'Empaste', price: '1250.00', vat_rate: '0.10' },
    ]);
  });

  it('imports inventory: medicines and supplies, the opening stock through the ledger', async () => {
    const lines = [
      'Id;Tipo;Artículo;Ref;Precio de coste;PVP;IVA;Stock;Stock mínimo;Punto de pedido;Principio activo',
      'A1;Insumo;Guantes de nitrilo M;GN-M;4,50;6;21;1.000;10;20;',
      'A2;Medicamento;Articaína 4%;ART-4;25,10;30,00;10%;50;;;Articaína',
      'A3;Material;Baberos;BAB;1;2;21;;;;',
      'A4;Cosa;Algo;X;1;1;21;;;;',
      'A5;Insumo;Repetido;gn-m;1;1;21;;;;',
      'A6;Insumo;Negativo;NEG;-3;1;21;;;;',
      'A7;Insumo;Fracción;FR;1;1;21;2,5;;;',
      'A3;Insumo;Otra vez;BAB2;1;1;21;;;;',
    ];
    const first = await importAll('inventory', utf8(lines));
    expect(first.checked.counts).toEqual({ created: 3, updated: 0, unchanged: 0, refused: 5 });
    expect(first.refused).toEqual([
      { line: 5, externalId: 'A4', reasons: [{ field: 'type', code: 'invalid_value' }] },
      { line: 6, externalId: 'A5', reasons: [{ field: 'sku', code: 'already_exists' }] },
      { line: 7, externalId: 'A6', reasons: [{ field: 'costPrice', code: 'not_negative' }] },
      { line: 8, externalId: 'A7', reasons: [{ field: 'openingStock', code: 'invalid_number' }] },
      { line: 9, externalId: 'A3', reasons: [{ field: 'externalId', code: 'duplicate_in_file' }] },
    ]);
    const items = await query<Record<string, unknown>>(
      sql`select i.sku, i.kind, i.cost_price::text as cost_price, i.base_price::text as base_price, i.tax_rate::text as tax_rate,
            i.total_stock, i.min_stock, i.reorder_stock, i.active_principle,
            (select coalesce(sum(m.quantity), 0)::int from stock_movements m where m.account_id = i.account_id and m.item_id = i.id) as ledger,
            (select count(*)::int from stock_movements m where m.account_id = i.account_id and m.item_id = i.id and m.kind = 'initial' and m.reference_type = 'import') as initial
          from inventory_items i where i.sku in ('GN-M', 'ART-4', 'BAB') order by i.sku`,
    );
    expect(items).toEqual([
      {
        sku: 'ART-4',
        kind: 'medication',
        cost_price: '25.10',
        base_price: '30.00',
        tax_rate: '10.00',
        total_stock: 50,
        min_stock: 0,
        reorder_stock: 0,
        active_principle: 'Articaína',
        ledger: 50,
        initial: 1,
      },
      expect.objectContaining({ sku: 'BAB', kind: 'supply', total_stock: 0, ledger: 0, initial: 0 }),
      expect.objectContaining({
        sku: 'GN-M',
        kind: 'supply',
        cost_price: '4.50',
        base_price: '6.00',
        tax_rate: '21.00',
        total_stock: 1000,
        min_stock: 10,
        reorder_stock: 20,
        ledger: 1000,
        initial: 1,
      }),
    ]);
    const supplies = (await t.auditEvents('supply_created')).filter(
      (event) => (event.after as { importRunId?: string })?.importRunId === first.preview.run.id,
    );
    expect(supplies).toHaveLength(2);
    expect(supplies.map((event) => (event.after as { totalStock: number }).totalStock).sort()).toEqual([0, 1000]);
    expect(await t.auditEvents('medication_created')).toHaveLength(1);

    const again = await importAll('inventory', utf8(lines));
    expect(again.done.counts).toEqual({ created: 0, updated: 0, unchanged: 3, refused: 5 });

    // A changed cost is an update; a changed stock is not (the ledger keeps the stock after the creation).
    const changed = await importAll(
      'inventory',
      utf8(lines.map((line) => line.replace('GN-M;4,50;6;21;1.000', 'GN-M;4,75;6;21;5'))),
    );
    expect(changed.done.counts).toEqual({ created: 0, updated: 1, unchanged: 2, refused: 5 });
    const updated = (await t.auditEvents('supply_updated')).at(-1);
    expect(updated?.before).toEqual({ costPrice: '4.50' });
    expect(updated?.after).toEqual({ costPrice: '4.75', importRunId: changed.preview.run.id });
    const [gloves] = await query<{ total_stock: number; ledger: number }>(
      sql`select i.total_stock, (select sum(m.quantity)::int from stock_movements m where m.account_id = i.account_id and m.item_id = i.id) as ledger from inventory_items i where i.sku = 'GN-M'`,
    );
    expect(gloves).toEqual({ total_stock: 1000, ledger: 1000 });

    // A medicine's row that now says it is a supply: refused, the item stays a medicine.
    const retyped = await importAll(
      'inventory',
      utf8([lines[0] as string, lines[2]?.replace('Medicamento', 'Insumo') as string]),
    );
    expect(retyped.refused).toEqual([
      { line: 2, externalId: 'A2', reasons: [{ field: 'type', code: 'invalid_transition' }] },
    ]);
  });
});
