import { laboratoryRecord } from '@odontia/shared/routes/medical-history';
import { describe, expect, it } from 'vitest';
import { patientRecordApi } from '../../../test/patient-record-api.ts';
import { describeRecordContract } from '../../../test/record-contract.ts';
import { expectAnswer, expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** Laboratory orders and results: validation, results, list, PDF; the record contract (issue 5). */
describe.each(availableBackends())('laboratory orders on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const order = (overrides: Record<string, unknown> = {}) => ({
    orderDate: '2026-03-10',
    professionalId: t.clinic.userId,
    laboratoryName: 'Laboratorio Central',
    studies: ['blood_count', 'coagulation', 'dental_radiography'],
    instructions: 'Ayuno de 8 horas',
    ...overrides,
  });
  const { url, create, contract } = patientRecordApi(t, laboratoryRecord, () => order());

  describeRecordContract(t, {
    ...contract,
    table: 'laboratories',
    update: { body: () => order({ status: 'sample_taken' }), shows: { status: 'sample_taken' } },
    history: { before: { status: 'ordered' }, after: { status: 'sample_taken' } },
    softDelete: { auditBefore: { laboratoryName: 'Laboratorio Central' } },
  });

  it('creates an order (status ordered), with names and an audit row', async () => {
    const response = await t.call('POST', url(), { body: order() });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      code: 'laboratory_created',
      data: {
        patientId: t.patientId,
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
    const events = await t.auditEvents('laboratory_created');
    expect(events.find((row) => row.entityId === body.data.id)).toMatchObject({
      entity: 'laboratory',
      patientId: t.patientId,
    });
  });

  it('validates studies, status and the result date', async () => {
    const bad = await t.call('POST', url(), { body: order({ studies: [], status: 'lost', laboratoryName: '' }) });
    expectFieldErrors(bad, [
      { path: 'studies', code: 'required' },
      { path: 'status', code: 'invalid_value' },
      { path: 'laboratoryName', code: 'required' },
    ]);
    const unknownStudy = await t.call('POST', url(), { body: order({ studies: ['dentistry'] }) });
    expect(unknownStudy.json().details.fields).toEqual([{ path: 'studies.0', code: 'invalid_value' }]);
    const twice = await t.call('POST', url(), { body: order({ studies: ['biopsy', 'biopsy'] }) });
    expect(twice.json().details.fields).toEqual([{ path: 'studies', code: 'invalid_value' }]);
    const noResultDate = await t.call('POST', url(), { body: order({ status: 'result_received' }) });
    expect(noResultDate.json().details.fields).toEqual([{ path: 'resultDate', code: 'required' }]);
    const early = await t.call('POST', url(), { body: order({ status: 'result_received', resultDate: '2026-03-09' }) });
    expect(early.json().details.fields).toEqual([{ path: 'resultDate', code: 'date_before_order' }]);
    const stranger = await t.call('POST', url(), { body: order({ professionalId: t.other.userId }) });
    expect(stranger.json().details.fields).toEqual([{ path: 'professionalId', code: 'invalid_value' }]);
  });

  it('records the result with the version; a stale edit answers 409 with the current values', async () => {
    const created = await create();
    const sample = await t.call('PUT', url(created.id), { body: order({ status: 'sample_taken', version: 1 }) });
    expect(sample.statusCode, sample.body).toBe(200);
    const result = await t.call('PUT', url(created.id), {
      body: order({ status: 'result_received', resultDate: '2026-03-12', result: 'Hemograma normal', version: 2 }),
    });
    expectAnswer(result, 200, {
      code: 'laboratory_updated',
      data: { status: 'result_received', resultDate: '2026-03-12', result: 'Hemograma normal', version: 3 },
    });
    const stale = await t.call('PUT', url(created.id), { body: order({ version: 2 }) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'version_conflict',
      details: { current: { status: 'result_received', version: 3 } },
    });
    const changes = await t.call('GET', `${url(created.id)}/changes`);
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

  it('lists newest order first; a deleted order leaves the list', async () => {
    const patient = await t.newPatient();
    const old = await create(order({ orderDate: '2025-01-01' }), patient);
    const recent = await create(order({ orderDate: '2026-01-01' }), patient);
    const list = await t.call('GET', url(undefined, patient));
    expect(list.json().data.map((row: { id: string }) => row.id)).toEqual([recent.id, old.id]);
    expect((await t.call('DELETE', url(old.id, patient))).json()).toEqual({ code: 'laboratory_deleted' });
    const after = await t.call('GET', url(undefined, patient));
    expect(after.json()).toMatchObject({ total: 1, data: [{ id: recent.id }] });
  });

  it('prints the order as a PDF with the clinic, the patient and the studies in Spanish', async () => {
    const patient = await t.newPatient(t.clinic.token, {
      firstName: 'Mónica',
      lastName: 'Ibáñez',
      ssn: '28.111.222',
    });
    const created = await create(order(), patient);
    const response = await t.call('GET', `${url(created.id, patient)}/order.pdf`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('inline; filename="orden-laboratorio-Ibanez-2026-03-10.pdf"');
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The document's info (uncompressed): a text with an accent is written in UTF-16BE.
    const utf16 = (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
    expect(pdf.includes(utf16('Hemograma completo, Coagulograma, Radiografía dental'))).toBe(true);
    expect(pdf.includes(utf16('Orden de laboratorio — Mónica Ibáñez'))).toBe(true);
    expect((await t.call('GET', `${url(created.id)}/order.pdf`)).json().code).toBe('laboratory_not_found');
    expect((await t.call('GET', `${url(created.id, patient)}/order.pdf`, { token: t.other.token })).statusCode).toBe(
      404,
    );
  });
});
