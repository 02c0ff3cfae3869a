import { diagnosisRecord } from '@odontia/shared/routes/medical-history';
import type { diagnosisContracts } from '@odontia/shared/schemas/diagnoses';
import { describe, expect, it } from 'vitest';
import { patientRecordApi } from '../../../test/patient-record-api.ts';
import { describeRecordContract } from '../../../test/record-contract.ts';
import { type Answer, expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

type DiagnosisAnswer = Answer<(typeof diagnosisContracts)['one']>;

/** Diagnoses of the medical history: validation, list, history; the record contract (issue 5). */
describe.each(availableBackends())('diagnoses on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const diagnosis = (overrides: Record<string, unknown> = {}) => ({
    date: '2026-03-10',
    professionalId: t.clinic.userId,
    text: 'Caries de esmalte',
    icd10Code: 'k02.0',
    teeth: [36, 16],
    notes: 'Control en 6 meses',
    ...overrides,
  });
  const { url, create, contract } = patientRecordApi<DiagnosisAnswer['data']>(t, diagnosisRecord, () => diagnosis());

  describeRecordContract(t, {
    ...contract,
    table: 'diagnoses',
    update: {
      body: () => diagnosis({ status: 'resolved' }),
      shows: { status: 'resolved', text: 'Caries de esmalte' },
      stale: () => diagnosis({ text: 'Otra cosa' }),
    },
    history: { before: { status: 'active' }, after: { status: 'resolved' } },
    softDelete: { auditBefore: { text: 'Caries de esmalte' } },
  });

  it('creates a diagnosis: ICD-10 upper-cased, teeth sorted, professional and author names, audit row', async () => {
    const response = await t.call('POST', url(), { body: diagnosis() });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<DiagnosisAnswer>();
    expect(body.code).toBe('diagnosis_created');
    expect(body.data).toMatchObject({
      patientId: t.patientId,
      date: '2026-03-10',
      professionalId: t.clinic.userId,
      text: 'Caries de esmalte',
      icd10Code: 'K02.0',
      teeth: [16, 36],
      status: 'active',
      notes: 'Control en 6 meses',
      version: 1,
    });
    expect(body.data.professionalName).toMatch(/^Ana Pérez/);
    expect(body.data.createdByName).toMatch(/^Ana Pérez/);
    const event = (await t.auditEvents('diagnosis_created')).find((row) => row.entityId === body.data.id);
    expect(event).toMatchObject({ entity: 'diagnosis', patientId: t.patientId, userId: t.clinic.userId });
    expect(event?.after).toMatchObject({ text: 'Caries de esmalte', teeth: [16, 36] });
  });

  it('validates each field with its code', async () => {
    const response = await t.call('POST', url(), {
      body: diagnosis({ date: '2026-02-30', text: '  ', icd10Code: 'K2', teeth: [19, 36, 36], status: 'gone' }),
    });
    expectFieldErrors(response, [
      { path: 'date', code: 'invalid_date' },
      { path: 'text', code: 'required' },
      { path: 'icd10Code', code: 'invalid_format' },
      { path: 'teeth.0', code: 'invalid_value' },
      { path: 'teeth', code: 'invalid_value' },
      { path: 'status', code: 'invalid_value' },
    ]);
    const primary = await t.call('POST', url(), { body: diagnosis({ teeth: [55, 85, 11, 48], icd10Code: 'A00' }) });
    expect(primary.statusCode, primary.body).toBe(201);
    expect(primary.json<DiagnosisAnswer>().data.teeth).toEqual([11, 48, 55, 85]);
    const missing = await t.call('POST', url(), { body: {} });
    expectFieldErrors(missing, [
      { path: 'date', code: 'required' },
      { path: 'professionalId', code: 'required' },
      { path: 'text', code: 'required' },
    ]);
    const stranger = await t.call('POST', url(), { body: diagnosis({ professionalId: t.other.userId }) });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().details.fields).toEqual([{ path: 'professionalId', code: 'invalid_value' }]);
  });

  it('lists newest first, paginated', async () => {
    const patient = await t.newPatient();
    await create(diagnosis({ date: '2025-01-01', text: 'Antigua' }), patient);
    await create(diagnosis({ date: '2026-01-01', text: 'Reciente' }), patient);
    await create(diagnosis({ date: '2025-06-01', text: 'Intermedia' }), patient);
    const page = await t.call('GET', `${url(undefined, patient)}?pageSize=2`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page.json<{ data: DiagnosisAnswer['data'][] }>().data.map((row) => row.text)).toEqual([
      'Reciente',
      'Intermedia',
    ]);
    const second = await t.call('GET', `${url(undefined, patient)}?pageSize=2&page=2`);
    expect(second.json<{ data: DiagnosisAnswer['data'][] }>().data.map((row) => row.text)).toEqual(['Antigua']);
  });
});
