import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileRoutes } from '@odontia/shared/routes/files';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/clinics.ts';
import { multipart, type Part } from '../../../test/multipart.ts';
import { declaredCollection, describeRecordContract } from '../../../test/record-contract.ts';
import { expectAnswer, expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';
import { listAuditEvents } from '../audit/audit.repository.ts';

const pngSignature = Buffer.from('89504e470d0a1a0a', 'hex');
/** A PNG header followed by padding: passes the first-bytes check, stops at the size limits. */
const paddedPng = (bytes: number) => Buffer.concat([pngSignature, Buffer.alloc(bytes - pngSignature.length, 7)]);
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);

/** Every stored object under DATA_DIR/uploads (temp files included). */
async function storedObjects(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Files and exams of a patient: uploads and their limits, content checks, thumbnails, headers, isolation, levels (issue 6). */
describe.each(availableBackends())('patient files on %s', (backend) => {
  // Small limits: 0.1 MB (about 102 KB) a file, 0.25 MB an upload.
  const t = useTestClinic(backend, { patient: true, env: { UPLOAD_MAX_MB: '0.1', UPLOAD_TOTAL_MAX_MB: '0.25' } });
  let uploadsDir: string;
  let photo: Buffer;
  let jpeg: Buffer;
  let webp: Buffer;
  const url = (id?: string, patient = t.patientId) => `/api/patients/${patient}/files${id ? `/${id}` : ''}`;
  async function upload(files: Part[], metadata: unknown, options: { token?: string; patient?: string } = {}) {
    const body = await multipart(files, metadata);
    return t.call('POST', url(undefined, options.patient), {
      token: options.token,
      headers: { 'content-type': body.contentType },
      body: body.payload,
    });
  }
  async function uploadOne(part: Part = { name: 'sonrisa.png', content: photo }, patient = t.patientId) {
    const response = await upload([part], [{ fileType: 'photo', note: 'Frente' }], { patient });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data[0] as { id: string; version: number; [key: string]: unknown };
  }

  beforeAll(async () => {
    uploadsDir = path.join(t.testApp.env.DATA_DIR, 'uploads');
    const image = sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3a7bd5' } });
    photo = await image.clone().png().toBuffer();
    jpeg = await image.clone().jpeg().toBuffer();
    webp = await image.clone().webp().toBuffer();
  });

  describeRecordContract(t, {
    entity: 'file',
    ...declaredCollection(fileRoutes.list),
    table: 'patient_files',
    createdAction: 'file_uploaded',
    body: () => ({}),
    create: (_t, patient, token) =>
      upload([{ name: 'sonrisa.png', content: photo }], [{ fileType: 'photo', note: 'Frente' }], { patient, token }),
    update: {
      method: 'PATCH',
      body: () => ({ fileType: 'dental_radiography', note: 'Control' }),
      stale: () => ({ note: 'x' }),
    },
    history: { before: { note: 'Frente' }, after: { note: 'Control' } },
    softDelete: { auditBefore: { fileType: 'photo' } },
    permissions: { read: 'patients.read', write: 'clinical.write' },
  });

  it('uploads several files at once: type from the content, SHA-256, a thumbnail for images, audited', async () => {
    const response = await upload(
      [
        { name: 'radiografía panorámica.jpg', content: jpeg, type: 'image/jpeg' },
        { name: 'sonrisa.webp', content: webp, type: 'application/octet-stream' },
        { name: 'hemograma.pdf', content: pdf, type: 'application/pdf' },
      ],
      [
        { fileType: 'x_ray', note: 'Panorámica inicial', takenOn: '2026-03-01' },
        { fileType: 'photo' },
        { fileType: 'lab_result', note: '  ' },
      ],
    );
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body.code).toBe('files_uploaded');
    expect(body.data).toMatchObject([
      {
        patientId: t.patientId,
        fileType: 'x_ray',
        note: 'Panorámica inicial',
        takenOn: '2026-03-01',
        originalName: 'radiografía panorámica.jpg',
        mimeType: 'image/jpeg',
        sizeBytes: jpeg.length,
        hasThumbnail: true,
        version: 1,
      },
      { fileType: 'photo', note: null, mimeType: 'image/webp', hasThumbnail: true },
      { fileType: 'lab_result', note: null, mimeType: 'application/pdf', hasThumbnail: false, sizeBytes: pdf.length },
    ]);
    const { createHash } = await import('node:crypto');
    expect(body.data[0].sha256).toBe(createHash('sha256').update(jpeg).digest('hex'));
    expect(body.data[0].createdByName).toMatch(/^Ana Pérez/);
    // Stored under generated keys: three originals and two thumbnails, never the user's names.
    const objects = await storedObjects(uploadsDir);
    expect(objects.length).toBeGreaterThanOrEqual(5);
    expect(objects.some((file) => file.includes('radiograf'))).toBe(false);

    const thumbnail = await t.call('GET', `${url(body.data[0].id)}/thumbnail`);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(thumbnail.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(320);
    expect((await t.call('GET', `${url(body.data[2].id)}/thumbnail`)).json().code).toBe('file_not_found');

    const events = await t.auditEvents('file_uploaded');
    for (const file of body.data) {
      expect(events.find((row) => row.entityId === file.id)).toMatchObject({ entity: 'file', patientId: t.patientId });
    }
  });

  it('serves the content with its detected type, RFC 5987 name, nosniff, a sandbox CSP and private caching', async () => {
    const created = await uploadOne({ name: 'Ñandú año 1.png', content: photo, type: 'text/html' });
    const inline = await t.call('GET', `${url(created.id)}/content`);
    expect(inline.statusCode).toBe(200);
    expect(inline.rawPayload.equals(photo)).toBe(true);
    expect(inline.headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=3600',
      'content-length': String(photo.length),
    });
    expect(inline.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
    expect(inline.headers['content-disposition']).toBe(
      `inline; filename="Nandu ano 1.png"; filename*=UTF-8''%C3%91and%C3%BA%20a%C3%B1o%201.png`,
    );
    const download = await t.call('GET', `${url(created.id)}/content?download=1`);
    expect(download.headers['content-disposition']).toMatch(/^attachment; /);

    const [document] = (await upload([{ name: 'informe.pdf', content: pdf }], [{ fileType: 'other' }])).json().data;
    const pdfAnswer = await t.call('GET', `${url(document.id)}/content`);
    expect(pdfAnswer.headers['content-type']).toBe('application/pdf');
    expect(pdfAnswer.headers['content-disposition']).toBe('inline; filename="informe.pdf"');
  });

  it('answers a file whose stored bytes are gone with 500 error_download_file, naming no path', async () => {
    const before = new Set(await storedObjects(uploadsDir));
    const created = await uploadOne({ name: 'perdida.png', content: photo });
    const added = (await storedObjects(uploadsDir)).filter((object) => !before.has(object));
    expect(added).toHaveLength(2); // the original and its thumbnail
    await Promise.all(added.map((object) => rm(object)));
    for (const which of ['content', 'thumbnail']) {
      const answer = await t.call('GET', `${url(created.id)}/${which}`);
      expect(answer.statusCode).toBe(500);
      expect(answer.json()).toEqual({ code: 'error_download_file', message: expect.any(String) });
      expect(answer.body).not.toContain(uploadsDir);
      expect(answer.body).not.toContain('ENOENT');
    }
  });

  it('refuses a file over UPLOAD_MAX_MB naming it, and stores nothing of the upload', async () => {
    const before = await storedObjects(uploadsDir);
    const response = await upload(
      [
        { name: 'foto.png', content: photo },
        { name: 'tomografía.png', content: paddedPng(150 * 1024) },
        { name: 'otra.png', content: photo },
      ],
      [{ fileType: 'photo' }, { fileType: 'x_ray' }, { fileType: 'photo' }],
    );
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'file_too_large',
      details: { file: 'tomografía.png', max: 0.1 },
    });
    expect(await storedObjects(uploadsDir)).toEqual(before);
  });

  it('answers a real client the 413 after reading the rest of its body (no connection reset mid-upload)', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const body = await multipart(
      [
        { name: 'enorme.png', content: paddedPng(3 * 1024 * 1024) },
        { name: 'después.png', content: photo },
      ],
      [{ fileType: 'photo' }, { fileType: 'photo' }],
    );
    const response = await fetch(`${address}${url()}`, {
      method: 'POST',
      headers: { ...bearer(t.clinic.token), 'content-type': body.contentType },
      body: body.payload,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'file_too_large', details: { file: 'enorme.png' } });
  });

  it('refuses a batch over UPLOAD_TOTAL_MAX_MB as a whole, nothing left in storage or in the list', async () => {
    const patient = await t.newPatient();
    const before = await storedObjects(uploadsDir);
    const response = await upload(
      [
        { name: 'uno.png', content: paddedPng(90 * 1024) },
        { name: 'dos.png', content: paddedPng(90 * 1024) },
        { name: 'tres.png', content: paddedPng(90 * 1024) },
      ],
      [{ fileType: 'photo' }, { fileType: 'photo' }, { fileType: 'photo' }],
      { patient },
    );
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'files_too_large', details: { max: 0.25 } });
    expect(await storedObjects(uploadsDir)).toEqual(before);
    expect((await t.call('GET', url(undefined, patient))).json()).toMatchObject({ total: 0, data: [] });
  });

  it('checks the type from the content: HTML or SVG renamed .png and a forged PNG header answer 415', async () => {
    const before = await storedObjects(uploadsDir);
    const disguised = [
      { name: 'inocente.png', content: Buffer.from('<!doctype html><script>alert(1)</script>'), type: 'image/png' },
      { name: 'logo.png', content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>') },
      { name: 'vacío.png', content: Buffer.alloc(0) },
      { name: 'roto.png', content: paddedPng(2000) },
      { name: 'animación.gif', content: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1') },
    ];
    for (const file of disguised) {
      const response = await upload(
        [{ name: 'bien.png', content: photo }, file],
        [{ fileType: 'photo' }, { fileType: 'photo' }],
      );
      expect(response.statusCode, file.name).toBe(415);
      expect(response.json()).toMatchObject({ code: 'file_type_not_allowed', details: { file: file.name } });
    }
    expect(await storedObjects(uploadsDir)).toEqual(before);
  });

  it('tells the web the limits it checks before sending', async () => {
    expect((await t.call('GET', '/api/files/limits')).json()).toEqual({
      maxFileMb: 0.1,
      maxTotalMb: 0.25,
      maxFiles: 20,
      mimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'],
    });
  });

  it('validates the metadata: one entry per file, known types, an attendance of the patient', async () => {
    const noFiles = await upload([], [{ fileType: 'photo' }]);
    expect(noFiles.json()).toMatchObject({
      code: 'validation_error',
      details: { fields: [{ path: 'files', code: 'required' }] },
    });
    const bad = await upload([{ name: 'a.png', content: photo }], [{ fileType: 'selfie', takenOn: '2026-02-30' }]);
    expectFieldErrors(bad, [
      { path: 'metadata.0.fileType', code: 'invalid_value' },
      { path: 'metadata.0.takenOn', code: expect.any(String) },
    ]);
    const missing = await upload([{ name: 'a.png', content: photo }], undefined);
    expect(missing.json().details.fields).toEqual([{ path: 'metadata', code: 'required' }]);
    const count = await upload([{ name: 'a.png', content: photo }], [{ fileType: 'photo' }, { fileType: 'photo' }]);
    expect(count.json().details.fields).toEqual([{ path: 'metadata', code: 'invalid_value' }]);
    const stranger = await upload([{ name: 'a.png', content: photo }], [{ fileType: 'photo', attendanceId: newId() }]);
    expect(stranger.json().details.fields).toEqual([{ path: 'metadata.0.attendanceId', code: 'invalid_value' }]);
    const json = await t.call('POST', url(), { body: { files: [] } });
    expect(json.statusCode).toBe(415);
  });

  it('lists newest first with a type filter, edits type and note with the version, deletes softly', async () => {
    const patient = await t.newPatient();
    const first = await uploadOne(undefined, patient);
    const second = (
      await upload([{ name: 'estudio.pdf', content: pdf }], [{ fileType: 'lab_result' }], { patient })
    ).json().data[0];
    const list = await t.call('GET', url(undefined, patient));
    expect(list.json()).toMatchObject({ total: 2, page: 1, data: [{ id: second.id }, { id: first.id }] });
    const onlyLab = await t.call('GET', `${url(undefined, patient)}?fileType=lab_result`);
    expect(onlyLab.json()).toMatchObject({ total: 1, data: [{ id: second.id }] });
    expect((await t.call('GET', `${url(undefined, patient)}?fileType=video`)).statusCode).toBe(400);

    const edited = await t.call('PATCH', url(first.id, patient), {
      body: {
        fileType: 'dental_radiography',
        note: 'Control',
        version: 1,
      },
    });
    expectAnswer(edited, 200, {
      code: 'file_updated',
      data: { fileType: 'dental_radiography', note: 'Control', version: 2 },
    });
    const noteOnly = await t.call('PATCH', url(first.id, patient), { body: { note: '', version: 2 } });
    expect(noteOnly.json().data).toMatchObject({ fileType: 'dental_radiography', note: null, version: 3 });
    const stale = await t.call('PATCH', url(first.id, patient), { body: { note: 'x', version: 1 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'version_conflict', details: { current: { version: 3 } } });
    const badType = await t.call('PATCH', url(first.id, patient), { body: { fileType: 'video', version: 3 } });
    expect(badType.json().details.fields).toEqual([{ path: 'fileType', code: 'invalid_value' }]);

    const before = await storedObjects(uploadsDir);
    expect((await t.call('DELETE', url(first.id, patient))).json()).toEqual({ code: 'file_deleted' });
    expect((await t.call('GET', url(first.id, patient))).json().code).toBe('file_not_found');
    expect((await t.call('GET', `${url(first.id, patient)}/content`)).statusCode).toBe(404);
    expect((await t.call('DELETE', url(first.id, patient))).json().code).toBe('file_not_found');
    expect((await t.call('GET', url(undefined, patient))).json()).toMatchObject({
      total: 1,
      data: [{ id: second.id }],
    });
    // The row and its bytes are kept.
    const { rows } = await t.db.orm.execute(sql`select deleted_at from patient_files where id = ${first.id}`);
    expect(rows).toHaveLength(1);
    expect(await storedObjects(uploadsDir)).toEqual(before);

    const changes = await t.call('GET', `${url(second.id, patient)}/changes`);
    expect(changes.json()).toMatchObject({ total: 1, data: [{ action: 'file_uploaded' }] });
    const events = await t.db.withTenant(t.clinic.accountId, (tx) => listAuditEvents(tx, {}));
    const ofFirst = events.filter((row) => row.entityId === first.id).map((row) => row.action);
    expect(ofFirst.sort()).toEqual(['file_deleted', 'file_updated', 'file_updated', 'file_uploaded']);
  });

  it("answers file_not_found for another clinic's file's content, thumbnail and changes, and another patient's content", async () => {
    const created = await uploadOne();
    const otherPatient = await t.newPatient(t.other.token);
    for (const suffix of ['', '/content', '/thumbnail', '/changes']) {
      const response = await t.call('GET', `${url(created.id, otherPatient)}${suffix}`, { token: t.other.token });
      expect(response.json().code, suffix).toBe('file_not_found');
    }
    expect((await t.call('DELETE', url(created.id, otherPatient), { token: t.other.token })).json().code).toBe(
      'file_not_found',
    );
    const sibling = await t.newPatient();
    expect((await t.call('GET', `${url(created.id, sibling)}/content`)).json().code).toBe('file_not_found');
  });

  it('lets every level that reads patients download files; a refused upload stores nothing', async () => {
    const created = await uploadOne();
    for (const level of ['supervisor', 'user'] as const) {
      await t.asLevel(level, async () => {
        expect((await t.call('GET', `${url(created.id)}/content`)).statusCode, level).toBe(200);
      });
    }
    await t.asLevel('customer', async () => {
      const before = await storedObjects(uploadsDir);
      expect((await t.call('GET', `${url(created.id)}/content`)).statusCode).toBe(403);
      expect((await upload([{ name: 'a.png', content: photo }], [{ fileType: 'photo' }])).statusCode).toBe(403);
      expect(await storedObjects(uploadsDir)).toEqual(before);
    });
  });
});
