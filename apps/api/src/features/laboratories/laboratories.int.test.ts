import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import { bearer, createTestClinic, setLevel, type TestClinic } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';
import { listAuditEvents } from '../audit/audit.repository.ts';

/** Laboratory orders and results: validation, soft delete, conflicts, history, isolation, levels (issue 5). */
describe.each(availableBackends())('laboratory orders on %s', (backend) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let clinic: TestClinic;
  let other: TestClinic;
  let patientId: string;
  const mailer = new MemoryMailer();
  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (method: Method, url: string, token: string = clinic.token, payload?: object) =>
    app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const url = (id?: string, patient = patientId) => `/api/patients/${patient}/laboratories${id ? `/${id}` : ''}`;
  const order = (overrides: Record<string, unknown> = {}) => ({
    orderDate: '2026-03-10',
    professionalId: clinic.userId,
    laboratoryName: 'Laboratorio Central',
    studies: ['blood_count', 'coagulation', 'dental_radiography'],
    instructions: 'Ayuno de 8 horas',
    ...overrides,
  });
  async function create(body: object = order(), patient = patientId) {
    const response = await call('POST', url(undefined, patient), clinic.token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; version: number; [key: string]: unknown };
  }

  beforeAll(async () => {
    testApp = await createTestApp({ backend, mailer });
    app = testApp.app;
    clinic = await createTestClinic(app, mailer);
    other = await createTestClinic(app, mailer);
    patientId = await createTestPatient(app, clinic.token);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('creates an order (status ordered), with names and an audit row', async () => {
    const response = await call('POST', url(), clinic.token, order());
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      code: 'laboratory_created',
      data: {
        patientId,
        orderDate: '2026-03-10',
        laboratoryName: 'Laboratorio Central',
        studies: ['blood_count', 'coagulation', 'dental_radiography'],
        instructions: 'Ayuno de 8 horas',
        notes: null,
        status: 'ordered',
        resultDate: null,
        result: null,
        version: 1,
      },
    });
    expect(body.data.professionalName).toMatch(/^Ana Pérez/);
    const events = await testApp.db.withTenant(clinic.accountId, (tx) =>
      listAuditEvents(tx, { action: 'laboratory_created' }),
    );
    expect(events.find((row) => row.entityId === body.data.id)).toMatchObject({ entity: 'laboratory', patientId });
  });

  it('validates studies, status and the result date', async () => {
    const bad = await call('POST', url(), clinic.token, order({ studies: [], status: 'lost', laboratoryName: '' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.fields).toEqual(
      expect.arrayContaining([
        { path: 'studies', code: 'required' },
        { path: 'status', code: 'invalid_value' },
        { path: 'laboratoryName', code: 'required' },
      ]),
    );
    const unknownStudy = await call('POST', url(), clinic.token, order({ studies: ['dentistry'] }));
    expect(unknownStudy.json().details.fields).toEqual([{ path: 'studies.0', code: 'invalid_value' }]);
    const twice = await call('POST', url(), clinic.token, order({ studies: ['biopsy', 'biopsy'] }));
    expect(twice.json().details.fields).toEqual([{ path: 'studies', code: 'invalid_value' }]);
    const noResultDate = await call('POST', url(), clinic.token, order({ status: 'result_received' }));
    expect(noResultDate.json().details.fields).toEqual([{ path: 'resultDate', code: 'required' }]);
    const early = await call(
      'POST',
      url(),
      clinic.token,
      order({ status: 'result_received', resultDate: '2026-03-09' }),
    );
    expect(early.json().details.fields).toEqual([{ path: 'resultDate', code: 'date_before_order' }]);
    const stranger = await call('POST', url(), clinic.token, order({ professionalId: other.userId }));
    expect(stranger.json().details.fields).toEqual([{ path: 'professionalId', code: 'invalid_value' }]);
  });

  it('records the result with the version; a stale edit answers 409 with the current values', async () => {
    const created = await create();
    const sample = await call('PUT', url(created.id), clinic.token, order({ status: 'sample_taken', version: 1 }));
    expect(sample.statusCode, sample.body).toBe(200);
    const result = await call(
      'PUT',
      url(created.id),
      clinic.token,
      order({ status: 'result_received', resultDate: '2026-03-12', result: 'Hemograma normal', version: 2 }),
    );
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json()).toMatchObject({
      code: 'laboratory_updated',
      data: { status: 'result_received', resultDate: '2026-03-12', result: 'Hemograma normal', version: 3 },
    });
    const stale = await call('PUT', url(created.id), clinic.token, order({ version: 2 }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'version_conflict',
      details: { current: { status: 'result_received', version: 3 } },
    });
    const changes = await call('GET', `${url(created.id)}/changes`);
    expect(changes.json()).toMatchObject({
      total: 3,
      data: [
        {
          action: 'laboratory_updated',
          before: { status: 'sample_taken', result: null },
          after: { result: 'Hemograma normal' },
        },
        { action: 'laboratory_updated', after: { status: 'sample_taken' } },
        { action: 'laboratory_created' },
      ],
    });
  });

  it('lists newest order first and deletes softly', async () => {
    const patient = await createTestPatient(app, clinic.token);
    const old = await create(order({ orderDate: '2025-01-01' }), patient);
    const recent = await create(order({ orderDate: '2026-01-01' }), patient);
    const list = await call('GET', url(undefined, patient));
    expect(list.json().data.map((row: { id: string }) => row.id)).toEqual([recent.id, old.id]);
    expect((await call('DELETE', url(old.id, patient))).json()).toEqual({ code: 'laboratory_deleted' });
    const after = await call('GET', url(undefined, patient));
    expect(after.json()).toMatchObject({ total: 1, data: [{ id: recent.id }] });
    expect((await call('GET', url(old.id, patient))).json().code).toBe('laboratory_not_found');
    const { rows } = await testApp.db.orm.execute(sql`select id from laboratories where id = ${old.id}`);
    expect(rows).toHaveLength(1);
  });

  it('prints the order as a PDF with the clinic, the patient and the studies in Spanish', async () => {
    const patient = await createTestPatient(app, clinic.token, {
      firstName: 'Mónica',
      lastName: 'Ibáñez',
      ssn: '28.111.222',
    });
    const created = await create(order(), patient);
    const response = await call('GET', `${url(created.id, patient)}/order.pdf`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('inline; filename="orden-laboratorio-Ibanez-2026-03-10.pdf"');
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The document's info (uncompressed): a text with an accent is written in UTF-16BE.
    const utf16 = (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
    expect(pdf.includes(utf16('Hemograma completo, Coagulograma, Radiografía dental'))).toBe(true);
    expect(pdf.includes(utf16('Orden de laboratorio — Mónica Ibáñez'))).toBe(true);
    expect((await call('GET', `${url(created.id)}/order.pdf`)).json().code).toBe('laboratory_not_found');
    expect((await call('GET', `${url(created.id, patient)}/order.pdf`, other.token)).statusCode).toBe(404);
  });

  it("answers 404 for another clinic's patient or order and another patient's order; a customer gets 403", async () => {
    const created = await create();
    const otherPatient = await createTestPatient(app, other.token);
    expect((await call('GET', url(undefined, otherPatient))).json().code).toBe('patient_not_found');
    expect((await call('GET', url(created.id, otherPatient), other.token)).json().code).toBe('laboratory_not_found');
    const sibling = await createTestPatient(app, clinic.token);
    expect((await call('GET', url(created.id, sibling))).json().code).toBe('laboratory_not_found');
    expect((await call('DELETE', url(newId()))).json().code).toBe('laboratory_not_found');
    try {
      await setLevel(testApp.db, clinic.userId, 'user');
      expect((await call('POST', url(), clinic.token, order())).statusCode).toBe(201);
      await setLevel(testApp.db, clinic.userId, 'customer');
      expect((await call('GET', url(created.id))).statusCode).toBe(403);
      expect((await call('POST', url(), clinic.token, order())).statusCode).toBe(403);
      expect((await call('DELETE', url(created.id))).statusCode).toBe(403);
    } finally {
      await setLevel(testApp.db, clinic.userId, 'administrator');
    }
  });
});
