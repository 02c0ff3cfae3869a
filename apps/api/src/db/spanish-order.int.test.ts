import { describe, expect, it } from 'vitest';
import { insertProvider } from '../../test/commercial.ts';
import { useTestClinic } from '../../test/test-clinic.ts';
import { availableBackends } from '../../test/test-database.ts';

/**
 * Names in Spanish order on every list sorted by a name (issue 34, major 6): accent- and
 * case-insensitive, ñ after n — not the byte order that put "Gutiérrez" before "Gómez" and
 * "Álvarez" last.
 */
const names = [
  'Zapata',
  'Ñandú',
  'Oliva',
  'Núñez',
  'Gutiérrez',
  'Gómez',
  'álvaro',
  'Álvarez',
  'Nuñez',
  'Nava',
  'Ibarra',
  'Ibáñez',
];
/** "Núñez" and "Nuñez" are the same name to Spanish order: either may come first. */
const spanish = [
  'Álvarez',
  'álvaro',
  'Gómez',
  'Gutiérrez',
  'Ibáñez',
  'Ibarra',
  'Nava',
  'N*ñez',
  'N*ñez',
  'Ñandú',
  'Oliva',
  'Zapata',
];
const same = (listed: string[]) => listed.map((name) => (/^N[uú]ñez$/.test(name) ? 'N*ñez' : name));

/** The names of `listed` that are ours (a list may also hold the clinic's own rows), in their order. */
function ours(listed: string[], suffix = ''): string[] {
  const wanted = new Set(names.map((name) => `${name}${suffix}`));
  return listed.filter((name) => wanted.has(name)).map((name) => name.slice(0, name.length - suffix.length));
}

describe.each(availableBackends())('Spanish order of names on %s', (backend) => {
  const t = useTestClinic(backend);

  async function listed(url: string, field: string, suffix = ''): Promise<string[]> {
    const response = await t.call('GET', url);
    expect(response.statusCode, response.body).toBe(200);
    const rows = response.json().data as Record<string, string>[];
    return ours(
      rows.map((row) => row[field] ?? ''),
      suffix,
    );
  }
  async function expectSpanish(url: string, field: string, suffix = '') {
    expect(same(await listed(url, field, suffix)), url).toEqual(spanish);
  }
  async function expectReversed(url: string, field: string, suffix = '') {
    expect(same(await listed(url, field, suffix)), url).toEqual(spanish.toReversed());
  }
  async function post(url: string, body: object) {
    const response = await t.call('POST', url, { body });
    expect(response.statusCode, response.body).toBe(201);
  }

  it('patients, by last name (the default) and by first name, up and down, listed and searched', async () => {
    for (const [index, name] of names.entries()) {
      const email = `paciente${index}@ordenados.test`;
      await post('/api/patients', { firstName: name, lastName: name, sex: 'female', birthdate: '1985-06-15', email });
    }
    await expectSpanish('/api/patients?pageSize=100', 'lastName');
    await expectSpanish('/api/patients?pageSize=100&sort=lastName', 'lastName');
    await expectSpanish('/api/patients?pageSize=100&sort=firstName', 'firstName');
    await expectReversed('/api/patients?pageSize=100&sort=-lastName', 'lastName');
    // A search of three letters or more goes through the clinic's search index, then sorts.
    await expectSpanish('/api/patients?pageSize=100&q=ordenados', 'lastName');
    await expectSpanish('/api/patients?pageSize=100&q=ordenados&sort=firstName', 'firstName');
    expect(same(await listed('/api/patients?pageSize=100&q=nez', 'lastName'))).toEqual(['Ibáñez', 'N*ñez', 'N*ñez']);
  });

  it('users and professionals', async () => {
    for (const [index, name] of names.entries()) {
      await post('/api/users', { completeName: name, email: `persona${index}@clinica.test`, level: 'user' });
    }
    await expectSpanish('/api/users?pageSize=100', 'completeName');
    await expectSpanish('/api/users?pageSize=100&sort=completeName', 'completeName');
    await expectReversed('/api/users?pageSize=100&sort=-completeName', 'completeName');
    await expectSpanish('/api/professionals', 'completeName');
  });

  it('supplies and medications', async () => {
    for (const [index, name] of names.entries()) {
      const item = {
        name,
        sku: `ORD-${index}`,
        costPrice: '1',
        basePrice: '2',
        taxRate: '21',
        minStock: 0,
        reorderStock: 0,
        totalStock: 0,
        // "Núñez" and "Nuñez" are one name but for accents: the catalogue asks before a second one.
        allowSimilarName: true,
      };
      await post('/api/supplies', { ...item, unitMeasurement: 'box', packagingQty: 1 });
      await post('/api/medications', { ...item, sku: `ORD-M${index}` });
    }
    for (const base of ['supplies', 'medications']) {
      await expectSpanish(`/api/${base}?pageSize=100`, 'name');
      await expectSpanish(`/api/${base}?pageSize=100&sort=name`, 'name');
      await expectReversed(`/api/${base}?pageSize=100&sort=-name`, 'name');
      await expectSpanish(`/api/${base}?pageSize=100&q=ord`, 'name');
    }
  });

  it('the price list', async () => {
    for (const name of names) await post('/api/treatments', { name, durationMinutes: 30 });
    await expectSpanish('/api/treatments?pageSize=100', 'name');
    await expectReversed('/api/treatments?pageSize=100&sort=-name', 'name');
  });

  it('customers, providers and their current accounts', async () => {
    for (const name of names) {
      await post('/api/customers', {
        kind: 'insurer',
        name,
        country: 'AR',
        fiscalCondition: 'ar_responsable_inscripto',
        language: 'es',
        paymentTermDays: 30,
      });
      await insertProvider(t, { fantasyName: name, nif: null, taxIdKind: null });
    }
    await expectSpanish('/api/customers?pageSize=100', 'name');
    await expectReversed('/api/customers?pageSize=100&sort=-name', 'name');
    await expectSpanish('/api/providers?pageSize=100', 'fantasyName');
    await expectReversed('/api/providers?pageSize=100&sort=-fantasyName', 'fantasyName');
    await expectSpanish('/api/current-accounts/customers?pageSize=100', 'name');
    await expectReversed('/api/current-accounts/customers?pageSize=100&sort=-name', 'name');
    await expectSpanish('/api/current-accounts/providers?pageSize=100', 'name');
  });
});
