import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import { bearer, createTestClinic, setLevel, type TestClinic } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { newId } from '../../lib/ids.ts';
import { listAuditEvents } from '../audit/audit.repository.ts';
import { signatureHash } from './signature.ts';

/** A PNG of `width`×`height`, transparent, with a dark stroke across when `ink`. */
export function signaturePng(width = 400, height = 150, ink = true): Buffer {
  const png = new PNG({ width, height });
  if (ink) {
    for (let x = 20; x < width - 20; x += 1) {
      const y = Math.round(height / 2 + Math.sin(x / 15) * (height / 4));
      for (let dy = -1; dy <= 1; dy += 1) {
        const offset = ((y + dy) * width + x) * 4;
        png.data[offset] = 20;
        png.data[offset + 1] = 20;
        png.data[offset + 2] = 60;
        png.data[offset + 3] = 255;
      }
    }
  }
  return PNG.sync.write(png);
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** Treatment authorizations and templates: placeholders, edit/sign/unsign/delete rules, hash check, PNG checks, isolation, levels, audit (issue 6). */
describe.each(availableBackends())('treatment authorizations on %s', (backend) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let clinic: TestClinic;
  let other: TestClinic;
  let patientId: string;
  let templateId: string;
  const mailer = new MemoryMailer();
  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (method: Method, url: string, token: string = clinic.token, payload?: object) =>
    app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const url = (id?: string, patient = patientId) => `/api/patients/${patient}/authorizations${id ? `/${id}` : ''}`;
  const templateBody =
    'Yo, {{patient}} (DNI {{idNumber}}), autorizo a {{professional}} de {{clinic}} a realizar: {{treatment}}. ' +
    'Riesgos: {{ risks }}. Alternativas: {{alternatives}}. Costo: {{cost}}. Fecha: {{date}}.';
  const fields = (overrides: Record<string, unknown> = {}) => ({
    templateId,
    date: '2026-03-10',
    professionalId: clinic.userId,
    treatment: 'Extracción de la pieza 38',
    risks: 'Dolor, inflamación, alveolitis',
    alternatives: 'Controles periódicos',
    costEstimate: '150000,50',
    ...overrides,
  });
  const signBody = (overrides: Record<string, unknown> = {}) => ({
    signerName: 'Mónica Ibáñez',
    signerIdNumber: '28.111.222',
    signature: dataUrl(signaturePng()),
    ...overrides,
  });
  async function create(body: object = fields(), patient = patientId) {
    const response = await call('POST', url(undefined, patient), clinic.token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; version: number; body: string; [key: string]: unknown };
  }
  async function sign(id: string, patient = patientId, body = signBody()) {
    const response = await call('POST', `${url(id, patient)}/sign`, clinic.token, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  beforeAll(async () => {
    testApp = await createTestApp({ backend, mailer });
    app = testApp.app;
    clinic = await createTestClinic(app, mailer);
    other = await createTestClinic(app, mailer);
    patientId = await createTestPatient(app, clinic.token, {
      firstName: 'Mónica',
      lastName: 'Ibáñez',
      ssn: '28.111.222',
    });
    const template = await call('POST', '/api/authorization-templates', clinic.token, {
      title: 'Consentimiento para extracción',
      body: templateBody,
    });
    expect(template.statusCode, template.body).toBe(201);
    templateId = template.json().data.id;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  describe('templates', () => {
    it('gives a new clinic a default template in its language', async () => {
      const list = await call('GET', '/api/authorization-templates?active=true', other.token);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json()).toMatchObject({
        total: 1,
        data: [{ title: 'Consentimiento informado para tratamiento odontológico', active: true, version: 1 }],
      });
    });

    it('refuses unknown placeholders with a field error and keeps known ones with spaces', async () => {
      const bad = await call('POST', '/api/authorization-templates', clinic.token, {
        title: 'Malo',
        body: 'Yo, {{patient}}, pago {{precio}} y {{ dni }}.',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.fields).toEqual([{ path: 'body', code: 'unknown_placeholder' }]);
      const empty = await call('POST', '/api/authorization-templates', clinic.token, { title: '', body: '' });
      expect(empty.json().details.fields).toEqual(
        expect.arrayContaining([
          { path: 'title', code: 'required' },
          { path: 'body', code: 'required' },
        ]),
      );
    });

    it('edits with the version (409 when stale), deactivates, deletes softly, audits each step', async () => {
      const created = await call('POST', '/api/authorization-templates', clinic.token, {
        title: 'Blanqueamiento',
        body: 'Autorizo {{treatment}}.',
      });
      const id = created.json().data.id as string;
      const edited = await call('PUT', `/api/authorization-templates/${id}`, clinic.token, {
        title: 'Blanqueamiento dental',
        body: 'Autorizo {{treatment}} por {{cost}}.',
        active: false,
        version: 1,
      });
      expect(edited.json()).toMatchObject({
        code: 'authorization_template_updated',
        data: { title: 'Blanqueamiento dental', active: false, version: 2 },
      });
      const stale = await call('PUT', `/api/authorization-templates/${id}`, clinic.token, {
        title: 'X',
        body: 'Y',
        version: 1,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: 'version_conflict', details: { current: { version: 2 } } });
      const active = await call('GET', '/api/authorization-templates?active=true');
      expect(active.json().data.map((row: { id: string }) => row.id)).not.toContain(id);
      // An inactive template cannot be written from.
      const fromInactive = await call('POST', url(), clinic.token, fields({ templateId: id }));
      expect(fromInactive.json().details.fields).toEqual([{ path: 'templateId', code: 'invalid_value' }]);
      const changes = await call('GET', `/api/authorization-templates/${id}/changes`);
      expect(changes.json().data.map((row: { action: string }) => row.action)).toEqual([
        'authorization_template_updated',
        'authorization_template_created',
      ]);
      expect((await call('DELETE', `/api/authorization-templates/${id}`)).json()).toEqual({
        code: 'authorization_template_deleted',
      });
      expect((await call('GET', `/api/authorization-templates/${id}`)).json().code).toBe(
        'authorization_template_not_found',
      );
      expect((await call('POST', url(), clinic.token, fields({ templateId: id }))).json().code).toBe(
        'authorization_template_not_found',
      );
      const deleted = await testApp.db.withTenant(clinic.accountId, (tx) =>
        listAuditEvents(tx, { action: 'authorization_template_deleted' }),
      );
      expect(deleted.find((row) => row.entityId === id)).toMatchObject({ entity: 'authorization_template' });
      const { rows } = await testApp.db.orm.execute(
        sql`select deleted_at from authorization_templates where id = ${id}`,
      );
      expect(rows).toHaveLength(1);
    });

    it("answers 404 for another clinic's template; writing needs settings.manage, reading patients.read", async () => {
      expect((await call('GET', `/api/authorization-templates/${templateId}`, other.token)).statusCode).toBe(404);
      expect(
        (
          await call('PUT', `/api/authorization-templates/${templateId}`, other.token, {
            title: 'X',
            body: 'Y',
            version: 1,
          })
        ).json().code,
      ).toBe('authorization_template_not_found');
      const body = { title: 'Otra', body: 'Autorizo {{treatment}}.' };
      try {
        for (const level of ['supervisor', 'user'] as const) {
          await setLevel(testApp.db, clinic.userId, level);
          expect((await call('GET', '/api/authorization-templates')).statusCode).toBe(200);
          expect((await call('GET', `/api/authorization-templates/${templateId}`)).statusCode).toBe(200);
          expect((await call('POST', '/api/authorization-templates', clinic.token, body)).statusCode).toBe(403);
          expect((await call('DELETE', `/api/authorization-templates/${templateId}`)).statusCode).toBe(403);
        }
        await setLevel(testApp.db, clinic.userId, 'customer');
        expect((await call('GET', '/api/authorization-templates')).statusCode).toBe(403);
      } finally {
        await setLevel(testApp.db, clinic.userId, 'administrator');
      }
    });
  });

  describe('authorizations', () => {
    it('writes one from a template: placeholders filled, cost in the clinic currency, audited', async () => {
      const response = await call('POST', url(), clinic.token, fields());
      expect(response.statusCode, response.body).toBe(201);
      const { code, data } = response.json();
      expect(code).toBe('authorization_created');
      expect(data).toMatchObject({
        patientId,
        templateId,
        templateTitle: 'Consentimiento para extracción',
        title: 'Consentimiento para extracción',
        treatment: 'Extracción de la pieza 38',
        costEstimate: '150000.50',
        status: 'unsigned',
        signedAt: null,
        signatures: [],
        version: 1,
      });
      // A new clinic signs up in Spanish with Argentine pesos.
      expect(data.body).toMatch(
        /^Yo, Mónica Ibáñez \(DNI 28\.111\.222\), autorizo a Ana Pérez \d+ de Clínica \d+ a realizar: Extracción de la pieza 38\. Riesgos: Dolor, inflamación, alveolitis\. Alternativas: Controles periódicos\. Costo: \$\s150\.000,50\. Fecha: 10\/03\/2026\.$/,
      );
      expect(data.body).not.toContain('{{');
      const events = await testApp.db.withTenant(clinic.accountId, (tx) =>
        listAuditEvents(tx, { action: 'authorization_created' }),
      );
      expect(events.find((row) => row.entityId === data.id)).toMatchObject({ entity: 'authorization', patientId });
    });

    it('validates the fields; unknown placeholders in an edited body are refused', async () => {
      const bad = await call(
        'POST',
        url(),
        clinic.token,
        fields({ treatment: '', costEstimate: '-3', templateId: 'x' }),
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.fields).toEqual(
        expect.arrayContaining([
          { path: 'treatment', code: 'required' },
          { path: 'costEstimate', code: 'not_negative' },
          { path: 'templateId', code: 'invalid_value' },
        ]),
      );
      const stranger = await call('POST', url(), clinic.token, fields({ professionalId: other.userId }));
      expect(stranger.json().details.fields).toEqual([{ path: 'professionalId', code: 'invalid_value' }]);
      const created = await create();
      const edit = await call('PUT', url(created.id), clinic.token, {
        ...fields(),
        title: 'T',
        body: 'Texto con {{firma}}',
        version: 1,
      });
      expect(edit.json().details.fields).toEqual([{ path: 'body', code: 'unknown_placeholder' }]);
    });

    it('edits while unsigned (placeholders in the edited body filled again), 409 version_conflict when stale', async () => {
      const created = await create();
      const edited = await call('PUT', url(created.id), clinic.token, {
        ...fields({ costEstimate: '90000', treatment: 'Extracción de la pieza 48' }),
        title: 'Consentimiento — pieza 48',
        body: 'Texto revisado para {{patient}}: {{treatment}} por {{cost}}.',
        version: 1,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({
        code: 'authorization_updated',
        data: { title: 'Consentimiento — pieza 48', treatment: 'Extracción de la pieza 48', version: 2 },
      });
      expect(edited.json().data.body).toMatch(
        /^Texto revisado para Mónica Ibáñez: Extracción de la pieza 48 por \$\s90\.000,00\.$/,
      );
      const stale = await call('PUT', url(created.id), clinic.token, {
        ...fields(),
        title: 'x',
        body: 'y',
        version: 1,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: 'version_conflict', details: { current: { version: 2 } } });
      const changes = await call('GET', `${url(created.id)}/changes`);
      expect(changes.json().data[0]).toMatchObject({
        action: 'authorization_updated',
        before: { title: 'Consentimiento para extracción', costEstimate: '150000.50' },
        after: { title: 'Consentimiento — pieza 48', costEstimate: '90000.00' },
      });
    });

    it('signs: stores the text as signed, the PNG, signer, collector and SHA-256(text ‖ 0x00 ‖ PNG); then no edit, no delete, no second sign', async () => {
      const created = await create();
      const png = signaturePng();
      const signed = await sign(created.id, patientId, signBody({ signature: png.toString('base64') }));
      expect(signed).toMatchObject({ status: 'signed', version: 2 });
      expect(signed.signedAt).toEqual(expect.any(String));
      const [signature] = signed.signatures;
      const signedText = `${created.title}\n\n${created.body}`;
      expect(signature).toMatchObject({
        signerName: 'Mónica Ibáñez',
        signerIdNumber: '28.111.222',
        signedText,
        revokedAt: null,
        sha256: signatureHash(signedText, png),
        image: dataUrl(png),
      });
      expect(signature.collectedByName).toMatch(/^Ana Pérez/);
      // The documented byte sequence, computed independently.
      const { createHash } = await import('node:crypto');
      expect(signature.sha256).toBe(
        createHash('sha256')
          .update(Buffer.concat([Buffer.from(signedText, 'utf8'), Buffer.from([0]), png]))
          .digest('hex'),
      );
      const edit = await call('PUT', url(created.id), clinic.token, { ...fields(), title: 'x', body: 'y', version: 2 });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().code).toBe('authorization_is_signed');
      const again = await call('POST', `${url(created.id)}/sign`, clinic.token, signBody());
      expect(again.json().code).toBe('error_sign_authorization');
      expect(again.statusCode).toBe(409);
      const remove = await call('DELETE', url(created.id));
      expect(remove.statusCode).toBe(409);
      expect(remove.json().code).toBe('authorization_is_signed');
      const list = await call('GET', `${url()}?status=signed`);
      expect(list.json().data.map((row: { id: string }) => row.id)).toContain(created.id);
      const unsignedList = await call('GET', `${url()}?status=unsigned`);
      expect(unsignedList.json().data.map((row: { id: string }) => row.id)).not.toContain(created.id);
    });

    it('checks the signature image: a real PNG by its bytes, bounded size and dimensions, not blank', async () => {
      const created = await create();
      const refused = async (signature: string) => {
        const response = await call('POST', `${url(created.id)}/sign`, clinic.token, signBody({ signature }));
        expect(response.statusCode, response.body).toBe(400);
        return response.json().details.fields;
      };
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L10 10"/></svg>');
      expect(await refused(dataUrl(svg))).toEqual([{ path: 'signature', code: 'invalid_format' }]);
      expect(await refused('no es base64 !!')).toEqual([{ path: 'signature', code: 'invalid_format' }]);
      const corrupt = Buffer.from(signaturePng());
      corrupt[corrupt.length - 20] = (corrupt[corrupt.length - 20] ?? 0) ^ 0xff;
      expect(await refused(dataUrl(corrupt))).toEqual([{ path: 'signature', code: 'invalid_format' }]);
      expect(await refused(dataUrl(signaturePng(400, 150, false)))).toEqual([{ path: 'signature', code: 'required' }]);
      const white = new PNG({ width: 300, height: 100 });
      white.data.fill(255);
      expect(await refused(dataUrl(PNG.sync.write(white)))).toEqual([{ path: 'signature', code: 'required' }]);
      expect(await refused(dataUrl(signaturePng(4100, 100)))).toEqual([{ path: 'signature', code: 'too_big' }]);
      expect(await refused(dataUrl(signaturePng(40, 15)))).toEqual([{ path: 'signature', code: 'too_small' }]);
      expect(await refused('')).toEqual([{ path: 'signature', code: 'required' }]);
      const noName = await call(
        'POST',
        `${url(created.id)}/sign`,
        clinic.token,
        signBody({ signerName: ' ', signerIdNumber: '' }),
      );
      expect(noName.json().details.fields).toEqual(
        expect.arrayContaining([
          { path: 'signerName', code: 'required' },
          { path: 'signerIdNumber', code: 'required' },
        ]),
      );
      // Nothing was signed.
      expect((await call('GET', url(created.id))).json().data).toMatchObject({ status: 'unsigned', signatures: [] });
    });

    it('unsigns with a reason: the signature stays, revoked; edit works again; a second unsign answers 409', async () => {
      const created = await create();
      const noReason = await call('POST', `${url(created.id)}/unsign`, clinic.token, { reason: '' });
      expect(noReason.json().details.fields).toEqual([{ path: 'reason', code: 'required' }]);
      const notSigned = await call('POST', `${url(created.id)}/unsign`, clinic.token, { reason: 'x' });
      expect(notSigned.statusCode).toBe(409);
      expect(notSigned.json().code).toBe('error_unsign_authorization');
      const signed = await sign(created.id);
      const unsigned = await call('POST', `${url(created.id)}/unsign`, clinic.token, {
        reason: 'El paciente pidió cambiar el tratamiento',
      });
      expect(unsigned.statusCode, unsigned.body).toBe(200);
      expect(unsigned.json()).toMatchObject({
        code: 'authorization_unsigned',
        data: {
          status: 'unsigned',
          signedAt: null,
          signatures: [
            {
              id: signed.signatures[0].id,
              sha256: signed.signatures[0].sha256,
              revokeReason: 'El paciente pidió cambiar el tratamiento',
            },
          ],
        },
      });
      expect(unsigned.json().data.signatures[0].revokedAt).toEqual(expect.any(String));
      expect(unsigned.json().data.signatures[0].revokedByName).toMatch(/^Ana Pérez/);
      const twice = await call('POST', `${url(created.id)}/unsign`, clinic.token, { reason: 'otra vez' });
      expect(twice.json().code).toBe('error_unsign_authorization');
      // Editable again, and signable again: two signatures, the newest standing.
      const version = unsigned.json().data.version as number;
      const edited = await call('PUT', url(created.id), clinic.token, {
        ...fields({ treatment: 'Exodoncia de 38 y 48' }),
        title: 'Consentimiento corregido',
        body: 'Autorizo {{treatment}}.',
        version,
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const resigned = await sign(created.id);
      expect(resigned.signatures).toHaveLength(2);
      expect(resigned.signatures[0]).toMatchObject({
        revokedAt: null,
        signedText: 'Consentimiento corregido\n\nAutorizo Exodoncia de 38 y 48.',
      });
      expect(resigned.signatures[1].revokedAt).toEqual(expect.any(String));
      // Once signed, never deleted (even unsigned again): the signed versions stay visible.
      await call('POST', `${url(created.id)}/unsign`, clinic.token, { reason: 'Se pospone' });
      const remove = await call('DELETE', url(created.id));
      expect(remove.statusCode).toBe(409);
      expect(remove.json().code).toBe('error_delete_authorization');
      const changes = await call('GET', `${url(created.id)}/changes`);
      expect(changes.json().data.map((row: { action: string }) => row.action)).toEqual([
        'authorization_unsigned',
        'authorization_signed',
        'authorization_updated',
        'authorization_unsigned',
        'authorization_signed',
        'authorization_created',
      ]);
      expect(changes.json().data[5 - 2]).toMatchObject({
        after: { reason: 'El paciente pidió cambiar el tratamiento', status: 'unsigned' },
      });
    });

    it('verify recomputes each hash: one changed byte of the stored text or image is detected', async () => {
      const created = await create();
      const signed = await sign(created.id);
      const signatureId = signed.signatures[0].id as string;
      const ok = await call('GET', `${url(created.id)}/verify`);
      expect(ok.json()).toEqual({
        data: {
          valid: true,
          signatures: [
            {
              id: signatureId,
              sha256: signed.signatures[0].sha256,
              recomputed: signed.signatures[0].sha256,
              matches: true,
              revoked: false,
            },
          ],
        },
      });
      // One character of the text changed behind the application's back (superuser connection).
      await testApp.db.orm.execute(
        sql`update authorization_signatures set signed_text = replace(signed_text, 'Extracción', 'Extracciòn') where id = ${signatureId}`,
      );
      const text = await call('GET', `${url(created.id)}/verify`);
      expect(text.json().data).toMatchObject({ valid: false, signatures: [{ matches: false }] });
      await testApp.db.orm.execute(
        sql`update authorization_signatures set signed_text = replace(signed_text, 'Extracciòn', 'Extracción') where id = ${signatureId}`,
      );
      expect((await call('GET', `${url(created.id)}/verify`)).json().data.valid).toBe(true);
      // One byte of the image flipped.
      await testApp.db.orm.execute(
        sql`update authorization_signatures set signature_image = set_byte(signature_image, 40, get_byte(signature_image, 40) # 1) where id = ${signatureId}`,
      );
      const image = await call('GET', `${url(created.id)}/verify`);
      expect(image.json().data).toMatchObject({ valid: false, signatures: [{ matches: false }] });
      expect(image.json().data.signatures[0].recomputed).not.toBe(signed.signatures[0].sha256);
    });

    it('prints a PDF: unsigned says so; signed has the signer, the hash and the image; revoked says so', async () => {
      const created = await create();
      const draft = await call('GET', `${url(created.id)}/pdf`);
      expect(draft.statusCode, draft.body).toBe(200);
      expect(draft.headers['content-type']).toBe('application/pdf');
      expect(draft.headers['content-disposition']).toBe('inline; filename="autorizacion-Ibanez-2026-03-10.pdf"');
      expect(draft.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const utf16 = (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
      expect(draft.rawPayload.includes(utf16('Consentimiento para extracción — Mónica Ibáñez'))).toBe(true);
      const signed = await sign(created.id);
      const pdf = await call('GET', `${url(created.id)}/pdf`);
      expect(pdf.statusCode).toBe(200);
      // An image XObject: the signature is in the document.
      expect(pdf.rawPayload.includes(Buffer.from('/Subtype /Image'))).toBe(true);
      expect(pdf.rawPayload.length).toBeGreaterThan(draft.rawPayload.length);
      expect(signed.signatures[0].sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(
        pdf.rawPayload.includes(utf16(`Autorización de tratamiento · SHA-256 ${signed.signatures[0].sha256}`)),
      ).toBe(true);
      await call('POST', `${url(created.id)}/unsign`, clinic.token, { reason: 'Revocada por el paciente' });
      const revoked = await call('GET', `${url(created.id)}/pdf`);
      expect(revoked.statusCode).toBe(200);
      expect((await call('GET', `${url(created.id)}/pdf`, other.token)).statusCode).toBe(404);
    });

    it('lists newest first with pagination; deletes a never-signed one softly', async () => {
      const patient = await createTestPatient(app, clinic.token);
      const old = await create(fields({ date: '2025-01-01' }), patient);
      const recent = await create(fields({ date: '2026-01-01' }), patient);
      const list = await call('GET', `${url(undefined, patient)}?pageSize=1`);
      expect(list.json()).toMatchObject({ total: 2, page: 1, pageSize: 1, data: [{ id: recent.id }] });
      const second = await call('GET', `${url(undefined, patient)}?pageSize=1&page=2`);
      expect(second.json().data[0].id).toBe(old.id);
      expect((await call('DELETE', url(old.id, patient))).json()).toEqual({ code: 'authorization_deleted' });
      expect((await call('GET', url(old.id, patient))).json().code).toBe('authorization_not_found');
      expect((await call('GET', url(undefined, patient))).json()).toMatchObject({ total: 1 });
      const { rows } = await testApp.db.orm.execute(
        sql`select deleted_at from treatment_authorizations where id = ${old.id}`,
      );
      expect(rows).toHaveLength(1);
      const events = await testApp.db.withTenant(clinic.accountId, (tx) =>
        listAuditEvents(tx, { action: 'authorization_deleted' }),
      );
      expect(events.find((row) => row.entityId === old.id)).toMatchObject({ patientId: patient });
    });

    it("answers 404 for another clinic's patient or authorization and another patient's", async () => {
      const created = await create();
      const otherPatient = await createTestPatient(app, other.token);
      expect((await call('GET', url(undefined, otherPatient))).json().code).toBe('patient_not_found');
      expect((await call('GET', url(created.id, otherPatient), other.token)).json().code).toBe(
        'authorization_not_found',
      );
      expect((await call('POST', `${url(created.id, otherPatient)}/sign`, other.token, signBody())).statusCode).toBe(
        404,
      );
      expect((await call('GET', `${url(created.id, otherPatient)}/verify`, other.token)).statusCode).toBe(404);
      const sibling = await createTestPatient(app, clinic.token);
      expect((await call('GET', url(created.id, sibling))).json().code).toBe('authorization_not_found');
      expect((await call('DELETE', url(newId()))).json().code).toBe('authorization_not_found');
      // Another clinic's template cannot be written from.
      const foreign = await call('GET', '/api/authorization-templates', other.token);
      const foreignTemplate = foreign.json().data[0].id as string;
      expect((await call('POST', url(), clinic.token, fields({ templateId: foreignTemplate }))).json().code).toBe(
        'authorization_template_not_found',
      );
    });

    it('levels: user and supervisor write and sign, a customer gets 403 everywhere', async () => {
      const created = await create();
      try {
        for (const level of ['supervisor', 'user'] as const) {
          await setLevel(testApp.db, clinic.userId, level);
          const mine = await create();
          await sign(mine.id);
          expect((await call('POST', `${url(mine.id)}/unsign`, clinic.token, { reason: 'x' })).statusCode).toBe(200);
        }
        await setLevel(testApp.db, clinic.userId, 'customer');
        expect((await call('GET', url())).statusCode).toBe(403);
        expect((await call('GET', url(created.id))).statusCode).toBe(403);
        expect((await call('POST', url(), clinic.token, fields())).statusCode).toBe(403);
        expect((await call('POST', `${url(created.id)}/sign`, clinic.token, signBody())).statusCode).toBe(403);
        expect((await call('POST', `${url(created.id)}/unsign`, clinic.token, { reason: 'x' })).statusCode).toBe(403);
        expect((await call('GET', `${url(created.id)}/verify`)).statusCode).toBe(403);
        expect((await call('GET', `${url(created.id)}/pdf`)).statusCode).toBe(403);
        expect((await call('DELETE', url(created.id))).statusCode).toBe(403);
      } finally {
        await setLevel(testApp.db, clinic.userId, 'administrator');
      }
    });
  });
});
