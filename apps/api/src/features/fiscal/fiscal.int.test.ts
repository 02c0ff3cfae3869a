import { pointOfSaleRecord } from '@odontia/shared/routes/fiscal';
import type { fiscalDataResponseSchema } from '@odontia/shared/schemas/clinic-fiscal';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { declaredRecord, describeRecordContract } from '../../../test/record-contract.ts';
import {
  type Answer,
  expectAnswer,
  expectFieldErrors,
  type TestClinicContext,
  useTestClinic,
} from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** The clinic's business and fiscal data, its logo and its points of sale (issue 17). */

let nextCode = 100;
const freshCode = () => {
  nextCode += 1;
  return String(nextCode);
};

const argentina = {
  legalName: 'Sonrisas del Sur S.R.L.',
  tradeName: 'Clínica Sonrisas',
  country: 'AR',
  taxIdKind: 'cuit',
  taxId: '20-12345678-6',
  fiscalCondition: 'ar_responsable_inscripto',
  address: 'Av. Corrientes 1234',
  city: 'Buenos Aires',
  province: 'CABA',
  postalCode: 'C1043',
  phone: '+54 11 4444-5555',
  phoneMobile: null,
  email: 'admin@sonrisas.test',
  website: 'https://sonrisas.test',
};

type FiscalAnswer = Answer<typeof fiscalDataResponseSchema>;

async function current(t: TestClinicContext, token?: string) {
  return (await t.call('GET', '/api/settings/fiscal', token ? { token } : {})).json<FiscalAnswer>().data;
}

/** A multipart body with one file part `logo`. */
async function multipart(bytes: Buffer, name: string, type: string) {
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(bytes)], { type }), name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
    body: Buffer.from(await request.arrayBuffer()),
  };
}

const image = (width: number, height: number, format: 'png' | 'jpeg') =>
  sharp({ create: { width, height, channels: 3, background: '#1d4ed8' } })
    [format]()
    .toBuffer();

