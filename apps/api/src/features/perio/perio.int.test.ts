import { perioExamRecord } from '@odontia/shared/routes/perio';
import type { PerioExam, PerioExamSummary } from '@odontia/shared/schemas/perio';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { patientRecordApi } from '../../../test/patient-record-api.ts';
import { describeRecordContract } from '../../../test/record-contract.ts';
import { expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** Periodontal exams (issue 41): values validated, CAL, indices, closing, present teeth, isolation, levels, audit. */
describe.each(availableBackends())('perio exams on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const site = (depth: number | null, margin: number | null, flags: Record<string, boolean> = {}) => ({
    depth,
    margin,
    ...flags,
  });
  /** Every site of a tooth alike. */
  const allSites = (depth: number, margin: number, flags: Record<string, boolean> = {}) =>
    Object.fromEntries(
      ['distobuccal', 'buccal', 'mesiobuccal', 'distolingual', 'lingual', 'mesiolingual'].map((name) => [
        name,
        site(depth, margin, flags),
      ]),
    );
  const exam = (overrides: Record<string, unknown> = {}) => ({
    date: '2026-03-10',
    professionalId: t.clinic.userId,
    dentition: 'adult',
    notes: 'Control',
    teeth: [
      { tooth: 16, mobility: 1, furcation: 2, sites: allSites(5, -1, { bleeding: true }) },
      { tooth: 11, sites: { buccal: site(2, 0, { plaque: true }), lingual: site(3, -2) } },
    ],
    ...overrides,
  });
  const { url, create, contract } = patientRecordApi<PerioExam>(t, perioExamRecord, () => exam());

  describeRecordContract(t, {
    ...contract,
    table: 'perio_exams',
    update: {
      body: () => exam({ notes: 'Revisión' }),
      shows: { notes: 'Revisión' },
      stale: () => exam({ notes: 'Otra' }),
    },
    history: { before: { notes: 'Control' }, after: { notes: 'Revisión' } },
    softDelete: { auditBefore: { notes: 'Control' } },
  });

  it('stores the sites, computes CAL (PD − GM, recession negative) and the indices exactly, audited', async () => {
    const created = await create();
    expect(created).toMatchObject({ status: 'draft', closedAt: null, dentition: 'adult', version: 1 });
    const t16 = created.teeth.find((tooth) => tooth.tooth === 16);
    expect(t16).toMatchObject({ mobility: 1, furcation: 2, missing: false, implant: false });
    expect(t16?.sites.buccal).toEqual({
      depth: 5,
      margin: -1,
      attachment: 6,
      bleeding: true,
      plaque: false,
      suppuration: false,
    });
    const t11 = created.teeth.find((tooth) => tooth.tooth === 11);
    expect(t11?.sites.lingual).toMatchObject({ depth: 3, margin: -2, attachment: 5 });
    // A site left out is empty.
    expect(t11?.sites.distobuccal).toEqual({
      depth: null,
      margin: null,
      attachment: null,
      bleeding: false,
      plaque: false,
      suppuration: false,
    });
    // 12 sites; bleeding 6 (50 %), plaque 1 (8.3 %); PD ≥ 4: 6; ≥ 6: 0; CAL (6×6 + 2 + 5) / 8 = 5.38.
    expect(created.indices).toEqual({
      sites: 12,
      probedSites: 8,
      plaquePercent: 8.3,
      bleedingPercent: 50,
      suppurationSites: 0,
      depth4Sites: 6,
      depth6Sites: 0,
      meanAttachment: 5.38,
      meanDepth: 4.38,
    });
    const event = (await t.auditEvents('perio_exam_created')).find((row) => row.entityId === created.id);
    expect(event).toMatchObject({ entity: 'perio_exam', patientId: t.patientId, userId: t.clinic.userId });
    // An edit audits only the teeth that changed.
    const edited = await t.call('PUT', url(created.id), {
      body: exam({
        version: 1,
        teeth: [
          { tooth: 16, mobility: 1, furcation: 2, sites: allSites(5, -1, { bleeding: true }) },
          { tooth: 11, sites: { buccal: site(7, 0, { plaque: true }), lingual: site(3, -2) } },
        ],
      }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<{ data: PerioExam }>().data.indices).toMatchObject({ depth4Sites: 7, depth6Sites: 1 });
    const update = (await t.auditEvents('perio_exam_updated')).find((row) => row.entityId === created.id);
    const after = update?.after as { teeth: { tooth: number }[] } | undefined;
    const before = update?.before as { teeth: { sites: { buccal: { depth: number } } }[] } | undefined;
    expect(after?.teeth.map((tooth) => tooth.tooth)).toEqual([11]);
    expect(before?.teeth[0]?.sites.buccal.depth).toBe(2);
    // The list answers summaries with the indices, without the teeth.
    const list = await t.call('GET', url());
    const row = list.json<{ data: PerioExamSummary[] }>().data.find((item) => item.id === created.id);
    expect(row).toMatchObject({ indices: { depth6Sites: 1 }, status: 'draft', version: 2 });
    expect(row).not.toHaveProperty('teeth');
  });

  it('refuses out-of-range values, unknown sites, furcation on a single-rooted tooth and foreign teeth with codes', async () => {
    const response = await t.call('POST', url(), {
      body: exam({
        teeth: [
          { tooth: 16, mobility: 4, sites: { buccal: site(16, -11), mesial: site(2, 0) } },
          { tooth: 13, furcation: 1, sites: { lingual: site(-1, 11) } },
          { tooth: 19 },
          { tooth: 21, furcation: 4, sites: { buccal: { depth: 2.5, bleeding: 'yes' } } },
        ],
      }),
    });
    expectFieldErrors(response, [
      { path: 'teeth.0.mobility', code: 'too_big', max: 3 },
      { path: 'teeth.0.sites.buccal.depth', code: 'too_big', max: 15 },
      { path: 'teeth.0.sites.buccal.margin', code: 'too_small', min: -10 },
      { path: 'teeth.0.sites.mesial', code: 'unknown_site' },
      { path: 'teeth.1.sites.lingual.depth', code: 'too_small', min: 0 },
      { path: 'teeth.1.sites.lingual.margin', code: 'too_big', max: 10 },
      { path: 'teeth.1.furcation', code: 'furcation_single_rooted' },
      { path: 'teeth.2.tooth', code: 'invalid_tooth' },
      { path: 'teeth.3.furcation', code: 'too_big', max: 3 },
      { path: 'teeth.3.sites.buccal.depth', code: 'invalid_number' },
      { path: 'teeth.3.sites.buccal.bleeding', code: 'invalid_value' },
    ]);
    // 55 is not of an adult dentition; 21 twice.
    const foreign = await t.call('POST', url(), {
      body: exam({ teeth: [{ tooth: 55 }, { tooth: 21 }, { tooth: 21 }] }),
    });
    expectFieldErrors(foreign, [
      { path: 'teeth.0.tooth', code: 'invalid_tooth' },
      { path: 'teeth.2.tooth', code: 'invalid_value' },
    ]);
    const bad = await t.call('POST', url(), { body: exam({ dentition: 'old', date: '2026-02-30', teeth: 'x' }) });
    expectFieldErrors(bad, [
      { path: 'date', code: 'invalid_date' },
      { path: 'dentition', code: 'invalid_value' },
      { path: 'teeth', code: 'invalid_value' },
    ]);
    const nul = await t.call('POST', url(), { body: exam({ notes: 'a\u0000b' }) });
    expect(nul.statusCode).toBe(400);
    const primary = await t.call('POST', url(), {
      body: exam({
        dentition: 'primary',
        teeth: [
          { tooth: 55, furcation: 1 },
          { tooth: 53, furcation: 1 },
        ],
      }),
    });
    expectFieldErrors(primary, [{ path: 'teeth.1.furcation', code: 'furcation_single_rooted' }]);
  });

  it('answers the teeth present in the odontogram and refuses a missing or extracted one', async () => {
    const patientId = await t.newPatient();
    const marks = [
      { tooth: 18, zone: null, status: 'extracted' },
      { tooth: 38, zone: null, status: 'missing' },
      { tooth: 36, zone: null, status: 'implant' },
    ];
    await t.created(`/api/patients/${patientId}/odontogram/entries`, { body: { marks } });
    const teeth = await t.call('GET', `/api/patients/${patientId}/perio-teeth`);
    expect(teeth.statusCode, teeth.body).toBe(200);
    const data = teeth.json<{ data: { present: number[]; teeth: number[]; implants: number[]; suggested: string } }>()
      .data;
    expect(data.teeth).toHaveLength(32);
    expect(data.present).toHaveLength(30);
    expect(data.present).not.toContain(18);
    expect(data.present).not.toContain(38);
    expect(data.implants).toEqual([36]);
    expect(data.suggested).toBe('adult');
    const primary = await t.call('GET', `/api/patients/${patientId}/perio-teeth?dentition=primary`);
    expect(primary.json<{ data: { present: number[] } }>().data.present).toHaveLength(20);
    const refused = await t.call('POST', url(undefined, patientId), {
      body: exam({ teeth: [{ tooth: 16 }, { tooth: 18 }] }),
    });
    expectFieldErrors(refused, [{ path: 'teeth.1.tooth', code: 'tooth_not_present' }]);
    // A tooth charted before the odontogram lost it can still be saved with its exam.
    const draft = await create(exam({ teeth: [{ tooth: 17, sites: { buccal: site(3, 0) } }] }), patientId);
    await t.created(`/api/patients/${patientId}/odontogram/entries`, {
      body: { marks: [{ tooth: 17, zone: null, status: 'extracted' }] },
    });
    const saved = await t.call('PUT', url(draft.id, patientId), {
      body: exam({ version: 1, teeth: [{ tooth: 17, sites: { buccal: site(4, 0) } }] }),
    });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('closes an exam: then it never changes, is never discarded; a draft is discarded softly', async () => {
    const created = await create();
    const stale = await t.call('POST', `${url(created.id)}/close`, { body: { version: 9 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('version_conflict');
    const closed = await t.call('POST', `${url(created.id)}/close`, { body: { version: 1 } });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ code: 'perio_exam_closed', data: { status: 'closed', version: 2 } });
    expect(closed.json().data.closedAt).toBeTruthy();
    const edit = await t.call('PUT', url(created.id), { body: exam({ version: 2, notes: 'Cambio' }) });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().code).toBe('perio_exam_already_closed');
    const again = await t.call('POST', `${url(created.id)}/close`, { body: { version: 2 } });
    expect(again.json().code).toBe('perio_exam_already_closed');
    const discard = await t.call('DELETE', url(created.id));
    expect(discard.statusCode).toBe(409);
    expect(discard.json().code).toBe('perio_exam_already_closed');
    const still = await t.call('GET', url(created.id));
    expect(still.json().data).toMatchObject({ status: 'closed', notes: 'Control', version: 2 });
    const event = (await t.auditEvents('perio_exam_closed')).find((row) => row.entityId === created.id);
    expect(event).toMatchObject({ before: { status: 'draft' }, after: { status: 'closed' } });
    // The database refuses a change to a closed exam whatever the code does.
    await expect(
      t.db.withTenant(t.clinic.accountId, (tx) =>
        tx.execute(sql`update perio_exams set notes = 'x' where id = ${created.id}`),
      ),
    ).rejects.toThrow();
  });

  it('answers 404 for another patient’s exam, another clinic’s, and an unknown patient; levels', async () => {
    const created = await create();
    const otherPatient = await t.newPatient();
    expect((await t.call('GET', url(created.id, otherPatient))).json().code).toBe('perio_exam_not_found');
    expect((await t.call('POST', `${url(created.id, otherPatient)}/close`, { body: { version: 1 } })).statusCode).toBe(
      404,
    );
    expect((await t.call('GET', `${url(created.id)}/exam.pdf`, { token: t.other.token })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/patients/${t.patientId}/perio-teeth`, { token: t.other.token })).statusCode).toBe(
      404,
    );
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', `/api/patients/${t.patientId}/perio-teeth`)).statusCode).toBe(403);
      expect((await t.call('POST', `${url(created.id)}/close`, { body: { version: 1 } })).statusCode).toBe(403);
    });
    await t.asLevel('user', async () => {
      expect((await t.call('POST', `${url(created.id)}/close`, { body: { version: 1 } })).statusCode).toBe(200);
    });
  });

  it('prints the exam as a PDF', async () => {
    const created = await create();
    const response = await t.call('GET', `${url(created.id)}/exam.pdf`);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toContain('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
