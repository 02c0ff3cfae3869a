import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv from 'ajv';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { bearer, createTestClinic, setLevel, signIn, type TestClinic } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { demoPassword, demoUsers, seedDemoClinic } from '../../seed/demo.ts';
import { listAuditEvents } from '../audit/audit.repository.ts';

/**
 * A patient's record in FHIR R4 and the right of access (issue 42), on the demo clinic's richest
 * patient: the bundle valid against the official R4 JSON schema (fixture, compiled once), the
 * round trip into another clinic, isolation, the ZIP (manifest hashes, PDF text, CSV rows) and
 * the audit trail.
 */
const schema = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '../../../test/fixtures/fhir/fhir.schema.json'), 'utf8'),
) as Record<string, unknown>;
const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
// The schema's draft-06 meta-schema, as ajv ships it.
ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json'));
// The R4 schema names itself with draft-04's `id`; ajv 8 reads `$id` (the fixture is kept as published).
const { id: schemaId, ...schemaBody } = schema;
const validate = ajv.compile({ $id: String(schemaId), ...schemaBody });

type Json = Record<string, unknown>;
const imported = ['Patient', 'Condition', 'Procedure', 'Observation', 'Appointment', 'MedicationRequest'];

/** The bundle without what a move changes: ids, fullUrls, meta, the clinic's own numbers and the professional. */
function normalized(bundle: Json, keep: (resource: Json) => boolean): unknown {
  const entries = (bundle.entry as { resource: Json }[]).map((entry) => entry.resource).filter(keep);
  const ids = new Map<string, string>();
  const text = JSON.stringify(entries, (key, value) => {
    if (key === 'meta' || key === 'requester') return undefined;
    if (key === 'identifier' && Array.isArray(value))
      return value.filter((id: Json) => !/sku-patient|prescription-verification/.test(String(id.system)));
    return value;
  }).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
    if (!ids.has(id)) ids.set(id, `id-${ids.size}`);
    return ids.get(id) as string;
  });
  return JSON.parse(text);
}

function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error);
      const out = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

