import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Smtp, startSmtp, stopSmtp } from '../../../test/mail.ts';
import { dataUrl, signaturePng } from '../../../test/signature-png.ts';
import { expectAnswer, expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { createMailer } from '../../lib/mail.ts';
import { signatureHash } from '../authorizations/signature.ts';
import { signingMail } from './signing.mail.ts';

/**
 * Remote signing (issue 37): send, the mail, the public link (show, sign once), expiry, resend,
 * cancel, replay, 404s across clinics, documents closed since, the chair's hash and audit.
 */
describe.each(availableBackends())('remote signing on %s', (backend) => {
  const t = useTestClinic(backend);
  let templateId: string;
  let n = 0;
  const png = signaturePng();
  const signBody = (overrides: Record<string, unknown> = {}) => ({
    signerName: 'Lucía Ferrer',
    signerIdNumber: '44.555.666',
    signature: dataUrl(png),
    ...overrides,
  });

  beforeAll(async () => {
    const template = await t.call('POST', '/api/authorization-templates', {
      body: { title: 'Consentimiento para extracción', body: 'Yo, {{patient}}, autorizo {{treatment}} en {{clinic}}.' },
    });
    expect(template.statusCode, template.body).toBe(201);
    templateId = template.json().data.id;
    const pos = await t.call('POST', '/api/points-of-sale', { body: { code: '0001', name: 'Caja', active: true } });
    expect(pos.statusCode, pos.body).toBe(201);
  });

  /** A patient with an e-mail (answers the id and the address). */
  async function patient(overrides: Record<string, unknown> = {}) {
    n += 1;
    const email = `paciente${n}@example.com`;
    const id = await t.newPatient(undefined, { firstName: 'Lucía', lastName: `Ferrer ${n}`, email, ...overrides });
    return { id, email };
  }

  async function consent(patientId: string) {
    return t.created<{ id: string; title: string; body: string }>(`/api/patients/${patientId}/authorizations`, {
      body: { templateId, date: '2026-03-10', professionalId: t.clinic.userId, treatment: 'Extracción de la 38' },
    });
  }

  async function budget(patientId: string) {
    return t.created<{ id: string }>('/api/sales', {
      body: {
        documentType: 'budget',
        patientId,
        pointOfService: '0001',
        date: '2026-03-10',
        currency: 'argentine_peso',
        issue: true,
        lines: [{ description: 'Implante', quantity: '1', unitPrice: '900', vatRate: '0', tooth: '36' }],
      },
    });
  }

  const consentUrl = (patientId: string, id: string) =>
    `/api/patients/${patientId}/authorizations/${id}/signing-request`;
  const budgetUrl = (id: string) => `/api/sales/${id}/signing-request`;
  const linkUrl = (token: string) => `/api/public/signing/${token}`;
  /** Signs what the link's page shows now (its text), with `body` over the signer's fields. */
  async function signLink(token: string, body: Record<string, unknown> = signBody(), remoteAddress = '203.0.113.7') {
    const shown = await t.call('GET', linkUrl(token), { token: null });
    const text = shown.statusCode === 200 ? shown.json().data.text : '';
    return t.call('POST', linkUrl(token), { token: null, body: { text, ...body }, remoteAddress });
  }

  it('sends a consent, mails the link in Spanish (usted), and the patient signs it once with the chair hash and audit', async () => {
    const { id: patientId, email } = await patient();
    const authorization = await consent(patientId);
    const sent = await t.call('POST', consentUrl(patientId, authorization.id));
    expectAnswer(sent, 201, {
      code: 'signing_request_sent',
      data: { kind: 'authorization', status: 'pending', sentTo: email, language: 'es', signedAt: null },
    });
    const { sentAt, expiresAt } = sent.json().data;
    expect(new Date(expiresAt).getTime() - new Date(sentAt).getTime()).toBe(7 * 24 * 3600 * 1000);

    const mail = t.mailer.lastTo(email);
    expect(mail?.subject).toContain('documento para firmar — Consentimiento para extracción');
    expect(mail?.text).toContain('Estimada Lucía:');
    expect(mail?.text).toContain('le envía «Consentimiento para extracción» para que lo lea y lo firme');
    expect(mail?.text).toMatch(/Leer y firmar: http\S+\/sign\/[A-Za-z0-9_-]{43}/);
    expect(mail?.text).toContain('El enlace sirve una sola vez');
    const token = t.mailer.tokenFor(email);
    const [sentEvent] = await t.auditEvents('signing_request_sent');
    expect(sentEvent).toMatchObject({ entity: 'signing_request', patientId, userId: t.clinic.userId });

    const text = `${authorization.title}\n\n${authorization.body}`;
    const shown = await t.call('GET', linkUrl(token), { token: null });
    expectAnswer(shown, 200, { data: { kind: 'authorization', status: 'pending', text, language: 'es' } });
    expect(shown.json().data.clinicName).toBeTruthy();

    const signed = await signLink(token);
    expectAnswer(signed, 200, { code: 'document_signed', data: { status: 'signed', text: '' } });

    const detail = (await t.call('GET', `/api/patients/${patientId}/authorizations/${authorization.id}`)).json().data;
    expect(detail.status).toBe('signed');
    expect(detail.signatures[0]).toMatchObject({
      signerName: 'Lucía Ferrer',
      signerIdNumber: '44.555.666',
      signedText: text,
      sha256: signatureHash(text, png),
    });
    const events = await t.auditEvents('authorization_signed');
    expect(events.at(-1)).toMatchObject({
      entityId: authorization.id,
      userId: t.clinic.userId,
      ip: '203.0.113.7',
      after: {
        status: 'signed',
        sha256: signatureHash(text, png),
        remote: true,
        signerIp: '203.0.113.7',
        signingRequestId: sent.json().data.id,
      },
    });

    // The staff's view sees it signed; the link works once.
    expectAnswer(await t.call('GET', consentUrl(patientId, authorization.id)), 200, {
      data: { status: 'signed', signerIp: '203.0.113.7' },
    });
    expectAnswer(await signLink(token), 409, { code: 'signing_link_stale', details: { why: 'used' } });
    expectAnswer(await t.call('GET', linkUrl(token), { token: null }), 200, { data: { status: 'signed', text: '' } });

    // At the chair, the same content and image seal the same hash.
    const twin = await consent(patientId);
    const atChair = await t.call('POST', `/api/patients/${patientId}/authorizations/${twin.id}/sign`, {
      body: signBody(),
    });
    expect(atChair.statusCode, atChair.body).toBe(200);
    expect(atChair.json().data.signatures[0].sha256).toBe(detail.signatures[0].sha256);
    expect((await t.auditEvents('authorization_signed')).at(-1)?.after).not.toHaveProperty('remote');

    // The PDF prints the remote signature as a chair's: the image, and the same hash in its metadata.
    const sealed = Buffer.from(
      `\ufeffAutorización de tratamiento · SHA-256 ${signatureHash(text, png)}`,
      'utf16le',
    ).swap16();
    for (const id of [authorization.id, twin.id]) {
      const pdf = await t.call('GET', `/api/patients/${patientId}/authorizations/${id}/pdf`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.includes(Buffer.from('/Subtype /Image'))).toBe(true);
      expect(pdf.rawPayload.includes(sealed)).toBe(true);
    }
  });

  it('sends a budget in the patient language and the signature accepts it, sealing the canonical summary', async () => {
    const { id: patientId, email } = await patient({ language: 'en', sex: 'male', firstName: 'John' });
    const { id } = await budget(patientId);
    expectAnswer(await t.call('POST', budgetUrl(id)), 201, { data: { kind: 'budget', language: 'en' } });
    const mail = t.mailer.lastTo(email);
    expect(mail?.subject).toMatch(/document to sign — Estimate 0001-\d{8}/);
    expect(mail?.text).toContain('Dear John,');
    const token = t.mailer.tokenFor(email);
    const progress = (await t.call('GET', `/api/sales/${id}/progress`)).json().data;
    expectAnswer(await t.call('GET', linkUrl(token), { token: null }), 200, {
      data: { kind: 'budget', text: progress.textToSign, language: 'en' },
    });
    expect(progress.textToSign).toContain('I accept the estimate');

    expectAnswer(await signLink(token, signBody({ signerName: 'John Ferrer' })), 200, { code: 'document_signed' });
    const decided = (await t.call('GET', `/api/sales/${id}/progress`)).json().data.decision;
    expect(decided).toMatchObject({
      decision: 'accepted',
      signerName: 'John Ferrer',
      signedText: progress.textToSign,
      sha256: signatureHash(progress.textToSign, png),
    });
    expect((await t.auditEvents('budget_accepted')).at(-1)).toMatchObject({
      entityId: id,
      ip: '203.0.113.7',
      after: { signed: true, remote: true, signerIp: '203.0.113.7' },
    });
    expectAnswer(await t.call('GET', budgetUrl(id)), 200, { data: { status: 'signed' } });
    // Answered: no new request.
    expectAnswer(await t.call('POST', budgetUrl(id)), 409, { code: 'budget_already_decided' });
  });

  it('expires after its days; a new send closes the expired one and its link works', async () => {
    const { id: patientId, email } = await patient();
    const authorization = await consent(patientId);
    await t.call('POST', consentUrl(patientId, authorization.id));
    const token = t.mailer.tokenFor(email);
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute(sql`update signing_requests set expires_at = now() - interval '1 minute'
                     where authorization_id = ${authorization.id}::uuid`),
    );
    expectAnswer(await t.call('GET', linkUrl(token), { token: null }), 200, { data: { status: 'expired', text: '' } });
    expectAnswer(await signLink(token), 409, { code: 'signing_link_stale', details: { why: 'expired' } });
    expectAnswer(await t.call('GET', consentUrl(patientId, authorization.id)), 200, { data: { status: 'expired' } });

    expectAnswer(await t.call('POST', consentUrl(patientId, authorization.id)), 201, { data: { status: 'pending' } });
    const fresh = t.mailer.tokenFor(email);
    expect(fresh).not.toBe(token);
    expectAnswer(await signLink(token), 409, { code: 'signing_link_stale', details: { why: 'expired' } });
    expectAnswer(await signLink(fresh), 200, { code: 'document_signed' });
  });

  it('resends with a new link (the old one stops working) and cancels; a cancelled link signs nothing', async () => {
    const { id: patientId, email } = await patient();
    const authorization = await consent(patientId);
    const url = consentUrl(patientId, authorization.id);
    expectAnswer(await t.call('POST', `${url}/resend`), 409, { code: 'signing_request_not_pending' });
    await t.call('POST', url);
    expectAnswer(await t.call('POST', url), 409, { code: 'signing_request_pending' });
    const first = t.mailer.tokenFor(email);
    expectAnswer(await t.call('POST', `${url}/resend`), 200, { code: 'signing_request_sent' });
    const second = t.mailer.tokenFor(email);
    expect(second).not.toBe(first);
    expectAnswer(await t.call('GET', linkUrl(first), { token: null }), 404, { code: 'signing_link_not_found' });
    expect(await t.auditEvents('signing_request_resent')).not.toHaveLength(0);

    expectAnswer(await t.call('POST', `${url}/cancel`), 200, {
      code: 'signing_request_cancelled',
      data: { status: 'cancelled' },
    });
    expectAnswer(await signLink(second), 409, { code: 'signing_link_stale', details: { why: 'cancelled' } });
    expectAnswer(await t.call('POST', `${url}/cancel`), 409, { code: 'signing_request_not_pending' });
    expect((await t.auditEvents('signing_request_cancelled')).at(-1)).toMatchObject({ entityId: expect.any(String) });
    const detail = (await t.call('GET', `/api/patients/${patientId}/authorizations/${authorization.id}`)).json().data;
    expect(detail.status).toBe('unsigned');
  });

  it("answers 404 for a wrong token and for another clinic's document; 409 for a document signed or answered since", async () => {
    expectAnswer(await t.call('GET', linkUrl('x'.repeat(43)), { token: null }), 404, {
      code: 'signing_link_not_found',
    });
    expectAnswer(await signLink('y'.repeat(43)), 404, { code: 'signing_link_not_found' });

    const { id: patientId, email } = await patient();
    const authorization = await consent(patientId);
    const url = consentUrl(patientId, authorization.id);
    expectAnswer(await t.call('GET', url, { token: t.other.token }), 404, { code: 'patient_not_found' });
    expectAnswer(await t.call('POST', url, { token: t.other.token }), 404, { code: 'patient_not_found' });
    const { id: budgetId } = await budget(patientId);
    expectAnswer(await t.call('POST', budgetUrl(budgetId), { token: t.other.token }), 404, {
      code: 'sale_not_found',
    });

    // Signed at the chair after it was sent.
    await t.call('POST', url);
    const token = t.mailer.tokenFor(email);
    const chair = await t.call('POST', `/api/patients/${patientId}/authorizations/${authorization.id}/sign`, {
      body: signBody(),
    });
    expect(chair.statusCode, chair.body).toBe(200);
    expectAnswer(await t.call('GET', linkUrl(token), { token: null }), 409, {
      code: 'signing_document_closed',
      details: { why: 'signed' },
    });
    expectAnswer(await signLink(token), 409, { code: 'signing_document_closed', details: { why: 'signed' } });
    expectAnswer(await t.call('POST', url), 409, { code: 'error_sign_authorization' });

    // A budget rejected at the desk after it was sent.
    await t.call('POST', budgetUrl(budgetId));
    const budgetToken = t.mailer.tokenFor(email);
    const rejected = await t.call('POST', `/api/sales/${budgetId}/decision`, { body: { decision: 'rejected' } });
    expect(rejected.statusCode, rejected.body).toBe(201);
    expectAnswer(await signLink(budgetToken), 409, { code: 'signing_document_closed', details: { why: 'answered' } });
  });

  it('closes the pending request at once when the consent or the budget is signed at the chair (audited); its link says signed', async () => {
    const { id: patientId, email } = await patient();
    /** The request's own row, as stored (not as read through the view). */
    const stored = async (column: 'authorization_id' | 'sale_id', documentId: string) =>
      (
        await t.db.withTenant(t.clinic.accountId, (tx) =>
          tx.execute<{ id: string; status: string; cancelled_by: string | null }>(
            sql`select id, status, cancelled_by from signing_requests where ${sql.identifier(column)} = ${documentId}::uuid`,
          ),
        )
      ).rows;
    const superseded = async (requestId: string) =>
      (await t.auditEvents('signing_request_superseded')).find((event) => event.entityId === requestId);

    // A consent.
    const authorization = await consent(patientId);
    const url = consentUrl(patientId, authorization.id);
    expectAnswer(await t.call('POST', url), 201, { data: { status: 'pending' } });
    const token = t.mailer.tokenFor(email);
    const chair = await t.call('POST', `/api/patients/${patientId}/authorizations/${authorization.id}/sign`, {
      body: signBody(),
    });
    expect(chair.statusCode, chair.body).toBe(200);
    const [request] = await stored('authorization_id', authorization.id);
    expect(request).toMatchObject({ status: 'cancelled', cancelled_by: t.clinic.userId });
    expectAnswer(await t.call('GET', url), 200, { data: { status: 'cancelled', cancelledAt: expect.any(String) } });
    expect(await superseded(request?.id as string)).toMatchObject({
      entity: 'signing_request',
      patientId,
      userId: t.clinic.userId,
      before: { status: 'pending' },
      after: { status: 'cancelled', why: 'signed', documentId: authorization.id },
    });
    const closed = { code: 'signing_document_closed', details: { why: 'signed' } };
    expectAnswer(await t.call('GET', linkUrl(token), { token: null }), 409, closed);
    expectAnswer(await signLink(token), 409, closed);
    const detail = (await t.call('GET', `/api/patients/${patientId}/authorizations/${authorization.id}`)).json().data;
    expect(detail.signatures).toHaveLength(1);

    // A budget signed at the chair.
    const { id: signedBudget } = await budget(patientId);
    await t.call('POST', budgetUrl(signedBudget));
    const budgetToken = t.mailer.tokenFor(email);
    const accepted = await t.call('POST', `/api/sales/${signedBudget}/decision`, {
      body: {
        decision: 'accepted',
        signature: { image: dataUrl(png), signerName: 'Lucía Ferrer', signerIdNumber: '44.555.666' },
      },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const [budgetRequest] = await stored('sale_id', signedBudget);
    expect(budgetRequest?.status).toBe('cancelled');
    expect((await superseded(budgetRequest?.id as string))?.after).toMatchObject({ why: 'signed' });
    expectAnswer(await t.call('GET', linkUrl(budgetToken), { token: null }), 409, closed);
    expectAnswer(await signLink(budgetToken), 409, closed);

    // A budget answered at the desk without a signature.
    const { id: answeredBudget } = await budget(patientId);
    await t.call('POST', budgetUrl(answeredBudget));
    const answeredToken = t.mailer.tokenFor(email);
    const rejected = await t.call('POST', `/api/sales/${answeredBudget}/decision`, { body: { decision: 'rejected' } });
    expect(rejected.statusCode, rejected.body).toBe(201);
    const [answeredRequest] = await stored('sale_id', answeredBudget);
    expect(answeredRequest?.status).toBe('cancelled');
    expect((await superseded(answeredRequest?.id as string))?.after).toMatchObject({ why: 'answered' });
    expectAnswer(await signLink(answeredToken), 409, { code: 'signing_document_closed', details: { why: 'answered' } });

    // A request the staff cancelled, of a document still open, still says it was cancelled.
    const open = await consent(patientId);
    await t.call('POST', consentUrl(patientId, open.id));
    const cancelledToken = t.mailer.tokenFor(email);
    await t.call('POST', `${consentUrl(patientId, open.id)}/cancel`);
    expectAnswer(await t.call('GET', linkUrl(cancelledToken), { token: null }), 200, { data: { status: 'cancelled' } });
    expectAnswer(await signLink(cancelledToken), 409, { code: 'signing_link_stale', details: { why: 'cancelled' } });
  });

  it('signs nothing when the consent was edited after the page showed it (409 signing_document_changed)', async () => {
    const { id: patientId, email } = await patient();
    const authorization = await consent(patientId);
    await t.call('POST', consentUrl(patientId, authorization.id));
    const token = t.mailer.tokenFor(email);
    const seen = (await t.call('GET', linkUrl(token), { token: null })).json().data.text as string;
    const current = (await t.call('GET', `/api/patients/${patientId}/authorizations/${authorization.id}`)).json().data;
    const edited = await t.call('PUT', `/api/patients/${patientId}/authorizations/${authorization.id}`, {
      body: {
        version: current.version,
        date: current.date,
        professionalId: current.professionalId,
        title: current.title,
        treatment: current.treatment,
        body: `${current.body} Añadido después.`,
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const stale = await t.call('POST', linkUrl(token), {
      token: null,
      body: { text: seen, ...signBody() },
    });
    expectAnswer(stale, 409, { code: 'signing_document_changed' });
    expectAnswer(await t.call('GET', consentUrl(patientId, authorization.id)), 200, { data: { status: 'pending' } });
    // Read again, signed.
    expectAnswer(await signLink(token), 200, { code: 'document_signed' });
  });

  it('refuses a blank pad or a missing name (400 on the field) and keeps the link usable; needs an e-mail', async () => {
    const { id: patientId, email } = await patient();
    const authorization = await consent(patientId);
    await t.call('POST', consentUrl(patientId, authorization.id));
    const token = t.mailer.tokenFor(email);
    expectFieldErrors(await signLink(token, signBody({ signature: dataUrl(signaturePng(400, 150, false)) })), [
      { path: 'signature', code: 'required' },
    ]);
    expectFieldErrors(await signLink(token, signBody({ signerName: ' ' })), [{ path: 'signerName', code: 'required' }]);
    expectAnswer(await signLink(token), 200, { code: 'document_signed' });

    const { id: noMail } = await patient({ email: null });
    const other = await consent(noMail);
    expectAnswer(await t.call('POST', consentUrl(noMail, other.id)), 409, { code: 'patient_without_email' });
  });

  it('lets only who signs at the chair send (clinical.write for a consent, commercial.write for a budget)', async () => {
    const { id: patientId } = await patient();
    const authorization = await consent(patientId);
    const { id: budgetId } = await budget(patientId);
    await t.asLevel('customer', async () => {
      expect((await t.call('POST', consentUrl(patientId, authorization.id))).statusCode).toBe(403);
      expect((await t.call('GET', consentUrl(patientId, authorization.id))).statusCode).toBe(403);
      expect((await t.call('POST', budgetUrl(budgetId))).statusCode).toBe(403);
    });
  });

  it('keeps each clinic to its requests (row-level security)', async () => {
    const rows = await t.db.withTenant(t.other.accountId, (tx) =>
      tx.execute(sql`select count(*)::int as count from signing_requests`),
    );
    expect((rows as unknown as { rows: { count: number }[] }).rows[0]?.count).toBe(0);
  });
});

describe('signing mail over SMTP', () => {
  let smtp: Smtp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await stopSmtp(smtp);
  });

  it('leaves with the link as X-Odontia-Link and in the text', async () => {
    const silent = { info: () => undefined } as unknown as Parameters<typeof createMailer>[0]['log'];
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/tmp', from: 'clinica@example.com', log: silent });
    const link = 'https://odontia.example/sign/abc123';
    await mailer.send(
      signingMail({
        language: 'fr',
        to: 'patient@example.com',
        firstName: 'Claire',
        sex: 'female',
        clinicName: 'Clinique',
        clinicColor: '#0f766e',
        title: 'Devis 0001-00000001',
        expiresAt: new Date('2026-03-17T10:00:00Z'),
        timeZone: 'Europe/Paris',
        link,
      }),
    );
    const raw = smtp.received.find((message) => message.to.includes('patient@example.com'))?.raw ?? '';
    expect(raw).toContain(`X-Odontia-Link: ${link}`);
    expect(raw).toContain('Lire et signer');
  });
});
