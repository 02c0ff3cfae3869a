import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** A multipart body as a browser's FormData sends it, with any other text parts. */
async function multipart(files: { name: string; content: Buffer }[], metadata: unknown, fields = {}) {
  const form = new FormData();
  form.append('metadata', JSON.stringify(metadata));
  for (const [name, value] of Object.entries(fields)) form.append(name, JSON.stringify(value));
  for (const file of files) form.append('files', new Blob([new Uint8Array(file.content)]), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);

/** Files of a diagnosis or a laboratory order (issue 24): attach, list, remove vs delete, the result in one step. */
describe.each(availableBackends())('record files on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  let photo: Buffer;
  const records = (kind: 'diagnoses' | 'laboratories', patient = t.patientId) => `/api/patients/${patient}/${kind}`;
  async function create(kind: 'diagnoses' | 'laboratories', patient = t.patientId, token?: string) {
    const body =
      kind === 'diagnoses'
        ? { date: '2026-03-10', professionalId: t.clinic.userId, text: 'Fractura coronaria' }
        : { orderDate: '2026-03-10', professionalId: t.clinic.userId, laboratoryName: 'Lab', studies: ['blood_count'] };
    return t.created<{ id: string; version: number }>(records(kind, patient), { body, token });
  }
  async function post(url: string, files: { name: string; content: Buffer }[], metadata: unknown, fields = {}) {
    const body = await multipart(files, metadata, fields);
    return t.call('POST', url, { headers: { 'content-type': body.contentType }, body: body.payload });
  }
  const patientFiles = (query = '') => t.call('GET', `/api/patients/${t.patientId}/files${query}`);

  beforeAll(async () => {
    photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c04040' } })
      .png()
      .toBuffer();
  });

  it('attaches files to a diagnosis, lists them there and in the patient files with the record, filters by it', async () => {
    const diagnosis = await create('diagnoses');
    const url = `${records('diagnoses')}/${diagnosis.id}/files`;
    const uploaded = await post(url, [{ name: 'fractura.png', content: photo }], [{ fileType: 'photo' }]);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const [file] = uploaded.json().data;
    expect(file).toMatchObject({ diagnosisId: diagnosis.id, laboratoryId: null, hasThumbnail: true });
    expect((await t.call('GET', url)).json()).toMatchObject({ total: 1, data: [{ id: file.id }] });
    const loose = await post(
      `/api/patients/${t.patientId}/files`,
      [{ name: 'a.pdf', content: pdf }],
      [{ fileType: 'other' }],
    );
    expect(loose.statusCode).toBe(201);
    expect((await patientFiles('?record=diagnosis')).json().data.map((row: { id: string }) => row.id)).toEqual([
      file.id,
    ]);
    expect((await patientFiles('?record=none')).json().data.map((row: { id: string }) => row.id)).toEqual([
      loose.json().data[0].id,
    ]);
    expect((await patientFiles('?record=nope')).statusCode).toBe(400);
    const events = await t.auditEvents('file_uploaded');
    expect(events.find((row) => row.entityId === file.id)?.after).toMatchObject({ diagnosisId: diagnosis.id });
    // A record's upload names no attendance: a file belongs to one record at most.
    const both = await post(url, [{ name: 'b.png', content: photo }], [{ fileType: 'photo', attendanceId: file.id }]);
    expect(both.statusCode).toBe(400);
  });

  it('removes a file from the record (it stays in the patient files, audited) or deletes it (soft)', async () => {
    const diagnosis = await create('diagnoses');
    const url = `${records('diagnoses')}/${diagnosis.id}/files`;
    const uploaded = await post(
      url,
      [
        { name: 'uno.png', content: photo },
        { name: 'dos.pdf', content: pdf },
      ],
      [{ fileType: 'photo' }, { fileType: 'other' }],
    );
    const [first, second] = uploaded.json().data;
    const removed = await t.call('DELETE', `${url}/${first.id}/link`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ code: 'file_removed' });
    expect((await t.call('DELETE', `${url}/${first.id}/link`)).json().code).toBe('file_not_found');
    const kept = (await t.call('GET', `/api/patients/${t.patientId}/files/${first.id}`)).json().data;
    expect(kept).toMatchObject({ diagnosisId: null, version: first.version + 1 });
    const [event] = (await t.auditEvents('file_removed')).filter((row) => row.entityId === first.id);
    expect(event).toMatchObject({ before: { diagnosisId: diagnosis.id }, after: { diagnosisId: null } });

    const deleted = await t.call('DELETE', `${url}/${second.id}`);
    expect(deleted.json()).toEqual({ code: 'file_deleted' });
    expect((await t.call('GET', `/api/patients/${t.patientId}/files/${second.id}`)).statusCode).toBe(404);
    expect((await t.auditEvents('file_deleted')).some((row) => row.entityId === second.id)).toBe(true);
    expect((await t.call('GET', url)).json().total).toBe(0);
  });

  it("a deleted diagnosis, laboratory order or attendance lets its files go: they stay in the patient's files, audited", async () => {
    for (const kind of ['diagnoses', 'laboratories'] as const) {
      const record = await create(kind);
      const key = kind === 'diagnoses' ? 'diagnosisId' : 'laboratoryId';
      const uploaded = await post(
        `${records(kind)}/${record.id}/files`,
        [{ name: 'informe.pdf', content: pdf }],
        [{ fileType: 'lab_result' }],
      );
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const file = uploaded.json().data[0] as { id: string; version: number };
      const deleted = await t.call('DELETE', `${records(kind)}/${record.id}`);
      expect(deleted.statusCode, deleted.body).toBeLessThan(300);
      const kept = await t.call('GET', `/api/patients/${t.patientId}/files/${file.id}`);
      expect(kept.statusCode).toBe(200);
      expect(kept.json().data).toMatchObject({ id: file.id, [key]: null, version: file.version + 1 });
      const event = (await t.auditEvents('file_removed')).find((row) => row.entityId === file.id);
      expect(event).toMatchObject({ before: { [key]: record.id }, after: { [key]: null, reason: 'record_deleted' } });
    }
    const attendance = await t.call('POST', `/api/patients/${t.patientId}/attendances`, {
      body: {
        date: '2026-03-10T12:00:00.000Z',
        attendanceType: 'dentistry',
        professionalId: t.clinic.userId,
        titleResume: 'Control',
      },
    });
    expect(attendance.statusCode, attendance.body).toBe(201);
    const attendanceId = attendance.json().data.id as string;
    const photoOfVisit = await post(
      `/api/patients/${t.patientId}/files`,
      [{ name: 'visita.png', content: photo }],
      [{ fileType: 'photo', attendanceId }],
    );
    expect(photoOfVisit.statusCode, photoOfVisit.body).toBe(201);
    const visitFile = photoOfVisit.json().data[0] as { id: string };
    expect(
      (await t.call('DELETE', `/api/patients/${t.patientId}/attendances/${attendanceId}`)).statusCode,
    ).toBeLessThan(300);
    const keptPhoto = await t.call('GET', `/api/patients/${t.patientId}/files/${visitFile.id}`);
    expect(keptPhoto.json().data).toMatchObject({ id: visitFile.id, attendanceId: null });
  });

  it('receives a laboratory result with its PDF in one step, audited, and rolls it all back when it fails', async () => {
    const order = await create('laboratories');
    const url = `${records('laboratories')}/${order.id}/result`;
    const stale = await post(url, [{ name: 'hemograma.pdf', content: pdf }], [{ fileType: 'lab_result' }], {
      result: { resultDate: '2026-03-12', result: 'Normal', version: order.version + 5 },
    });
    expect(stale.statusCode).toBe(409);
    const early = await post(url, [{ name: 'hemograma.pdf', content: pdf }], [{ fileType: 'lab_result' }], {
      result: { resultDate: '2026-03-01', version: order.version },
    });
    expect(early.json().details.fields).toEqual([{ path: 'result.resultDate', code: 'date_before_order' }]);
    const missing = await post(url, [{ name: 'hemograma.pdf', content: pdf }], [{ fileType: 'lab_result' }]);
    expect(missing.json().details.fields).toContainEqual({ path: 'result.resultDate', code: 'required' });
    expect((await t.call('GET', `${records('laboratories')}/${order.id}/files`)).json().total).toBe(0);

    const received = await post(url, [{ name: 'hemograma.pdf', content: pdf }], [{ fileType: 'lab_result' }], {
      result: { resultDate: '2026-03-12', result: 'Hemograma normal', version: order.version },
    });
    expectAnswer(received, 200, {
      code: 'laboratory_updated',
      data: {
        laboratory: { status: 'result_received', resultDate: '2026-03-12', result: 'Hemograma normal' },
        files: [{ laboratoryId: order.id, mimeType: 'application/pdf', fileType: 'lab_result' }],
      },
    });
    expect((await t.auditEvents('laboratory_updated')).at(-1)).toMatchObject({
      entityId: order.id,
      after: { status: 'result_received' },
    });
    const files = await t.call('GET', `${records('laboratories')}/${order.id}/files`);
    expect(files.json().total).toBe(1);
  });

  it("answers 404 for another clinic's or another patient's record and file", async () => {
    const diagnosis = await create('diagnoses');
    const url = `${records('diagnoses')}/${diagnosis.id}/files`;
    const [file] = (await post(url, [{ name: 'a.png', content: photo }], [{ fileType: 'photo' }])).json().data;
    const otherPatient = await t.newPatient(t.other.token);
    const theirs = `${records('diagnoses', otherPatient)}/${diagnosis.id}/files`;
    expect((await t.call('GET', theirs, { token: t.other.token })).json().code).toBe('diagnosis_not_found');
    const sibling = await t.newPatient();
    const sibling404 = await post(
      `${records('diagnoses', sibling)}/${diagnosis.id}/files`,
      [],
      [{ fileType: 'photo' }],
    );
    expect(sibling404.json().code).toBe('diagnosis_not_found');
    const order = await create('laboratories');
    // The file is the diagnosis's, not the order's.
    const wrong = await t.call('DELETE', `${records('laboratories')}/${order.id}/files/${file.id}/link`);
    expect(wrong.json().code).toBe('file_not_found');
    const stranger = await t.call('DELETE', `${theirs}/${file.id}`, { token: t.other.token });
    expect(stranger.json().code).toBe('diagnosis_not_found');
    expect((await t.call('GET', url)).json().total).toBe(1);
  });

  it('refuses hostile uploads with a 4xx and customers with a 403', async () => {
    const diagnosis = await create('diagnoses');
    const url = `${records('diagnoses')}/${diagnosis.id}/files`;
    const html = await post(
      url,
      [{ name: 'x.png', content: Buffer.from('<html><script>alert(1)</script>') }],
      [{ fileType: 'photo' }],
    );
    expect(html.statusCode).toBe(415);
    const plain = await t.call('POST', url, { body: { files: [] } });
    expect(plain.statusCode).toBe(415);
    const order = await create('laboratories');
    const badResult = await post(
      `${records('laboratories')}/${order.id}/result`,
      [{ name: 'r.pdf', content: pdf }],
      [{ fileType: 'lab_result' }],
      { result: '\u0000{' },
    );
    expect(badResult.statusCode).toBe(400);
    const notId = await t.call('GET', `${records('diagnoses')}/nope/files`);
    expect(notId.statusCode).toBe(400);
    const [file] = (await post(url, [{ name: 'a.png', content: photo }], [{ fileType: 'photo' }])).json().data;
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', url)).statusCode).toBe(403);
      expect((await post(url, [{ name: 'a.png', content: photo }], [{ fileType: 'photo' }])).statusCode).toBe(403);
      expect((await t.call('DELETE', `${url}/${file.id}/link`)).statusCode).toBe(403);
    });
    await t.asLevel('user', async () => {
      expect((await t.call('GET', url)).json().total).toBe(1);
    });
  });
});