describe.each(availableBackends())('fiscal settings on %s', (backend) => {
  const t = useTestClinic(backend);

  const save = async (body: Record<string, unknown>, token?: string) => {
    const { version } = await current(t);
    return t.call('PUT', '/api/settings/fiscal', {
      body: { ...argentina, version, ...body },
      ...(token ? { token } : {}),
    });
  };

  it('answers the clinic’s data, empty until filled, with its name and currency', async () => {
    const data = await current(t, t.other.token);
    expect(data).toMatchObject({ legalName: null, taxId: null, logoSha256: null });
    expect(data.clinicName).toBeTruthy();
    expect(data.currency).toBeTruthy();
  });

  it('saves the data with the version, stores the tax id without separators and audits what changed', async () => {
    const before = await current(t);
    const saved = await save({});
    expectAnswer(saved, 200, {
      code: 'fiscal_data_updated',
      data: { ...argentina, taxId: '20123456786', version: before.version + 1 },
    });
    const again = await save({ city: 'La Plata' });
    expect(again.json().data.city).toBe('La Plata');
    const event = (await t.auditEvents('fiscal_data_updated')).at(-1);
    expect(event).toMatchObject({
      entity: 'account',
      entityId: t.clinic.accountId,
      before: { city: 'Buenos Aires' },
      after: { city: 'La Plata' },
    });
    expect(Object.keys(event?.after as object)).toEqual(['city']);
    // The other clinic's data did not change.
    expect((await current(t, t.other.token)).legalName).toBeNull();
  });

  it.each([
    ['AR', 'cuit', '20-12345678-6', 'ar_monotributo'],
    ['ES', 'nif', '12345678Z', 'es_exento'],
    ['BR', 'cnpj', '11.222.333/0001-81', 'br_simples_nacional'],
    ['FR', 'siren', '732 829 320', 'fr_regime_reel'],
  ])('accepts a valid tax id of %s (%s %s)', async (country, taxIdKind, taxId, fiscalCondition) => {
    const response = await save({ country, taxIdKind, taxId, fiscalCondition });
    expect(response.statusCode, response.body).toBe(200);
  });

  it.each([
    ['AR', 'cuit', '20-12345678-7', 'ar_monotributo'],
    ['ES', 'nif', '12345678A', 'es_exento'],
    ['BR', 'cnpj', '11.222.333/0001-82', 'br_simples_nacional'],
    ['FR', 'siret', '732 829 320 00075', 'fr_regime_reel'],
  ])(
    'refuses a wrong check digit of %s (%s %s) with invalid_tax_id on taxId',
    async (country, taxIdKind, taxId, fiscalCondition) => {
      const before = await current(t);
      const response = await save({ country, taxIdKind, taxId, fiscalCondition });
      expectFieldErrors(response, [expect.objectContaining({ path: 'taxId', code: 'invalid_tax_id' })]);
      expect((await current(t)).version).toBe(before.version);
    },
  );

  it('refuses a kind or condition of another country, a missing legal name, bad e-mail and hostile text', async () => {
    const wrongKind = await save({
      country: 'ES',
      taxIdKind: 'cuit',
      taxId: '20-12345678-6',
      fiscalCondition: 'es_exento',
    });
    expectFieldErrors(wrongKind, [expect.objectContaining({ path: 'taxIdKind', code: 'invalid_value' })]);
    const wrongCondition = await save({ fiscalCondition: 'es_exento' });
    expectFieldErrors(wrongCondition, [expect.objectContaining({ path: 'fiscalCondition', code: 'invalid_value' })]);
    const noKind = await save({ taxIdKind: null });
    expectFieldErrors(noKind, [expect.objectContaining({ path: 'taxIdKind', code: 'required' })]);
    for (const body of [
      { legalName: '' },
      { email: 'no-es-un-correo' },
      { legalName: 'Sonrisas\u0000' },
      { city: '\ud800' },
      { country: 'XX' },
      { taxId: 'x'.repeat(31) },
    ]) {
      const response = await save(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers 409 version_conflict with the current data when stale, and changes nothing', async () => {
    const { version } = await current(t);
    expect((await save({ city: 'Rosario' })).statusCode).toBe(200);
    const stale = await t.call('PUT', '/api/settings/fiscal', { body: { ...argentina, city: 'Mendoza', version } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'version_conflict',
      details: { current: { city: 'Rosario', version: version + 1 } },
    });
    expect((await current(t)).city).toBe('Rosario');
  });

  it.each(['administrator', 'supervisor', 'user', 'customer'] as const)(
    'as %s: reads with commercial.read, writes with settings.manage only',
    async (level) => {
      const png = await multipart(await image(10, 10, 'png'), 'logo.png', 'image/png');
      await t.asLevel(level, async () => {
        const read = await t.call('GET', '/api/settings/fiscal');
        expect(read.statusCode).toBe(level === 'customer' ? 403 : 200);
        const { version } = (await current(t, undefined)) ?? { version: 0 };
        const write = await t.call('PUT', '/api/settings/fiscal', { body: { ...argentina, version } });
        expect(write.statusCode).toBe(level === 'administrator' ? 200 : 403);
        const logo = await t.call('PUT', '/api/settings/fiscal/logo', png);
        expect(logo.statusCode).toBe(level === 'administrator' ? 200 : 403);
        const removed = await t.call('DELETE', '/api/settings/fiscal/logo');
        expect(removed.statusCode).toBe(level === 'administrator' ? 200 : 403);
      });
    },
  );

  it('stores the logo as a PNG at most 600 px wide, serves it, audits it and removes it', async () => {
    const upload = await t.call(
      'PUT',
      '/api/settings/fiscal/logo',
      await multipart(await image(1200, 400, 'jpeg'), 'logo.jpg', 'image/jpeg'),
    );
    expect(upload.statusCode, upload.body).toBe(200);
    const answer = upload.json<FiscalAnswer>();
    expect(answer.code).toBe('logo_updated');
    expect(answer.data.logoSha256).toMatch(/^[0-9a-f]{64}$/);
    const served = await t.call('GET', '/api/settings/fiscal/logo');
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 600, height: 200 });
    // Another clinic has none.
    expect((await t.call('GET', '/api/settings/fiscal/logo', { token: t.other.token })).statusCode).toBe(404);
    const small = await t.call(
      'PUT',
      '/api/settings/fiscal/logo',
      await multipart(await image(120, 60, 'png'), 'l.png', 'image/png'),
    );
    expect(small.statusCode).toBe(200);
    expect(await sharp((await t.call('GET', '/api/settings/fiscal/logo')).rawPayload).metadata()).toMatchObject({
      width: 120,
    });
    const events = await t.auditEvents('logo_updated');
    expect(events.at(-1)).toMatchObject({
      entity: 'account',
      before: { sha256: answer.data.logoSha256, width: 600 },
      after: { width: 120, height: 60 },
    });
    const removed = await t.call('DELETE', '/api/settings/fiscal/logo');
    expect(removed.json()).toMatchObject({ code: 'logo_removed', data: { logoSha256: null } });
    expect((await t.call('GET', '/api/settings/fiscal/logo')).statusCode).toBe(404);
    expect((await t.auditEvents('logo_removed')).at(-1)).toMatchObject({ before: { width: 120 }, after: null });
  });

  it('refuses a logo that is not a PNG or JPEG by its content, or over 1 MB, with 415 logo_invalid', async () => {
    const text = await t.call(
      'PUT',
      '/api/settings/fiscal/logo',
      await multipart(Buffer.from('hola, no soy una imagen'), 'logo.png', 'image/png'),
    );
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ code: 'logo_invalid', details: { maxBytes: 1048576 } });
    const webp = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .webp()
      .toBuffer();
    expect(
      (await t.call('PUT', '/api/settings/fiscal/logo', await multipart(webp, 'logo.png', 'image/png'))).statusCode,
    ).toBe(415);
    const noise = Buffer.alloc(900 * 900 * 3);
    for (let index = 0; index < noise.length; index += 1) noise[index] = (index * 7919) % 251;
    const big = await sharp(noise, { raw: { width: 900, height: 900, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const tooBig = await t.call('PUT', '/api/settings/fiscal/logo', await multipart(big, 'logo.png', 'image/png'));
    expect(tooBig.statusCode).toBe(415);
    expect(tooBig.json().code).toBe('logo_invalid');
    const json = await t.call('PUT', '/api/settings/fiscal/logo', { body: { logo: 'x' } });
    expect(json.statusCode).toBe(415);
    expect((await current(t)).logoSha256).toBeNull();
  });

  it('prints the fiscal header on a prescription (legal name, formatted CUIT, condition, logo)', async () => {
    expect((await save({ taxId: '20123456786', fiscalCondition: 'ar_responsable_inscripto' })).statusCode).toBe(200);
    await t.call(
      'PUT',
      '/api/settings/fiscal/logo',
      await multipart(await image(200, 80, 'png'), 'l.png', 'image/png'),
    );
    const patient = await t.newPatient();
    await t.call('PATCH', '/api/auth/system/me', { body: { licenseNumber: 'MN 12345' } });
    const created = await t.call('POST', `/api/patients/${patient}/prescriptions`, {
      body: { date: '2026-03-01', professionalId: t.clinic.userId, lines: [{ medicine: 'Ibuprofeno 400' }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const pdf = await t.call('GET', `/api/patients/${patient}/prescriptions/${created.json().data.id}/pdf`);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.includes(Buffer.from('/Subtype /Image'))).toBe(true);
  });
});

describe.each(availableBackends())('points of sale on %s', (backend) => {
  const t = useTestClinic(backend);

  describeRecordContract(t, {
    ...declaredRecord(pointOfSaleRecord),
    table: 'points_of_sale',
    body: () => ({ code: freshCode(), name: 'Recepción' }),
    update: {
      body: () => ({ code: freshCode(), name: 'Caja 2', active: false }),
      shows: { name: 'Caja 2', active: false },
    },
    history: { before: { name: 'Recepción' }, after: { name: 'Caja 2' } },
    softDelete: { auditBefore: { name: 'Recepción' } },
    permissions: { read: 'commercial.read', write: 'settings.manage' },
  });

  it('pads the code to four digits and answers 409 point_of_sale_exists for a live duplicate', async () => {
    const first = await t.call('POST', '/api/points-of-sale', { body: { code: '7', name: 'Mostrador' } });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data.code).toBe('0007');
    const again = await t.call('POST', '/api/points-of-sale', { body: { code: '0007', name: 'Otro' } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'point_of_sale_exists',
      details: { pointOfSale: { id: first.json().data.id, code: '0007' } },
    });
    const other = await t.call('POST', '/api/points-of-sale', { body: { code: '8', name: 'Caja' } });
    const clash = await t.call('PUT', `/api/points-of-sale/${other.json().data.id}`, {
      body: { code: '7', name: 'Caja', version: other.json().data.version },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe('point_of_sale_exists');
    // Another clinic may use the same code; a deleted one frees it.
    expect(
      (await t.call('POST', '/api/points-of-sale', { token: t.other.token, body: { code: '7', name: 'X' } }))
        .statusCode,
    ).toBe(201);
    expect((await t.call('DELETE', `/api/points-of-sale/${first.json().data.id}`)).statusCode).toBe(200);
    expect((await t.call('POST', '/api/points-of-sale', { body: { code: '7', name: 'Nuevo' } })).statusCode).toBe(201);
  });

  it('refuses a code that is not 1 to 5 digits with its field code', async () => {
    for (const code of ['', 'A1', '123456', '-1', '1.5']) {
      const response = await t.call('POST', '/api/points-of-sale', { body: { code, name: 'X' } });
      expect(response.statusCode, code).toBe(400);
      expect(response.json().details?.fields?.[0]?.path).toBe('code');
    }
  });
});
