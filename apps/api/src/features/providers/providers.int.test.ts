import { providerRecord } from '@odontia/shared/routes/parties';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { declaredRecord, describeRecordContract } from '../../../test/record-contract.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';

/** A valid CUIT of prefix 30 (companies) for a serial number: the check digit worked out. */
function cuit(serial: number): string {
  for (let n = serial; ; n += 1) {
    const body = `30${String(n % 100_000_000).padStart(8, '0')}`;
    const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
    const sum = weights.reduce((total, weight, index) => total + weight * Number(body[index]), 0);
    const rest = 11 - (sum % 11);
    const check = rest === 11 ? 0 : rest;
    if (check !== 10) return `${body}${check}`;
  }
}
let serial = 10_000_000 + Math.floor(Math.random() * 1_000_000);
const nextCuit = () => {
  const id = cuit(serial);
  serial = Number(id.slice(2, 10)) + 1;
  return id;
};

const provider = (overrides: Record<string, unknown> = {}) => ({
  nif: nextCuit(),
  taxIdKind: 'cuit',
  fantasyName: 'Depósito Dental Norte',
  bussinesName: 'Depósito Dental Norte S.R.L.',
  companyName: 'Grupo Norte',
  fiscalCondition: 'ar_responsable_inscripto',
  bankName: 'Banco Nación',
  bankAccount: '0110599520000001234567',
  bankKey: 'DEPOSITO.NORTE',
  currency: 'argentine_peso',
  contactName: 'Julieta Ramos',
  commercialAddress: 'Av. Corrientes 1234, CABA',
  phoneAreaBussines: '11',
  phoneBusiness: '4555-1234',
  phoneMobile: '11 6123-4567',
  email: 'ventas@depositonorte.com.ar',
  paymentTermDays: 30,
  notes: 'Entrega martes y jueves',
  active: true,
  ...overrides,
});