describe.each(availableBackends())('FHIR and the right of access on %s', (backend) => {
  let testApp: TestApp;
  let token: string;
  let demoAccount: string;
  let other: TestClinic;
  let portal: TestClinic;
  let patientId: string;
  let patientName: string;
  const mailer = new MemoryMailer();

  const call = (method: 'GET' | 'POST', url: string, as: string, options: { body?: unknown; key?: string } = {}) =>
    testApp.app.inject({
      method,
      url,
      headers: { ...bearer(as), ...(options.key ? { 'idempotency-key': options.key } : {}) },
      ...(options.body !== undefined ? { payload: options.body as Json } : {}),
    });

  beforeAll(async () => {
    testApp = await createTestApp({ backend, mailer });
    expect(await seedDemoClinic(testApp.db, { dataDir: testApp.env.DATA_DIR })).toBe('created');
    const session = await signIn(testApp.app, demoUsers[0].email, demoPassword);
    token = session.token;
    demoAccount = session.user.account.id;
    other = await createTestClinic(testApp.app, mailer);
    portal = await createTestClinic(testApp.app, mailer);
    // The importing professional signs the imported prescriptions: a licence is required.
    await testApp.db.orm.execute(sql`update users set license_number = 'MN 4242' where id = ${other.userId}::uuid`);
    // The demo patient with the most kinds of records.
    const { rows } = await testApp.db.orm.execute<{ id: string; name: string }>(sql`
      select p.id, p.first_name || ' ' || p.last_name as name from patients p
      where p.account_id = ${demoAccount}::uuid and p.deleted_at is null
      order by (select count(*) > 0 from diagnoses d where d.patient_id = p.id)::int
        + (select count(*) > 0 from odontogram_entries o where o.patient_id = p.id)::int
        + (select count(*) > 0 from perio_exams e where e.patient_id = p.id)::int
        + (select count(*) > 0 from prescriptions r where r.patient_id = p.id)::int
        + (select count(*) > 0 from treatment_authorizations a where a.patient_id = p.id and a.status = 'signed')::int
        + (select count(*) > 0 from patient_files f where f.patient_id = p.id and f.deleted_at is null)::int
        + (select count(*) > 0 from commercial_documents c where c.patient_id = p.id and c.status = 'issued')::int
        + (select count(*) > 0 from appointments x where x.patient_id = p.id)::int desc, p.id
      limit 1`);
    patientId = rows[0]?.id as string;
    patientName = rows[0]?.name as string;
  }, 180_000);
  afterAll(async () => {
    await testApp?.close();
  });

  async function exported(id: string, as: string): Promise<Json> {
    const response = await call('GET', `/api/patients/${id}/fhir`, as);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/fhir+json');
    return response.json();
  }

  it('exports a rich patient as an R4 collection Bundle the official schema accepts', async () => {
    expect(String(schema.id)).toBe('http://hl7.org/fhir/json-schema/4.0');
    const bundle = await exported(patientId, token);
    const ok = validate(bundle);
    expect(ok, JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const types = new Set((bundle.entry as { resource: Json }[]).map((entry) => entry.resource.resourceType));
    for (const type of ['Patient', 'Condition', 'Procedure', 'Observation', 'Appointment', 'MedicationRequest'])
      expect(types, type).toContain(type);
    const text = JSON.stringify(bundle);
    expect(text).toContain('http://hl7.org/fhir/sid/icd-10');
    expect(text).toContain('http://terminology.hl7.org/CodeSystem/ex-tooth');
    // A broken resource is refused by the same validator: the test can fail.
    const broken = structuredClone(bundle);
    ((broken.entry as { resource: Json }[])[0] as { resource: Json }).resource.gender = 'robot';
    expect(validate(broken)).toBe(false);
    const events = await testApp.db.withTenant(demoAccount, (tx) =>
      listAuditEvents(tx, { action: 'patient_fhir_exported' }),
    );
    expect(events.at(-1)).toMatchObject({ patientId, entity: 'patient' });
  });

  it("answers 404 to another clinic's patient and refuses a bundle that is not an R4 collection", async () => {
    expect((await call('GET', `/api/patients/${patientId}/fhir`, other.token)).statusCode).toBe(404);
    const notCollection = await call('POST', '/api/fhir/import', other.token, {
      body: { resourceType: 'Bundle', type: 'searchset', entry: [] },
      key: randomUUID(),
    });
    expect(notCollection.statusCode, notCollection.body).toBe(422);
    expect(notCollection.json()).toMatchObject({ code: 'fhir_bundle_invalid' });
    expect(notCollection.json().details.problems).toEqual(
      expect.arrayContaining([
        { path: 'type', reason: 'not_a_collection' },
        { path: 'entry', reason: 'no_patient' },
      ]),
    );
    const noKey = await call('POST', '/api/fhir/import', other.token, { body: { resourceType: 'Bundle' } });
    expect(noKey.statusCode).toBe(400);
    // FHIR's own media type is read as JSON too (then checked the same way), not refused as 415.
    const asFhir = await testApp.app.inject({
      method: 'POST',
      url: '/api/fhir/import',
      headers: { ...bearer(other.token), 'idempotency-key': randomUUID(), 'content-type': 'application/fhir+json' },
      payload: JSON.stringify({ resourceType: 'Bundle', type: 'searchset', entry: [] }),
    });
    expect(asFhir.statusCode, asFhir.body).toBe(422);
    expect(asFhir.json()).toMatchObject({ code: 'fhir_bundle_invalid' });
  });

  it('imports the bundle into another clinic and exports it again the same, after normalization', async () => {
    const first = await exported(patientId, token);
    const key = randomUUID();
    const response = await call('POST', '/api/fhir/import', other.token, { body: first, key });
    expect(response.statusCode, response.body).toBe(201);
    const report = response.json().data as { patientId: string; skipped: { index: number; resourceType: string }[] };
    expect(
      report.skipped.filter((entry) => imported.includes(entry.resourceType) && entry.resourceType !== 'Procedure'),
    ).toEqual([]);
    expect(report.patientId).not.toBe(patientId);
    // The same key answers the same import, no second patient.
    const again = await call('POST', '/api/fhir/import', other.token, { body: first, key });
    expect(again.json().data.patientId).toBe(report.patientId);
    const skipped = new Set(report.skipped.map((entry) => entry.index));
    const entries = first.entry as { resource: Json }[];
    const kept = new Set(entries.filter((_, index) => !skipped.has(index)).map((entry) => entry.resource));
    for (const entry of report.skipped)
      expect(['Procedure', 'Consent', 'DocumentReference', 'Invoice', 'ChargeItem']).toContain(entry.resourceType);
    const second = await exported(report.patientId, other.token);
    expect(validate(second)).toBe(true);
    const isImported = (resource: Json) => imported.includes(String(resource.resourceType));
    expect(normalized(second, isImported)).toEqual(
      normalized(first, (resource) => kept.has(resource) && isImported(resource)),
    );
    const events = await testApp.db.withTenant(other.accountId, (tx) =>
      listAuditEvents(tx, { action: 'patient_imported' }),
    );
    expect(events).toHaveLength(1);
  });

  it('imports every demo patient back into its own clinic: overlapping appointments left out and said, never a 500', async () => {
    const { rows } = await testApp.db.orm.execute<{ id: string }>(
      sql`select id from patients where account_id = ${demoAccount}::uuid and deleted_at is null order by id`,
    );
    const failures: string[] = [];
    const overlapping: string[] = [];
    for (const { id } of rows) {
      const bundle = await exported(id, token);
      // As another clinic's patient would come: its own name, no identifier this clinic holds.
      const entries = bundle.entry as { resource: Json }[];
      const patient = entries.find((entry) => entry.resource.resourceType === 'Patient')?.resource;
      if (patient) {
        patient.name = [{ family: 'Importada', given: ['Lucía'] }];
        patient.identifier = [];
      }
      const response = await call('POST', '/api/fhir/import', token, { body: bundle, key: randomUUID() });
      if (response.statusCode !== 201) failures.push(`${id}: ${response.body}`);
      const report = response.json().data as { skipped: { resourceType: string; code?: string }[] } | undefined;
      for (const entry of report?.skipped ?? [])
        if (entry.code === 'appointment_overlaps') overlapping.push(entry.resourceType);
    }
    expect(failures).toEqual([]);
    // The importing administrator is the professional of the copies: their times overlap the
    // originals of the same clinic, left out and said, not a 500.
    expect(overlapping.length).toBeGreaterThan(0);
    expect(new Set(overlapping)).toEqual(new Set(['Appointment']));
  });

  it('writes the right of access ZIP in the background: manifest hashes, PDF, FHIR and money CSV; audited', async () => {
    const before = await call('GET', `/api/patients/${patientId}/access-exports/latest`, token);
    expect(before.statusCode, before.body).toBe(200);
    const queued = await call('POST', `/api/patients/${patientId}/access-exports`, token, { key: randomUUID() });
    expect(queued.statusCode, queued.body).toBe(201);
    const id = queued.json().data.id as string;
    expect(queued.json().data).toMatchObject({ state: 'queued', progress: 0 });
    const early = await call('GET', `/api/patients/${patientId}/access-exports/${id}/file`, token);
    expect(early.statusCode).toBe(409);
    await testApp.app.jobs.runDue();
    const half = (await call('GET', `/api/patients/${patientId}/access-exports/${id}`, token)).json().data;
    expect(half).toMatchObject({ state: 'running', progress: 40 });
    for (let round = 0; round < 4; round++) await testApp.app.jobs.runDue();
    const done = (await call('GET', `/api/patients/${patientId}/access-exports/${id}`, token)).json().data;
    expect(done).toMatchObject({ state: 'done', progress: 100 });
    // The page after a reload: the latest archive is this one; another clinic's patient id is 404.
    const latest = await call('GET', `/api/patients/${patientId}/access-exports/latest`, token);
    expect(latest.json().data).toMatchObject({ id, state: 'done' });
    expect(before.json().data?.id).not.toBe(id);
    expect((await call('GET', `/api/patients/${patientId}/access-exports/latest`, other.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/patients/${patientId}/access-exports/${id}`, other.token)).statusCode).toBe(404);
    const file = await call('GET', `/api/patients/${patientId}/access-exports/${id}/file`, token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    const entries = await unzip(file.rawPayload);
    const manifest = JSON.parse(String(entries.get('manifest.json'))) as {
      entries: { name: string; sha256: string; size: number }[];
    };
    expect(manifest.entries.map((entry) => entry.name)).toEqual(
      [...entries.keys()].filter((name) => name !== 'manifest.json'),
    );
    for (const entry of manifest.entries) {
      const bytes = entries.get(entry.name) as Buffer;
      expect(createHash('sha256').update(bytes).digest('hex'), entry.name).toBe(entry.sha256);
      expect(bytes.length).toBe(entry.size);
    }
    expect([...entries.keys()].some((name) => name.startsWith('archivos/'))).toBe(true);
    expect([...entries.keys()].some((name) => name.startsWith('consentimientos/'))).toBe(true);
    const text = pdfText(entries.get('resumen.pdf') as Buffer);
    expect(text).toContain(patientName.split(' ')[0]);
    expect(text).toContain('Resumen de la historia clínica');
    expect(validate(JSON.parse(String(entries.get('paciente.fhir.json'))))).toBe(true);
    const csv = String(entries.get('cuenta.csv'));
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toContain('Tipo;Número;Fecha;Importe');
    expect(lines.at(-1)).toMatch(/^Saldo;/);
    expect(lines.some((line) => line.startsWith('Factura;'))).toBe(true);
    const actions = (await testApp.db.withTenant(demoAccount, (tx) => listAuditEvents(tx)))
      .filter((event) => event.entityId === id)
      .map((event) => event.action);
    expect(actions).toEqual(['access_export_requested', 'access_export_ready', 'access_export_downloaded']);
  }, 120_000);

  it('lets a patient ask for their own archive in the portal, and never see another one', async () => {
    await setLevel(testApp.db, portal.userId, 'customer');
    // Before the first request there is none to show.
    const none = await call('GET', '/api/portal/access-exports/latest', portal.token);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({ data: null });
    const queued = await call('POST', '/api/portal/access-exports', portal.token, { key: randomUUID() });
    expect(queued.statusCode, queued.body).toBe(201);
    const id = queued.json().data.id as string;
    expect(queued.json()).toMatchObject({
      code: 'access_export_queued',
      data: { patientId: portal.userId, requestedVia: 'portal', state: 'queued' },
    });
    // One at a time: asking again while it is queued, or once it runs, answers that one and queues nothing.
    const again = await call('POST', '/api/portal/access-exports', portal.token, { key: randomUUID() });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ code: 'access_export_in_progress', data: { id } });
    await testApp.app.jobs.runDue();
    const running = await call('POST', '/api/portal/access-exports', portal.token, { key: randomUUID() });
    expect(running.json()).toMatchObject({ code: 'access_export_in_progress', data: { id, state: 'running' } });
    for (let round = 0; round < 4; round++) await testApp.app.jobs.runDue();
    expect((await call('GET', `/api/portal/access-exports/${id}`, portal.token)).json().data.state).toBe('done');
    const file = await call('GET', `/api/portal/access-exports/${id}/file`, portal.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    const entries = await unzip(file.rawPayload);
    const manifest = JSON.parse(String(entries.get('manifest.json'))) as {
      patientId: string;
      entries: { name: string; sha256: string; size: number }[];
    };
    expect(manifest.patientId).toBe(portal.userId);
    expect(manifest.entries.map((entry) => entry.name)).toEqual(
      [...entries.keys()].filter((name) => name !== 'manifest.json'),
    );
    for (const entry of manifest.entries) {
      const bytes = entries.get(entry.name) as Buffer;
      expect(createHash('sha256').update(bytes).digest('hex'), entry.name).toBe(entry.sha256);
      expect(bytes.length).toBe(entry.size);
    }
    expect(pdfText(entries.get('resumen.pdf') as Buffer)).toContain('Paciente De prueba');
    // Audited, the patient as who asked and who downloaded.
    const trail = (await testApp.db.withTenant(portal.accountId, (tx) => listAuditEvents(tx))).filter(
      (event) => event.entityId === id,
    );
    expect(trail.map((event) => event.action)).toEqual([
      'access_export_requested',
      'access_export_ready',
      'access_export_downloaded',
    ]);
    expect(trail[0]).toMatchObject({ userId: portal.userId, after: { via: 'portal' } });
    expect(trail[2]).toMatchObject({ userId: portal.userId });
    // Finished: a new request queues a new archive.
    const fresh = await call('POST', '/api/portal/access-exports', portal.token, { key: randomUUID() });
    expect(fresh.json()).toMatchObject({ code: 'access_export_queued' });
    expect(fresh.json().data.id).not.toBe(id);
    // The staff's archive of the demo patient is not this patient's: 404, as is a made-up id.
    const staffs = await call('POST', `/api/patients/${patientId}/access-exports`, token, { key: randomUUID() });
    const foreign = staffs.json().data.id as string;
    expect((await call('GET', `/api/portal/access-exports/${foreign}`, portal.token)).statusCode).toBe(404);
    // The latest is the patient's own newest, never the staff's archive of another patient.
    expect((await call('GET', '/api/portal/access-exports/latest', portal.token)).json().data.id).toBe(
      fresh.json().data.id,
    );
    expect((await call('GET', `/api/portal/access-exports/${randomUUID()}/file`, portal.token)).statusCode).toBe(404);
    // Staff cannot use the portal's route, a patient cannot use the staff's.
    expect((await call('POST', '/api/portal/access-exports', token, { key: randomUUID() })).statusCode).toBe(403);
    expect(
      (await call('POST', `/api/patients/${portal.userId}/access-exports`, portal.token, { key: randomUUID() }))
        .statusCode,
    ).toBe(403);
  }, 120_000);
});
