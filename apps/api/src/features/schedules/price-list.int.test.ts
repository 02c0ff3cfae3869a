import { describe, expect, it } from 'vitest';
import { setLevel } from '../../../test/clinics.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** The price list (issue 18): treatments with group, price and VAT; search, filters, sort, CSV export and import. */
describe.each(availableBackends())('price list on %s', (backend) => {
  const t = useTestClinic(backend);
  const create = async (body: Record<string, unknown>, token = t.clinic.token) => {
    return t.created('/api/treatments', { token, body: { durationMinutes: 30, ...body } });
  };
  const list = async (query: string) => {
    const response = await t.call('GET', `/api/treatments?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('stores group, price and VAT as decimals; blank price is 0; bad amounts answer 400 on the field', async () => {
    const made = await create({
      code: 'END-01',
      name: 'Endodoncia unirradicular',
      groupName: 'Endodoncia',
      price: '45000,5',
      vatRate: '21',
    });
    expect(made).toMatchObject({ groupName: 'Endodoncia', price: '45000.50', vatRate: '21.00' });
    const plain = await create({ name: 'Control', price: '' });
    expect(plain).toMatchObject({ price: '0.00', vatRate: '0.00', groupName: null });
    const bad = await t.call('POST', '/api/treatments', {
      body: { name: 'Malo', durationMinutes: 30, price: '-1', vatRate: '101' },
    });
    expect(bad.statusCode).toBe(400);
    const paths = bad
      .json()
      .details.fields.map((field: { path: string }) => field.path)
      .sort();
    expect(paths).toEqual(['price', 'vatRate']);
    const taken = await t.call('POST', '/api/treatments', {
      body: { code: 'end-01', name: 'Otra', durationMinutes: 30 },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('treatment_code_exists');
  });

  it('searches as you type by code, name or group without accents, filters by group and active, sorts', async () => {
    await create({ code: 'IMP-01', name: 'Implante de titanio', groupName: 'Implantes', price: '300000' });
    await create({ code: 'IMP-02', name: 'Corona sobre implante', groupName: 'Implantes', price: '150000' });
    await create({
      code: 'PRE-01',
      name: 'Limpieza y fluoración',
      groupName: 'Prevención',
      price: '20000',
      active: false,
    });
    expect((await list('q=fluoracion')).data.map((row: { code: string }) => row.code)).toEqual(['PRE-01']);
    expect((await list('q=prevencion')).data.map((row: { code: string }) => row.code)).toEqual(['PRE-01']);
    expect((await list('q=imp 02')).data.map((row: { code: string }) => row.code)).toEqual(['IMP-02']);
    const implants = await list('group=Implantes&sort=price');
    expect(implants.data.map((row: { code: string }) => row.code)).toEqual(['IMP-02', 'IMP-01']);
    expect(implants.total).toBe(2);
    expect((await list('group=Implantes&sort=-price')).data.map((row: { code: string }) => row.code)).toEqual([
      'IMP-01',
      'IMP-02',
    ]);
    expect((await list('active=false')).data.map((row: { code: string }) => row.code)).toEqual(['PRE-01']);
    const byCode = (await list('sort=code&q=-0')).data.map((row: { code: string }) => row.code);
    expect(byCode).toEqual([...byCode].sort());
    const groups = await t.call('GET', '/api/treatments/groups');
    expect(groups.json().data).toEqual(expect.arrayContaining(['Implantes', 'Prevención']));
    expect((await t.call('GET', '/api/treatments?sort=cost')).statusCode).toBe(400);
    // Another clinic sees none of them.
    const theirs = await t.call('GET', '/api/treatments?q=implante', { token: t.other.token });
    expect(theirs.json().total).toBe(0);
  });

  it('exports the filtered list as CSV with a BOM and `;`', async () => {
    await create({
      code: 'ORT-01',
      name: 'Brackets; metálicos',
      groupName: 'Ortodoncia',
      price: '500000',
      vatRate: '10.5',
    });
    const response = await t.call('GET', '/api/treatments/export?group=Ortodoncia');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toMatch(/lista-de-precios-\d{4}-\d{2}-\d{2}\.csv/);
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    const lines = response.body.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('Código;Nombre;Grupo;Precio;IVA (%);Duración (min);Activo');
    expect(lines.slice(1)).toEqual(['ORT-01;"Brackets; metálicos";Ortodoncia;500000,00;10,50;30;sí']);
  });

  it('imports by code: a dry run lists row errors and writes nothing; applying updates known codes and creates the rest', async () => {
    await create({
      code: 'CIR-01',
      name: 'Extracción simple',
      groupName: 'Cirugía',
      price: '30000',
      durationMinutes: 45,
    });
    const bad =
      'Código;Nombre;Precio;IVA (%);Color favorito\r\nCIR-01;Extracción simple;35000;21;rojo\r\nCIR-02;;abc;;\r\ncir-01;Otra;1;;\r\n';
    const dry = await t.call('POST', '/api/treatments/import', { body: { content: bad } });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().data).toMatchObject({ total: 3, valid: 0, ignoredColumns: ['Color favorito'] });
    expect(dry.json().data.errors).toEqual([
      { line: 3, field: 'name', code: 'required' },
      { line: 3, field: 'price', code: expect.any(String) },
      { line: 4, field: 'code', code: 'duplicate_in_file' },
    ]);
    const refused = await t.call('POST', '/api/treatments/import', { body: { content: bad, dryRun: false } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('import_has_errors');

    const good =
      '\uFEFFcode,name,groupName,price,vatRate,active\r\nCIR-01,Extracción simple,Cirugía,"35000,00",21,sí\r\nCIR-03,Extracción de cordal,Cirugía,90000,21,no\r\n';
    const preview = await t.call('POST', '/api/treatments/import', { body: { content: good } });
    expect(preview.json().data.preview.map((row: { action: string }) => row.action)).toEqual(['update', 'create']);
    expect((await list('group=Cirugía')).total).toBe(1);
    const applied = await t.call('POST', '/api/treatments/import', { body: { content: good, dryRun: false } });
    expectAnswer(applied, 201, { code: 'treatments_imported', data: { created: 1, updated: 1 } });
    const rows = (await list('group=Cirugía&sort=code')).data;
    expect(rows).toEqual([
      expect.objectContaining({ code: 'CIR-01', price: '35000.00', vatRate: '21.00', durationMinutes: 45 }),
      expect.objectContaining({ code: 'CIR-03', price: '90000.00', active: false, durationMinutes: 30 }),
    ]);
  });

  it('only settings.manage writes the price list; everyone who reads patients reads it', async () => {
    const made = await create({ code: 'NIV-01', name: 'Nivel', price: '10' });
    await setLevel(t.db, t.clinic.userId, 'user');
    try {
      expect((await t.call('GET', '/api/treatments?q=nivel')).json().total).toBe(1);
      expect((await t.call('GET', '/api/treatments/export')).statusCode).toBe(200);
      const write = await t.call('PUT', `/api/treatments/${made.id}`, {
        body: { name: 'Nivel', durationMinutes: 30, price: '1', version: made.version },
      });
      expect(write.statusCode).toBe(403);
      expect((await t.call('POST', '/api/treatments/import', { body: { content: 'name\r\nX\r\n' } })).statusCode).toBe(
        403,
      );
    } finally {
      await setLevel(t.db, t.clinic.userId, 'administrator');
    }
  });
});