describe.each(availableBackends())('providers on %s', (backend) => {
  const t = useTestClinic(backend);

  describeRecordContract(t, {
    ...declaredRecord(providerRecord),
    table: 'providers',
    body: () => provider(),
    update: {
      body: () => provider({ nif: null, taxIdKind: null, fantasyName: 'Depósito Dental Sur', paymentTermDays: 60 }),
      shows: { fantasyName: 'Depósito Dental Sur', paymentTermDays: 60, nif: null },
    },
    history: {
      before: { fantasyName: 'Depósito Dental Norte', paymentTermDays: 30 },
      after: { fantasyName: 'Depósito Dental Sur', paymentTermDays: 60 },
    },
    softDelete: { auditBefore: { fantasyName: 'Depósito Dental Norte' } },
    permissions: { read: 'commercial.read', write: 'commercial.write', delete: 'commercial.delete' },
  });

  const create = async (body: Record<string, unknown>) => {
    return t.created<{ id: string; version: number; nif: string | null; hasDocuments: boolean }>('/api/providers', {
      body,
    });
  };
  const fieldsOf = (response: { json: () => { details?: { fields?: { path: string; code: string }[] } } }) =>
    Object.fromEntries((response.json().details?.fields ?? []).toReversed().map((field) => [field.path, field.code]));

  it('creates with every field, the tax id stored without separators, hasDocuments false', async () => {
    const body = provider({ nif: '20-12345678-6', taxIdKind: 'cuit' });
    const response = await t.call('POST', '/api/providers', { body });
    expectAnswer(response, 201, {
      code: 'provider_created',
      data: { ...body, nif: '20123456786', hasDocuments: false, version: 1, createdByName: expect.any(String) },
    });
    const events = await t.auditEvents('provider_created');
    expect(events.find((event) => event.entityId === response.json().data.id)?.after).toMatchObject({
      fantasyName: 'Depósito Dental Norte',
      nif: '20123456786',
    });
    // Tidy: the duplicate tests below use this CUIT.
    expect((await t.call('DELETE', `/api/providers/${response.json().data.id}`)).statusCode).toBe(200);
  });

  it.each([
    ['cuit', '20-12345678-6', true],
    ['cuit', '20-12345678-7', false],
    ['cuit', '20123456786', true],
    ['nif', '12345678Z', true],
    ['nif', '12345678A', false],
    ['cnpj', '11.222.333/0001-81', true],
    ['cnpj', '11.222.333/0001-82', false],
  ])('checks the tax id of kind %s: %s valid=%s', async (kind, nif, valid) => {
    const response = await t.call('POST', '/api/providers', {
      body: provider({ nif, taxIdKind: kind, fiscalCondition: null }),
    });
    if (valid) {
      expect(response.statusCode, response.body).toBe(201);
      await t.call('DELETE', `/api/providers/${response.json().data.id}`);
    } else {
      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response)).toEqual({ nif: 'invalid_tax_id' });
    }
  });

  it('validates each field with its code', async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ fantasyName: '' }, { fantasyName: 'required' }],
      [{ fantasyName: 'x'.repeat(161) }, { fantasyName: 'too_long' }],
      [{ nif: '20123456786', taxIdKind: null }, { taxIdKind: 'required' }],
      [{ taxIdKind: 'passport' }, { taxIdKind: 'invalid_value' }],
      [{ nif: 'x'.repeat(31) }, { nif: 'too_long' }],
      [{ fiscalCondition: 'millonario' }, { fiscalCondition: 'invalid_value' }],
      [{ currency: 'bitcoin' }, { currency: 'invalid_value' }],
      [{ currency: undefined }, { currency: 'invalid_value' }],
      [{ email: 'ventas@' }, { email: 'invalid_email' }],
      [{ phoneBusiness: 'llamar' }, { phoneBusiness: 'invalid_phone' }],
      [{ phoneMobile: 'abc' }, { phoneMobile: 'invalid_phone' }],
      [{ paymentTermDays: 400 }, { paymentTermDays: 'too_big' }],
      [{ paymentTermDays: -1 }, { paymentTermDays: 'too_small' }],
      [{ paymentTermDays: 1.5 }, { paymentTermDays: 'invalid_number' }],
      [{ bankAccount: '1'.repeat(61) }, { bankAccount: 'too_long' }],
      [{ notes: 'n'.repeat(2001) }, { notes: 'too_long' }],
      [{ active: 'sí' }, { active: 'invalid_value' }],
    ];
    for (const [overrides, expected] of cases) {
      const response = await t.call('POST', '/api/providers', { body: provider(overrides) });
      expect(response.statusCode, `${JSON.stringify(overrides)} → ${response.body}`).toBe(400);
      expect(response.json().code).toBe('validation_error');
      const fields = fieldsOf(response);
      for (const [path, code] of Object.entries(expected)) {
        expect(fields[path], `${JSON.stringify(overrides)} → ${response.body}`).toBe(code);
      }
    }
  });

  it('answers 400, never 500, to hostile text (NUL, a lone surrogate)', async () => {
    for (const hostile of ['Dep\u0000ósito', 'Dep\uD800ósito', '\uDFFF']) {
      for (const field of ['fantasyName', 'bussinesName', 'nif', 'notes', 'email', 'bankKey']) {
        const response = await t.call('POST', '/api/providers', { body: provider({ [field]: hostile }) });
        expect(response.statusCode, `${field} ${JSON.stringify(hostile)} → ${response.body}`).toBe(400);
      }
    }
    const search = await t.call('GET', `/api/providers?q=${encodeURIComponent('dep\u0000ósito')}`);
    expect(search.statusCode).toBeLessThan(500);
    const sort = await t.call('GET', '/api/providers?sort=password');
    expect(sort.statusCode).toBeLessThan(500);
  });

  it('answers 409 provider_tax_id_exists naming the holder, whatever the separators, on create and edit', async () => {
    const nif = nextCuit();
    const dashed = `${nif.slice(0, 2)}-${nif.slice(2, 10)}-${nif.slice(10)}`;
    const first = await create(provider({ nif: dashed, fantasyName: 'Implantes del Plata' }));
    for (const typed of [nif, dashed, `${nif.slice(0, 2)} ${nif.slice(2, 10)} ${nif.slice(10)}`]) {
      const second = await t.call('POST', '/api/providers', { body: provider({ nif: typed }) });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({
        code: 'provider_tax_id_exists',
        details: { provider: { id: first.id, fantasyName: 'Implantes del Plata' } },
      });
    }
    const other = await create(provider());
    const edit = await t.call('PUT', `/api/providers/${other.id}`, {
      body: { ...provider({ nif: dashed }), version: other.version },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().details.provider.id).toBe(first.id);
    // Its own tax id again is no conflict.
    const same = await t.call('PUT', `/api/providers/${first.id}`, {
      body: { ...provider({ nif, fantasyName: 'Implantes del Plata SA' }), version: first.version },
    });
    expect(same.statusCode, same.body).toBe(200);
    // Another clinic may have the same provider.
    const theirs = await t.call('POST', '/api/providers', { token: t.other.token, body: provider({ nif }) });
    expect(theirs.statusCode).toBe(201);
    // A deleted provider frees its tax id.
    expect((await t.call('DELETE', `/api/providers/${first.id}`)).statusCode).toBe(200);
    expect((await t.call('POST', '/api/providers', { body: provider({ nif }) })).statusCode).toBe(201);
  });

  it('two creates with the same tax id at once: one is created, the other answers 409 naming it', async () => {
    const nif = nextCuit();
    const answers = await Promise.all(
      [1, 2, 3].map((n) => t.call('POST', '/api/providers', { body: provider({ nif, fantasyName: `Carrera ${n}` }) })),
    );
    const created = answers.filter((answer) => answer.statusCode === 201);
    expect(created).toHaveLength(1);
    for (const answer of answers.filter((one) => one.statusCode !== 201)) {
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json().code).toBe('provider_tax_id_exists');
    }
  });

  it('refuses to delete a provider a document or payment names (409 provider_has_documents); it can be deactivated', async () => {
    const supplier = await create(provider({ fantasyName: 'Farmacia Anestésicos SA' }));
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute(sql`insert into commercial_documents (account_id, id, side, document_type, provider_id, date, currency)
        values (${t.clinic.accountId}, ${newId()}, 'purchase', 'invoice', ${supplier.id}, '2026-03-02', 'argentine_peso')`),
    );
    const read = await t.call('GET', `/api/providers/${supplier.id}`);
    expect(read.json().data.hasDocuments).toBe(true);
    const listed = await t.call('GET', '/api/providers?q=anestesicos');
    expect(listed.json().data.find((row: { id: string }) => row.id === supplier.id)?.hasDocuments).toBe(true);
    const removed = await t.call('DELETE', `/api/providers/${supplier.id}`);
    expect(removed.statusCode).toBe(409);
    expect(removed.json().code).toBe('provider_has_documents');
    expect((await t.call('GET', `/api/providers/${supplier.id}`)).statusCode).toBe(200);
    const deactivated = await t.call('PUT', `/api/providers/${supplier.id}`, {
      body: { ...provider({ nif: supplier.nif, fantasyName: 'Farmacia Anestésicos SA', active: false }), version: 1 },
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect(deactivated.json().data).toMatchObject({ active: false, hasDocuments: true });
    const inactive = await t.call('GET', '/api/providers?active=false&pageSize=100');
    expect(inactive.json().data.map((row: { id: string }) => row.id)).toContain(supplier.id);
    const active = await t.call('GET', '/api/providers?active=true&pageSize=100');
    expect(active.json().data.map((row: { id: string }) => row.id)).not.toContain(supplier.id);
  });

  it('searches as you type by names without accents, tax id and contact; sorts and pages', async () => {
    const clinic = await t.newClinic();
    const as = { token: clinic.token };
    const nif = nextCuit();
    const names = ['Óptica Ñandú', 'Anestésicos Río', 'Implantes Zárate', 'Bio Dental'];
    for (const [index, name] of names.entries()) {
      const response = await t.call('POST', '/api/providers', {
        ...as,
        body: provider({
          fantasyName: name,
          nif: index === 0 ? nif : nextCuit(),
          contactName: index === 1 ? 'Sofía Gutiérrez' : null,
        }),
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const search = async (q: string) =>
      (await t.call('GET', `/api/providers?q=${encodeURIComponent(q)}`, as))
        .json()
        .data.map((row: { fantasyName: string }) => row.fantasyName);
    expect(await search('anestesicos')).toEqual(['Anestésicos Río']);
    expect(await search('ÑANDU')).toEqual(['Óptica Ñandú']);
    expect(await search('zar')).toEqual(['Implantes Zárate']);
    expect(await search('gutierrez')).toEqual(['Anestésicos Río']);
    expect(await search(nif)).toEqual(['Óptica Ñandú']);
    expect(await search(nif.slice(5))).toEqual(['Óptica Ñandú']);
    // Typed as printed, with its separators.
    expect(await search(`${nif.slice(0, 2)}-${nif.slice(2, 10)}-${nif.slice(10)}`)).toEqual(['Óptica Ñandú']);
    // Two letters: no trigram index, the words checked on the clinic's rows.
    expect(await search('rí')).toEqual(['Anestésicos Río']);
    expect(await search('nadie')).toEqual([]);
    const sorted = await t.call('GET', '/api/providers?sort=-fantasyName', as);
    expect(sorted.json().data.map((row: { fantasyName: string }) => row.fantasyName)).toEqual([
      'Óptica Ñandú',
      'Implantes Zárate',
      'Bio Dental',
      'Anestésicos Río',
    ]);
    const byNif = await t.call('GET', '/api/providers?sort=nif', as);
    const nifs = byNif.json().data.map((row: { nif: string }) => row.nif);
    expect(nifs).toEqual([...nifs].sort());
    const page = await t.call('GET', '/api/providers?page=2&pageSize=3', as);
    expect(page.json()).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(page.json().data).toHaveLength(1);
    // Another clinic's search never finds them.
    expect((await t.call('GET', '/api/providers?q=anestesicos', { token: t.other.token })).json().data).toEqual([]);
  });

  it('exports the list as CSV: UTF-8 with BOM, ";" separated, every field, the list filters', async () => {
    const clinic = await t.newClinic();
    const as = { token: clinic.token };
    const created = await t.call('POST', '/api/providers', {
      ...as,
      body: provider({ nif: nextCuit(), fantasyName: 'Dental Ñuñoa; "Central"', notes: '=1+1' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.call('POST', '/api/providers', { ...as, body: provider({ fantasyName: 'Inactivo SA', active: false }) });
    const response = await t.call('GET', '/api/providers/export.csv?active=true', as);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(response.headers['content-disposition']).toMatch(
      /attachment; filename="proveedores-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const body = response.body;
    expect(body.startsWith('\uFEFF')).toBe(true);
    const lines = body.slice(1).trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      'Nombre de fantasía;Razón social;Empresa o grupo;Tipo de identificación;Identificación fiscal;Condición fiscal;Contacto;Dirección comercial;Código de área;Teléfono;Móvil;E-mail;Banco;Cuenta (CBU/IBAN);Clave o alias;Moneda;Plazo de pago (días);Notas;Activo;Con comprobantes;Actualizado',
    );
    expect(lines[1]).toContain('"Dental Ñuñoa; ""Central"""');
    expect(lines[1]).toMatch(/;cuit;30-\d{8}-\d;ar_responsable_inscripto;/);
    expect(lines[1]).toContain(`;"'=1+1";sí;no;`);
    const forbidden = await t.asLevel('customer', () => t.call('GET', '/api/providers/export.csv'));
    expect(forbidden.statusCode).toBe(403);
  });
});
