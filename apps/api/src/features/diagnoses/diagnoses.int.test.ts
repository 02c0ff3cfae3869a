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

/** Diagnoses of the medical history: validation, soft delete, conflicts, history, isolation, levels (issue 5). */
describe.each(availableBackends())('diagnoses on %s', (backend) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let clinic: TestClinic;
  let other: TestClinic;
  let patientId: string;
  const mailer = new MemoryMailer();
  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (method: Method, url: string, token: string = clinic.token, payload?: object) =>
    app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const url = (id?: string, patient = patientId) => `/api/patients/${patient}/diagnoses${id ? `/${id}` : ''}`;
  const diagnosis = (overrides: Record<string, unknown> = {}) => ({
    date: '2026-03-10',
    professionalId: clinic.userId,
    text: 'Caries de esmalte',
    icd10Code: 'k02.0',
    teeth: [36, 16],
    notes: 'Control en 6 meses',
    ...overrides,
  });
  async function create(body: object = diagnosis(), patient = patientId) {
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

  it('creates a diagnosis: ICD-10 upper-cased, teeth sorted, professional and author names, audit row', async () => {
    const response = await call('POST', url(), clinic.token, diagnosis());
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body.code).toBe('diagnosis_created');
    expect(body.data).toMatchObject({
      patientId,
      date: '2026-03-10',
      professionalId: clinic.userId,
      text: 'Caries de esmalte',
      icd10Code: 'K02.0',
      teeth: [16, 36],
      status: 'active',
      notes: 'Control en 6 meses',
      version: 1,
    });
    expect(body.data.professionalName).toMatch(/^Ana Pérez/);
    expect(body.data.createdByName).toMatch(/^Ana Pérez/);
    const events = await testApp.db.withTenant(clinic.accountId, (tx) =>
      listAuditEvents(tx, { action: 'diagnosis_created' }),
    );
    const event = events.find((row) => row.entityId === body.data.id);
    expect(event).toMatchObject({ entity: 'diagnosis', patientId, userId: clinic.userId });
    expect(event?.after).toMatchObject({ text: 'Caries de esmalte', teeth: [16, 36] });
  });

  it('validates each field with its code', async () => {
    const response = await call(
      'POST',
      url(),
      clinic.token,
      diagnosis({ date: '2026-02-30', text: '  ', icd10Code: 'K2', teeth: [19, 36, 36], status: 'gone' }),
    );
    expect(response.statusCode).toBe(400);
    const fields = response.json().details.fields as { path: string; code: string }[];
    expect(fields).toEqual(
      expect.arrayContaining([
        { path: 'date', code: 'invalid_date' },
        { path: 'text', code: 'required' },
        { path: 'icd10Code', code: 'invalid_format' },
        { path: 'teeth.0', code: 'invalid_value' },
        { path: 'teeth', code: 'invalid_value' },
        { path: 'status', code: 'invalid_value' },
      ]),
    );
    const primary = await call('POST', url(), clinic.token, diagnosis({ teeth: [55, 85, 11, 48], icd10Code: 'A00' }));
    expect(primary.statusCode, primary.body).toBe(201);
    expect(primary.json().data.teeth).toEqual([11, 48, 55, 85]);
    const missing = await call('POST', url(), clinic.token, {});
    expect(missing.json().details.fields).toEqual(
      expect.arrayContaining([
        { path: 'date', code: 'required' },
        { path: 'professionalId', code: 'required' },
        { path: 'text', code: 'required' },
      ]),
    );
    const stranger = await call('POST', url(), clinic.token, diagnosis({ professionalId: other.userId }));
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().details.fields).toEqual([{ path: 'professionalId', code: 'invalid_value' }]);
  });

  it('lists newest first, paginated', async () => {
    const patient = await createTestPatient(app, clinic.token);
    await create(diagnosis({ date: '2025-01-01', text: 'Antigua' }), patient);
    await create(diagnosis({ date: '2026-01-01', text: 'Reciente' }), patient);
    await create(diagnosis({ date: '2025-06-01', text: 'Intermedia' }), patient);
    const page = await call('GET', `${url(undefined, patient)}?pageSize=2`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page.json().data.map((row: { text: string }) => row.text)).toEqual(['Reciente', 'Intermedia']);
    const second = await call('GET', `${url(undefined, patient)}?pageSize=2&page=2`);
    expect(second.json().data.map((row: { text: string }) => row.text)).toEqual(['Antigua']);
  });

  it('edits with the version; a stale one answers 409 with the current values and changes nothing', async () => {
    const created = await create();
    const first = await call('PUT', url(created.id), clinic.token, diagnosis({ status: 'resolved', version: 1 }));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ code: 'diagnosis_updated', data: { status: 'resolved', version: 2 } });
    const stale = await call('PUT', url(created.id), clinic.token, diagnosis({ text: 'Otra cosa', version: 1 }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'version_conflict',
      details: { current: { status: 'resolved', version: 2 } },
    });
    const now = await call('GET', url(created.id));
    expect(now.json().data).toMatchObject({ text: 'Caries de esmalte', version: 2 });
    const changes = await call('GET', `${url(created.id)}/changes`);
    expect(changes.statusCode).toBe(200);
    expect(changes.json()).toMatchObject({
      total: 2,
      data: [
        { action: 'diagnosis_updated', before: { status: 'active' }, after: { status: 'resolved' } },
        { action: 'diagnosis_created', before: null },
      ],
    });
    expect(changes.json().data[0].userName).toMatch(/^Ana Pérez/);
  });

  it('deletes softly: hidden from list, get and changes, the row stays, an audit row; the app role cannot DELETE', async () => {
    const created = await create();
    const removed = await call('DELETE', url(created.id));
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ code: 'diagnosis_deleted' });
    expect((await call('GET', url(created.id))).json().code).toBe('diagnosis_not_found');
    expect((await call('GET', `${url(created.id)}/changes`)).statusCode).toBe(404);
    expect((await call('DELETE', url(created.id))).statusCode).toBe(404);
    const list = await call('GET', `${url()}?pageSize=100`);
    expect(list.json().data.map((row: { id: string }) => row.id)).not.toContain(created.id);
    const { rows } = await testApp.db.orm.execute<{ deleted_by: string }>(
      sql`select deleted_by from diagnoses where id = ${created.id} and deleted_at is not null`,
    );
    expect(rows).toEqual([{ deleted_by: clinic.userId }]);
    const events = await testApp.db.withTenant(clinic.accountId, (tx) =>
      listAuditEvents(tx, { action: 'diagnosis_deleted' }),
    );
    expect(events.find((row) => row.entityId === created.id)?.before).toMatchObject({ text: 'Caries de esmalte' });
    await expect(
      testApp.db.withTenant(clinic.accountId, (tx) => tx.execute(sql`delete from diagnoses where id = ${created.id}`)),
    ).rejects.toThrow();
  });

  it("answers 404 for another clinic's patient or diagnosis, another patient's diagnosis, a deleted patient", async () => {
    const created = await create();
    const otherPatient = await createTestPatient(app, other.token);
    expect((await call('GET', url(undefined, otherPatient))).json().code).toBe('patient_not_found');
    expect((await call('POST', url(undefined, otherPatient), clinic.token, diagnosis())).json().code).toBe(
      'patient_not_found',
    );
    expect((await call('GET', url(created.id), other.token)).json().code).toBe('patient_not_found');
    const otherOwn = await createTestPatient(app, other.token);
    expect((await call('GET', url(created.id, otherOwn), other.token)).json().code).toBe('diagnosis_not_found');
    const sibling = await createTestPatient(app, clinic.token);
    expect((await call('GET', url(created.id, sibling))).json().code).toBe('diagnosis_not_found');
    expect((await call('PUT', url(created.id, sibling), clinic.token, diagnosis({ version: 1 }))).statusCode).toBe(404);
    expect((await call('GET', url(newId()))).json().code).toBe('diagnosis_not_found');
    const doomed = await createTestPatient(app, clinic.token);
    const kept = await create(diagnosis(), doomed);
    expect((await call('DELETE', `/api/patients/${doomed}`)).statusCode).toBe(200);
    const gone = await call('GET', url(kept.id, doomed));
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('patient_not_found');
  });

  it('lets every clinical level read and write; a customer gets 403', async () => {
    const created = await create();
    try {
      await setLevel(testApp.db, clinic.userId, 'user');
      expect((await call('GET', url(created.id))).statusCode).toBe(200);
      expect((await call('POST', url(), clinic.token, diagnosis())).statusCode).toBe(201);
      await setLevel(testApp.db, clinic.userId, 'customer');
      expect((await call('GET', url())).statusCode).toBe(403);
      expect((await call('GET', url(created.id))).statusCode).toBe(403);
      expect((await call('POST', url(), clinic.token, diagnosis())).json().code).toBe('forbidden');
      expect((await call('PUT', url(created.id), clinic.token, diagnosis({ version: 1 }))).statusCode).toBe(403);
      expect((await call('DELETE', url(created.id))).statusCode).toBe(403);
    } finally {
      await setLevel(testApp.db, clinic.userId, 'administrator');
    }
    expect((await call('GET', url(created.id))).json().data.version).toBe(1);
  });
});
