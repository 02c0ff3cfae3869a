import { authorizationRoutes, authorizationTemplateRoutes } from '@odontia/shared/routes/authorizations';
import { sql } from 'drizzle-orm';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { patientRecordApi, type WrittenRecord } from '../../../test/patient-record-api.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { declaredCollection, describeRecordContract } from '../../../test/record-contract.ts';
import { dataUrl, signaturePng } from '../../../test/signature-png.ts';
import { expectAnswer, expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { signatureHash } from './signature.ts';

/** Treatment authorizations and templates: placeholders, edit/sign/unsign/delete rules, hash check, PNG checks, isolation, levels, audit (issue 6). */
describe.each(availableBackends())('treatment authorizations on %s', (backend) => {
  const t = useTestClinic(backend, { patient: { firstName: 'Mónica', lastName: 'Ibáñez', ssn: '28.111.222' } });
  let templateId: string;
  const templateBody =
    'Yo, {{patient}} (DNI {{idNumber}}), autorizo a {{professional}} de {{clinic}} a realizar: {{treatment}}. ' +
    'Riesgos: {{ risks }}. Alternativas: {{alternatives}}. Costo: {{cost}}. Fecha: {{date}}.';
  const fields = (overrides: Record<string, unknown> = {}) => ({
    templateId,
    date: '2026-03-10',
    professionalId: t.clinic.userId,
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
  const { url, create, contract } = patientRecordApi<WrittenRecord & { body: string }>(
    t,
    { name: 'authorization', routes: authorizationRoutes },
    () => fields(),
  );
  async function sign(id: string, patient = t.patientId, body = signBody()) {
    const response = await t.call('POST', `${url(id, patient)}/sign`, { body });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  }

  beforeAll(async () => {
    const template = await t.call('POST', '/api/authorization-templates', {
      body: {
        title: 'Consentimiento para extracción',
        body: templateBody,
      },
    });
    expect(template.statusCode, template.body).toBe(201);
    templateId = template.json().data.id;
  });

  describe('templates', () => {
    describeRecordContract(t, {
      entity: 'authorization_template',
      ...declaredCollection(authorizationTemplateRoutes.list),
      table: 'authorization_templates',
      body: () => ({ title: 'Blanqueamiento', body: 'Autorizo {{treatment}}.' }),
      update: {
        body: () => ({ title: 'Blanqueamiento dental', body: 'Autorizo {{treatment}} por {{cost}}.' }),
        stale: () => ({ title: 'X', body: 'Y' }),
      },
      history: { before: { title: 'Blanqueamiento' }, after: { title: 'Blanqueamiento dental' } },
      softDelete: { auditBefore: { title: 'Blanqueamiento' } },
      permissions: { read: 'patients.read', write: 'settings.manage', history: 'settings.manage' },
    });

    it('gives a new clinic a default consent template and one certificate template per kind, in its language', async () => {
      const list = await t.call('GET', '/api/authorization-templates?kind=consent&active=true', {
        token: t.other.token,
      });
      expectAnswer(list, 200, {
        total: 1,
        data: [{ kind: 'consent', title: 'Consentimiento informado para tratamiento odontológico', active: true }],
      });
      const all = await t.call('GET', '/api/authorization-templates', { token: t.other.token });
      expect(
        all
          .json()
          .data.map((row: { kind: string }) => row.kind)
          .sort(),
      ).toEqual(['attendance', 'consent', 'fitness', 'free', 'rest']);
      const rest = await t.call('GET', '/api/authorization-templates?kind=rest', { token: t.other.token });
      expect(rest.json()).toMatchObject({ total: 1, data: [{ kind: 'rest', title: 'Certificado de reposo' }] });
      expect(rest.json().data[0].body).toContain('{{days}}');
    });

    it("keeps certificate templates apart: their kind's placeholders, not in consent lists, not to write an authorization from", async () => {
      const created = await t.call('POST', '/api/authorization-templates', {
        body: {
          kind: 'fitness',
          title: 'Apto deportivo',
          body: 'Certifico que {{patient}} es apto/a para {{activity}}.',
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data).toMatchObject({ kind: 'fitness', title: 'Apto deportivo' });
      const id = created.json().data.id as string;
      // Each kind knows its placeholders: {{treatment}} is not a certificate's, {{activity}} not a consent's.
      for (const body of [
        { kind: 'rest', title: 'X', body: 'Reposo por {{treatment}}.' },
        { title: 'X', body: 'Apto para {{activity}}.' },
      ]) {
        const bad = await t.call('POST', '/api/authorization-templates', { body });
        expect(bad.json().details.fields).toEqual([{ path: 'body', code: 'unknown_placeholder' }]);
      }
      const bogusKind = await t.call('POST', '/api/authorization-templates', {
        body: { kind: 'recipe', title: 'X', body: 'Y' },
      });
      expect(bogusKind.json().details.fields).toEqual([{ path: 'kind', code: 'invalid_value' }]);
      const consent = await t.call('GET', '/api/authorization-templates?kind=consent&pageSize=100');
      expect(consent.json().data.every((row: { kind: string }) => row.kind === 'consent')).toBe(true);
      expect(consent.json().data.some((row: { id: string }) => row.id === id)).toBe(false);
      const fitness = await t.call('GET', '/api/authorization-templates?kind=fitness&q=deportivo');
      expect(fitness.json()).toMatchObject({ total: 1, data: [{ id }] });
      expect((await t.call('GET', '/api/authorization-templates?kind=nope')).statusCode).toBe(400);
      // Not an informed consent: writing an authorization from it is 404, as a missing template.
      const fromCertificate = await t.call('POST', url(), { body: fields({ templateId: id }) });
      expect(fromCertificate.json().code).toBe('authorization_template_not_found');
      // Another clinic's certificate template is 404 too.
      const foreign = await t.call('GET', `/api/authorization-templates/${id}`, { token: t.other.token });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().code).toBe('authorization_template_not_found');
      const foreignEdit = await t.call('PUT', `/api/authorization-templates/${id}`, {
        token: t.other.token,
        body: { kind: 'fitness', title: 'Y', body: 'Z', version: 1 },
      });
      expect(foreignEdit.statusCode).toBe(404);
    });

    it('refuses unknown placeholders with a field error and keeps known ones with spaces', async () => {
      const bad = await t.call('POST', '/api/authorization-templates', {
        body: {
          title: 'Malo',
          body: 'Yo, {{patient}}, pago {{precio}} y {{ dni }}.',
        },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details.fields).toEqual([{ path: 'body', code: 'unknown_placeholder' }]);
      const empty = await t.call('POST', '/api/authorization-templates', { body: { title: '', body: '' } });
      expectFieldErrors(empty, [
        { path: 'title', code: 'required' },
        { path: 'body', code: 'required' },
      ]);
    });

    it('edits with the version (409 when stale), deactivates, deletes softly, audits each step', async () => {
      const created = await t.call('POST', '/api/authorization-templates', {
        body: {
          title: 'Blanqueamiento',
          body: 'Autorizo {{treatment}}.',
        },
      });
      const id = created.json().data.id as string;
      const edited = await t.call('PUT', `/api/authorization-templates/${id}`, {
        body: {
          title: 'Blanqueamiento dental',
          body: 'Autorizo {{treatment}} por {{cost}}.',
          active: false,
          version: 1,
        },
      });
      expect(edited.json()).toMatchObject({
        code: 'authorization_template_updated',
        data: { title: 'Blanqueamiento dental', active: false, version: 2 },
      });
      const stale = await t.call('PUT', `/api/authorization-templates/${id}`, {
        body: {
          title: 'X',
          body: 'Y',
          version: 1,
        },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: 'version_conflict', details: { current: { version: 2 } } });
      const active = await t.call('GET', '/api/authorization-templates?active=true');
      expect(active.json().data.map((row: { id: string }) => row.id)).not.toContain(id);
      // An inactive template cannot be written from.
      const fromInactive = await t.call('POST', url(), { body: fields({ templateId: id }) });
      expect(fromInactive.json().details.fields).toEqual([{ path: 'templateId', code: 'invalid_value' }]);
      const changes = await t.call('GET', `/api/authorization-templates/${id}/changes`);
      expect(changes.json().data.map((row: { action: string }) => row.action)).toEqual([
        'authorization_template_updated',
        'authorization_template_created',
      ]);
      expect((await t.call('DELETE', `/api/authorization-templates/${id}`)).json()).toEqual({
        code: 'authorization_template_deleted',
      });
      expect((await t.call('GET', `/api/authorization-templates/${id}`)).json().code).toBe(
        'authorization_template_not_found',
      );
      expect((await t.call('POST', url(), { body: fields({ templateId: id }) })).json().code).toBe(
        'authorization_template_not_found',
      );
      const deleted = await t.auditEvents('authorization_template_deleted');
      expect(deleted.find((row) => row.entityId === id)).toMatchObject({ entity: 'authorization_template' });
      const { rows } = await t.db.orm.execute(sql`select deleted_at from authorization_templates where id = ${id}`);
      expect(rows).toHaveLength(1);
    });
  });

  describe('authorizations', () => {
    describeRecordContract(t, {
      ...contract,
      table: 'treatment_authorizations',
      update: {
        body: () => ({
          ...fields({ treatment: 'Extracción de la pieza 48' }),
          title: 'Consentimiento — pieza 48',
          body: 'Texto revisado para {{patient}}: {{treatment}}.',
        }),
        shows: { title: 'Consentimiento — pieza 48', treatment: 'Extracción de la pieza 48' },
        stale: () => ({ ...fields(), title: 'x', body: 'y' }),
      },
      history: { before: { title: 'Consentimiento para extracción' }, after: { title: 'Consentimiento — pieza 48' } },
      softDelete: { auditBefore: { treatment: 'Extracción de la pieza 38' } },
    });

    it('writes one from a template: placeholders filled, cost in the clinic currency, audited', async () => {
      const response = await t.call('POST', url(), { body: fields() });
      expect(response.statusCode, response.body).toBe(201);
      const { code, data } = response.json();
      expect(code).toBe('authorization_created');
      expect(data).toMatchObject({
        patientId: t.patientId,
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
      const events = await t.auditEvents('authorization_created');
      expect(events.find((row) => row.entityId === data.id)).toMatchObject({
        entity: 'authorization',
        patientId: t.patientId,
      });
    });

    it('validates the fields; unknown placeholders in an edited body are refused', async () => {
      const bad = await t.call('POST', url(), { body: fields({ treatment: '', costEstimate: '-3', templateId: 'x' }) });
      expectFieldErrors(bad, [
        { path: 'treatment', code: 'required' },
        { path: 'costEstimate', code: 'not_negative' },
        { path: 'templateId', code: 'invalid_value' },
      ]);
      const stranger = await t.call('POST', url(), { body: fields({ professionalId: t.other.userId }) });
      expect(stranger.json().details.fields).toEqual([{ path: 'professionalId', code: 'invalid_value' }]);
      const created = await create();
      const edit = await t.call('PUT', url(created.id), {
        body: {
          ...fields(),
          title: 'T',
          body: 'Texto con {{firma}}',
          version: 1,
        },
      });
      expect(edit.json().details.fields).toEqual([{ path: 'body', code: 'unknown_placeholder' }]);
    });

    it('edits while unsigned (placeholders in the edited body filled again), 409 version_conflict when stale', async () => {
      const created = await create();
      const edited = await t.call('PUT', url(created.id), {
        body: {
          ...fields({ costEstimate: '90000', treatment: 'Extracción de la pieza 48' }),
          title: 'Consentimiento — pieza 48',
          body: 'Texto revisado para {{patient}}: {{treatment}} por {{cost}}.',
          version: 1,
        },
      });
      expectAnswer(edited, 200, {
        code: 'authorization_updated',
        data: { title: 'Consentimiento — pieza 48', treatment: 'Extracción de la pieza 48', version: 2 },
      });
      expect(edited.json().data.body).toMatch(
        /^Texto revisado para Mónica Ibáñez: Extracción de la pieza 48 por \$\s90\.000,00\.$/,
      );
      const stale = await t.call('PUT', url(created.id), {
        body: {
          ...fields(),
          title: 'x',
          body: 'y',
          version: 1,
        },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: 'version_conflict', details: { current: { version: 2 } } });
      const changes = await t.call('GET', `${url(created.id)}/changes`);
      expect(changes.json().data[0]).toMatchObject({
        action: 'authorization_updated',
        before: { title: 'Consentimiento para extracción', costEstimate: '150000.50' },
        after: { title: 'Consentimiento — pieza 48', costEstimate: '90000.00' },
      });
    });

    it('signs: stores the text as signed, the PNG, signer, collector and SHA-256(text ‖ 0x00 ‖ PNG); then no edit, no delete, no second sign', async () => {
      const created = await create();
      const png = signaturePng();
      const signed = await sign(created.id, t.patientId, signBody({ signature: png.toString('base64') }));
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
      const edit = await t.call('PUT', url(created.id), { body: { ...fields(), title: 'x', body: 'y', version: 2 } });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().code).toBe('authorization_is_signed');
      const again = await t.call('POST', `${url(created.id)}/sign`, { body: signBody() });
      expect(again.json().code).toBe('error_sign_authorization');
      expect(again.statusCode).toBe(409);
      const remove = await t.call('DELETE', url(created.id));
      expect(remove.statusCode).toBe(409);
      expect(remove.json().code).toBe('authorization_is_signed');
      const list = await t.call('GET', `${url()}?status=signed`);
      expect(list.json().data.map((row: { id: string }) => row.id)).toContain(created.id);
      const unsignedList = await t.call('GET', `${url()}?status=unsigned`);
      expect(unsignedList.json().data.map((row: { id: string }) => row.id)).not.toContain(created.id);
    });

    it('checks the signature image: a real PNG by its bytes, bounded size and dimensions, not blank', async () => {
      const created = await create();
      const refused = async (signature: string) => {
        const response = await t.call('POST', `${url(created.id)}/sign`, { body: signBody({ signature }) });
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
      const noName = await t.call('POST', `${url(created.id)}/sign`, {
        body: signBody({ signerName: ' ', signerIdNumber: '' }),
      });
      expectFieldErrors(noName, [
        { path: 'signerName', code: 'required' },
        { path: 'signerIdNumber', code: 'required' },
      ]);
      // Nothing was signed.
      expect((await t.call('GET', url(created.id))).json().data).toMatchObject({ status: 'unsigned', signatures: [] });
    });

    it('unsigns with a reason: the signature stays, revoked; edit works again; a second unsign answers 409', async () => {
      const created = await create();
      const noReason = await t.call('POST', `${url(created.id)}/unsign`, { body: { reason: '' } });
      expect(noReason.json().details.fields).toEqual([{ path: 'reason', code: 'required' }]);
      const notSigned = await t.call('POST', `${url(created.id)}/unsign`, { body: { reason: 'x' } });
      expect(notSigned.statusCode).toBe(409);
      expect(notSigned.json().code).toBe('error_unsign_authorization');
      const signed = await sign(created.id);
      const unsigned = await t.call('POST', `${url(created.id)}/unsign`, {
        body: {
          reason: 'El paciente pidió cambiar el tratamiento',
        },
      });
      expectAnswer(unsigned, 200, {
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
      // Revoked is not "never signed": the record and the list say when and by whom.
      expect(unsigned.json().data.revokedAt).toEqual(unsigned.json().data.signatures[0].revokedAt);
      expect(unsigned.json().data.revokedByName).toMatch(/^Ana Pérez/);
      const listed = (await t.call('GET', url())).json().data.find((row: { id: string }) => row.id === created.id);
      expect(listed).toMatchObject({
        status: 'unsigned',
        revokedAt: expect.any(String),
        revokedByName: expect.any(String),
      });
      const fresh = await create();
      const never = (await t.call('GET', url())).json().data.find((row: { id: string }) => row.id === fresh.id);
      expect(never).toMatchObject({ status: 'unsigned', revokedAt: null, revokedByName: null });
      const twice = await t.call('POST', `${url(created.id)}/unsign`, { body: { reason: 'otra vez' } });
      expect(twice.json().code).toBe('error_unsign_authorization');
      // Editable again, and signable again: two signatures, the newest standing.
      const version = unsigned.json().data.version as number;
      const edited = await t.call('PUT', url(created.id), {
        body: {
          ...fields({ treatment: 'Exodoncia de 38 y 48' }),
          title: 'Consentimiento corregido',
          body: 'Autorizo {{treatment}}.',
          version,
        },
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
      await t.call('POST', `${url(created.id)}/unsign`, { body: { reason: 'Se pospone' } });
      const remove = await t.call('DELETE', url(created.id));
      expect(remove.statusCode).toBe(409);
      expect(remove.json().code).toBe('error_delete_authorization');
      const changes = await t.call('GET', `${url(created.id)}/changes`);
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
      const ok = await t.call('GET', `${url(created.id)}/verify`);
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
      await t.db.orm.execute(
        sql`update authorization_signatures set signed_text = replace(signed_text, 'Extracción', 'Extracciòn') where id = ${signatureId}`,
      );
      const text = await t.call('GET', `${url(created.id)}/verify`);
      expect(text.json().data).toMatchObject({ valid: false, signatures: [{ matches: false }] });
      await t.db.orm.execute(
        sql`update authorization_signatures set signed_text = replace(signed_text, 'Extracciòn', 'Extracción') where id = ${signatureId}`,
      );
      expect((await t.call('GET', `${url(created.id)}/verify`)).json().data.valid).toBe(true);
      // One byte of the image flipped.
      await t.db.orm.execute(
        sql`update authorization_signatures set signature_image = set_byte(signature_image, 40, get_byte(signature_image, 40) # 1) where id = ${signatureId}`,
      );
      const image = await t.call('GET', `${url(created.id)}/verify`);
      expect(image.json().data).toMatchObject({ valid: false, signatures: [{ matches: false }] });
      expect(image.json().data.signatures[0].recomputed).not.toBe(signed.signatures[0].sha256);
    });

    it('prints a PDF: unsigned says so; signed has the signer, the hash and the image; revoked says so', async () => {
      const created = await create();
      const draft = await t.call('GET', `${url(created.id)}/pdf`);
      expect(draft.statusCode, draft.body).toBe(200);
      expect(draft.headers['content-type']).toBe('application/pdf');
      expect(draft.headers['content-disposition']).toBe('inline; filename="autorizacion-Ibanez-2026-03-10.pdf"');
      expect(draft.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const utf16 = (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
      expect(draft.rawPayload.includes(utf16('Consentimiento para extracción — Mónica Ibáñez'))).toBe(true);
      const signed = await sign(created.id);
      const pdf = await t.call('GET', `${url(created.id)}/pdf`);
      expect(pdf.statusCode).toBe(200);
      // An image XObject: the signature is in the document.
      expect(pdf.rawPayload.includes(Buffer.from('/Subtype /Image'))).toBe(true);
      expect(pdf.rawPayload.length).toBeGreaterThan(draft.rawPayload.length);
      expect(signed.signatures[0].sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(
        pdf.rawPayload.includes(utf16(`Autorización de tratamiento · SHA-256 ${signed.signatures[0].sha256}`)),
      ).toBe(true);
      await t.call('POST', `${url(created.id)}/unsign`, { body: { reason: 'Revocada por el paciente' } });
      const revoked = await t.call('GET', `${url(created.id)}/pdf`);
      expect(revoked.statusCode).toBe(200);
      // Revoked, said above the text and in the metadata: neither a draft never signed nor a valid consent.
      const printed = pdfText(revoked.rawPayload);
      expect(printed).not.toContain('SIN FIRMAR');
      expect(printed).toMatch(/REVOCADA — la firma ya no vale como consentimiento \(.+, Ana Pérez/);
      expect(printed.indexOf('REVOCADA — la firma')).toBeLessThan(printed.indexOf('FIRMA REVOCADA'));
      expect(
        revoked.rawPayload.includes(utf16(`Autorización de tratamiento · SHA-256 ${signed.signatures[0].sha256}`)),
      ).toBe(false);
      expect(revoked.rawPayload.includes(utf16('Autorización de tratamiento · FIRMA REVOCADA'))).toBe(true);
      expect((await t.call('GET', `${url(created.id)}/pdf`, { token: t.other.token })).statusCode).toBe(404);
    });

    it('lists newest first with pagination; deletes a never-signed one softly', async () => {
      const patient = await t.newPatient();
      const old = await create(fields({ date: '2025-01-01' }), patient);
      const recent = await create(fields({ date: '2026-01-01' }), patient);
      const list = await t.call('GET', `${url(undefined, patient)}?pageSize=1`);
      expect(list.json()).toMatchObject({ total: 2, page: 1, pageSize: 1, data: [{ id: recent.id }] });
      const second = await t.call('GET', `${url(undefined, patient)}?pageSize=1&page=2`);
      expect(second.json().data[0].id).toBe(old.id);
      expect((await t.call('DELETE', url(old.id, patient))).json()).toEqual({ code: 'authorization_deleted' });
      expect((await t.call('GET', url(undefined, patient))).json()).toMatchObject({ total: 1 });
      const events = await t.auditEvents('authorization_deleted');
      expect(events.find((row) => row.entityId === old.id)).toMatchObject({ patientId: patient });
    });

    it("answers 404 to sign or verify another clinic's authorization; another clinic's template cannot be written from", async () => {
      const created = await create();
      const otherPatient = await t.newPatient(t.other.token);
      expect(
        (await t.call('POST', `${url(created.id, otherPatient)}/sign`, { token: t.other.token, body: signBody() }))
          .statusCode,
      ).toBe(404);
      expect(
        (await t.call('GET', `${url(created.id, otherPatient)}/verify`, { token: t.other.token })).statusCode,
      ).toBe(404);
      const foreign = await t.call('GET', '/api/authorization-templates', { token: t.other.token });
      const foreignTemplate = foreign.json().data[0].id as string;
      expect((await t.call('POST', url(), { body: fields({ templateId: foreignTemplate }) })).json().code).toBe(
        'authorization_template_not_found',
      );
    });

    it('levels: user and supervisor sign and unsign, a customer gets 403 on sign, unsign, verify and the PDF', async () => {
      const created = await create();
      for (const level of ['supervisor', 'user'] as const) {
        await t.asLevel(level, async () => {
          const mine = await create();
          await sign(mine.id);
          expect((await t.call('POST', `${url(mine.id)}/unsign`, { body: { reason: 'x' } })).statusCode).toBe(200);
        });
      }
      await t.asLevel('customer', async () => {
        expect((await t.call('POST', `${url(created.id)}/sign`, { body: signBody() })).statusCode).toBe(403);
        expect((await t.call('POST', `${url(created.id)}/unsign`, { body: { reason: 'x' } })).statusCode).toBe(403);
        expect((await t.call('GET', `${url(created.id)}/verify`)).statusCode).toBe(403);
        expect((await t.call('GET', `${url(created.id)}/pdf`)).statusCode).toBe(403);
      });
    });
  });
});
