import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import { setLevel } from '../../../test/clinics.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';
import { customerOfPatient } from './customer-parties.ts';

/** Customers of the clinic (issue 18): companies and insurers with fiscal data; patients' billing rows. */
describe.each(availableBackends())('customers on %s', (backend) => {
  const t = useTestClinic(backend);
  let counter = 0;
  const company = (overrides: Record<string, unknown> = {}) => {
    counter += 1;
    return {
      kind: 'insurer',
      name: `OSDE Salud ${counter}`,
      country: 'AR',
      taxIdKind: 'cuit',
      fiscalCondition: 'ar_responsable_inscripto',
      email: `facturas${counter}@osde.test`,
      language: 'es',
      paymentTermDays: 60,
      ...overrides,
    };
  };
  const create = async (body: Record<string, unknown>) => {
    return t.created('/api/customers', { body });
  };

  it('creates an insurer with a checked tax id, answers it, lists and searches it', async () => {
    const made = await create(company({ name: 'Obra Social Bancaria', taxId: '20-12345678-6' }));
    expect(made).toMatchObject({
      kind: 'insurer',
      name: 'Obra Social Bancaria',
      taxId: '20123456786',
      paymentTermDays: 60,
      hasDocuments: false,
      patientId: null,
      version: 1,
    });
    const bad = await t.call('POST', '/api/customers', { body: company({ taxId: '20-12345678-7' }) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields).toEqual([expect.objectContaining({ path: 'taxId', code: 'invalid_tax_id' })]);
    const patientKind = await t.call('POST', '/api/customers', { body: company({ kind: 'patient' }) });
    expect(patientKind.statusCode).toBe(400);
    expect(patientKind.json().details.fields).toEqual([expect.objectContaining({ path: 'kind' })]);

    const found = await t.call('GET', '/api/customers?q=bancaria');
    expect(found.json().data.map((row: { id: string }) => row.id)).toEqual([made.id]);
    const byTaxId = await t.call('GET', '/api/customers?q=20-12345678-6');
    expect(byTaxId.json().total).toBe(1);
    const insurers = await t.call('GET', '/api/customers?kind=insurer&sort=-name');
    expect(insurers.statusCode).toBe(200);
    expect(insurers.json().data.every((row: { kind: string }) => row.kind === 'insurer')).toBe(true);
    // Another clinic sees nothing of it.
    expect((await t.call('GET', `/api/customers/${made.id}`, { token: t.other.token })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/customers?q=bancaria', { token: t.other.token })).json().total).toBe(0);
  });

  it('refuses a second company with the tax id (409 customer_tax_id_exists naming the first); a patient may share it', async () => {
    const first = await create(company({ kind: 'company', name: 'Laboratorio Andes', taxId: '30-50001770-4' }));
    const second = await t.call('POST', '/api/customers', {
      body: company({ kind: 'company', name: 'Otra', taxId: '30500017704' }),
    });
    expectAnswer(second, 409, {
      code: 'customer_tax_id_exists',
      details: { customer: { id: first.id, name: 'Laboratorio Andes' } },
    });
    const other = await create(company({ kind: 'company', name: 'Tercera' }));
    const taken = await t.call('PUT', `/api/customers/${other.id}`, {
      body: company({ kind: 'company', name: 'Tercera', taxId: '30-50001770-4', version: other.version }),
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('customer_tax_id_exists');
  });

  it("edits a patient's billing data but keeps its kind and name; never deletes it", async () => {
    const patientId = await createTestPatient(t.app, t.clinic.token);
    const row = await t.db.withTenant(t.clinic.accountId, (tx) =>
      customerOfPatient({ tx, accountId: t.clinic.accountId, userId: t.clinic.userId }, patientId),
    );
    const edited = await t.call('PUT', `/api/customers/${row.id}`, {
      body: company({ kind: 'insurer', name: 'Otro nombre', taxId: '20-12345678-6', version: row.version }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ kind: 'patient', name: row.name, patientId, taxId: '20123456786' });
    const removed = await t.call('DELETE', `/api/customers/${row.id}`);
    expect(removed.statusCode).toBe(409);
    expect(removed.json().code).toBe('customer_is_patient');
    const stale = await t.call('PUT', `/api/customers/${row.id}`, {
      body: company({ kind: 'insurer', name: 'X', version: row.version }),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('version_conflict');
    // A company never becomes a patient.
    const firm = await create(company({ kind: 'company' }));
    const asPatient = await t.call('PUT', `/api/customers/${firm.id}`, {
      body: company({ kind: 'patient', version: firm.version }),
    });
    expect(asPatient.statusCode).toBe(400);
  });

  it('deletes a customer without documents; one with a document is deactivated instead (409 customer_has_documents)', async () => {
    const free = await create(company());
    expect((await t.call('DELETE', `/api/customers/${free.id}`)).statusCode).toBe(200);
    expect((await t.call('GET', `/api/customers/${free.id}`)).statusCode).toBe(404);

    const billed = await create(company());
    await t.db.orm.execute(sql`insert into commercial_documents
        (account_id, id, side, status, document_type, customer_id, point_of_service, date, currency)
        values (${t.clinic.accountId}, ${newId()}, 'sale', 'draft', 'invoice', ${billed.id}, '0001', '2026-03-05', (select system_currency from accounts where id = ${t.clinic.accountId}))`);
    expect((await t.call('GET', `/api/customers/${billed.id}`)).json().data.hasDocuments).toBe(true);
    const refused = await t.call('DELETE', `/api/customers/${billed.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('customer_has_documents');
    const deactivated = await t.call('PUT', `/api/customers/${billed.id}`, {
      body: { ...company({ name: billed.name }), active: false, version: billed.version },
    });
    expect(deactivated.statusCode).toBe(200);
    expect(
      (await t.call('GET', '/api/customers?active=false')).json().data.map((row: { id: string }) => row.id),
    ).toContain(billed.id);
  });

  it('levels: a user reads and writes customers (commercial.read, commercial.write) but does not delete', async () => {
    const made = await create(company());
    await setLevel(t.db, t.clinic.userId, 'user');
    try {
      const read = await t.call('GET', '/api/customers');
      const write = await t.call('POST', '/api/customers', { body: company() });
      const remove = await t.call('DELETE', `/api/customers/${made.id}`);
      expect([read.statusCode, write.statusCode, remove.statusCode]).toEqual([200, 201, 403]);
    } finally {
      await setLevel(t.db, t.clinic.userId, 'administrator');
    }
  });
});
