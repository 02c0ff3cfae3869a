import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import { bearer, createTestClinic, type TestClinic } from '../../../test/clinics.ts';
import { MemoryMailer, type Smtp, startSmtp, stopSmtp } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { type TestClinicContext, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { createMailer, type Mailer, type MailMessage } from '../../lib/mail.ts';

/**
 * A patient's portal access (issue 37): the staff's invitation, the one-time link (expires, works
 * once), the first password and the normal sign-in, revoking, and the public request (the same
 * answer either way, throttled).
 */

let counter = 0;
const uniqueEmail = () => {
  counter += 1;
  return `paciente.${Date.now().toString(36)}.${counter}@example.com`;
};

async function invite(t: TestClinicContext, patientId: string, token = t.clinic.token) {
  return t.call('POST', `/api/patients/${patientId}/portal-access`, { token });
}

async function openLink(t: TestClinicContext, linkToken: string) {
  return t.call('POST', `/api/public/portal-links/${linkToken}`, { token: null });
}

/** A patient in the portal: their session, and a second link not used yet. */
async function signedInWithSpareLink(t: TestClinicContext) {
  const email = uniqueEmail();
  const patientId = await t.newPatient(undefined, { email });
  await invite(t, patientId);
  const session = (await openLink(t, t.mailer.tokenFor(email))).json().data.token as string;
  await invite(t, patientId);
  return { patientId, session, unused: t.mailer.tokenFor(email) };
}

describe.each(availableBackends())('portal access on %s', (backend) => {
  const t = useTestClinic(backend);

  it('invites a patient with an e-mail, in their language, and shows the state', async () => {
    const without = await t.newPatient();
    expect((await invite(t, without)).json().code).toBe('patient_email_required');
    const email = uniqueEmail();
    const patientId = await t.newPatient(undefined, { email, language: 'es' });
    expect((await t.call('GET', `/api/patients/${patientId}/portal-access`)).json().data.state).toBe('none');
    const invited = await invite(t, patientId);
    expect(invited.statusCode, invited.body).toBe(200);
    expect(invited.json()).toMatchObject({ code: 'portal_access_invited', data: { state: 'invited', email } });
    const mail = t.mailer.lastTo(email);
    expect(mail?.subject).toContain('le invita a su portal de paciente');
    expect(mail?.text).toContain('Abra este enlace para entrar');
    expect(mail?.text).not.toMatch(/\b(Abre|tu contraseña|tus turnos)\b/);
    expect(mail?.link).toMatch(/\/p\/[a-z0-9-]{3,60}\/link\/[A-Za-z0-9_-]+$/);
    expect(await t.auditEvents('portal_access_invited')).toHaveLength(1);
  });

  it('opens a customer session once per link, then a password opens the normal sign-in', async () => {
    const email = uniqueEmail();
    const patientId = await t.newPatient(undefined, { email });
    await invite(t, patientId);
    const link = t.mailer.tokenFor(email);
    const opened = await openLink(t, link);
    expect(opened.statusCode, opened.body).toBe(200);
    const session = opened.json().data.token as string;
    expect(opened.json().data.user.level).toBe('customer');
    const me = await t.call('GET', '/api/portal/me', { token: session });
    expect(me.json().data.patient.id).toBe(patientId);
    expect((await t.call('GET', `/api/patients/${patientId}/portal-access`)).json().data.state).toBe('active');
    // Works once.
    expect((await openLink(t, link)).statusCode).toBe(410);
    expect((await openLink(t, 'not-a-link')).statusCode).toBe(404);
    // A customer is no staff member.
    expect((await t.call('GET', '/api/patients', { token: session })).statusCode).toBe(403);
    expect((await t.call('GET', `/api/patients/${patientId}/portal-access`, { token: session })).statusCode).toBe(403);

    const weak = await t.call('PUT', '/api/portal/password', {
      token: session,
      body: { password: 'corta', passwordConfirmation: 'corta' },
    });
    expect(weak.statusCode).toBe(400);
    const password = 'Una contraseña del portal 2026';
    const set = await t.call('PUT', '/api/portal/password', {
      token: session,
      body: { password, passwordConfirmation: password },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ code: 'portal_password_set' });
    expect((await t.call('GET', '/api/portal/me', { token: session })).statusCode).toBe(200);
    const again = await t.call('PUT', '/api/portal/password', {
      token: session,
      body: { password, passwordConfirmation: password },
    });
    expect(again.json().code).toBe('password_already_set');
    const signIn = await t.call('POST', '/api/auth/sign-in', { token: null, body: { email, password } });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json().data.user.level).toBe('customer');
  });

  it('refuses an expired link', async () => {
    const email = uniqueEmail();
    const patientId = await t.newPatient(undefined, { email });
    await invite(t, patientId);
    await t.db.orm.execute(
      sql`update auth_tokens set expires_at = now() - interval '1 minute' where purpose = 'portal' and used_at is null`,
    );
    const opened = await openLink(t, t.mailer.tokenFor(email));
    expect(opened.statusCode).toBe(410);
    expect(opened.json().code).toBe('token_expired');
  });

  it('revokes: the sessions end and the unused links die; another clinic sees 404', async () => {
    const { patientId, session, unused } = await signedInWithSpareLink(t);
    expect(
      (await t.call('DELETE', `/api/patients/${patientId}/portal-access`, { token: t.other.token })).statusCode,
    ).toBe(404);
    expect((await invite(t, patientId, t.other.token)).statusCode).toBe(404);
    const revoked = await t.call('DELETE', `/api/patients/${patientId}/portal-access`);
    expect(revoked.json()).toMatchObject({ code: 'portal_access_revoked', data: { state: 'none' } });
    expect((await t.call('GET', '/api/portal/me', { token: session })).statusCode).toBe(401);
    expect((await openLink(t, unused)).statusCode).toBe(410);
    expect(await t.auditEvents('portal_access_revoked')).toHaveLength(1);
  });

  it("closes a deleted patient's portal: sessions end, links die", async () => {
    const { patientId, session, unused } = await signedInWithSpareLink(t);
    expect((await t.call('DELETE', `/api/patients/${patientId}`)).statusCode).toBe(200);
    expect((await t.call('GET', '/api/portal/appointments', { token: session })).statusCode).toBe(401);
    expect((await openLink(t, unused)).statusCode).toBe(410);
  });

  it('refuses an e-mail that already enters the clinic as someone else', async () => {
    const patientId = await t.newPatient(undefined, { email: t.clinic.email });
    expect((await invite(t, patientId)).json().code).toBe('portal_email_in_use');
  });

  it('answers a public request the same either way and mails the link only on a match', async () => {
    const slug = (
      await t.db.orm.execute<{ public_slug: string }>(
        sql`select public_slug from accounts where id = ${t.clinic.accountId}::uuid`,
      )
    ).rows[0]?.public_slug;
    const email = uniqueEmail();
    await t.newPatient(undefined, { email, ssn: 'X1234567' });
    const ask = (body: Record<string, string>, where = slug, remoteAddress = '198.51.100.7') =>
      t.call('POST', `/api/public/clinics/${where}/portal-access`, { token: null, body, remoteAddress });
    const answers = [
      await ask({ email, ssn: 'OTRO' }),
      await ask({ email: uniqueEmail(), ssn: 'X1234567' }),
      await ask({ email, ssn: 'X1234567' }, 'no-such-clinic'),
    ];
    for (const answer of answers) expect(answer.json()).toEqual({ code: 'portal_access_requested' });
    expect(t.mailer.lastTo(email)).toBeUndefined();
    const matched = await ask({ email, ssn: 'x1234567' });
    expect(matched.json()).toEqual({ code: 'portal_access_requested' });
    await expect.poll(() => t.mailer.lastTo(email)?.subject).toContain('Su enlace para entrar al portal');
    expect(t.mailer.lastTo(email)?.text).toContain('vence en 60 minutos');
    const opened = await openLink(t, t.mailer.tokenFor(email));
    expect(opened.statusCode, opened.body).toBe(200);
    expect((await ask({ email: 'x@y.z', ssn: '1' }, 'Mal Slug')).statusCode).toBe(400);
  });

  it('throttles the public request per address like the sign-in', async () => {
    const body = { email: uniqueEmail(), ssn: '123' };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const answer = await t.call('POST', `/api/public/clinics/no-such-clinic/portal-access`, {
        token: null,
        body,
        remoteAddress: '203.0.113.99',
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

/** Keeps each mail (the clinics' activation links) and also sends it through a real SMTP conversation. */
class SmtpAndMemory extends MemoryMailer {
  constructor(private readonly smtp: Mailer) {
    super();
  }
  override async send(message: MailMessage): Promise<void> {
    await super.send(message);
    await this.smtp.send(message);
  }
}

describe('a patient of two clinics, mailed over SMTP', () => {
  let smtp: Smtp;
  let testApp: TestApp;
  let first: TestClinic;
  let second: TestClinic;

  beforeAll(async () => {
    smtp = await startSmtp();
    const silent = { info: () => {}, error: () => {} } as unknown as Parameters<typeof createMailer>[0]['log'];
    const mailer = new SmtpAndMemory(
      createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', from: 'odontia@example.com', log: silent }),
    );
    testApp = await createTestApp({ mailer, env: { PUBLIC_URL: 'https://odontia.example.com/' } });
    first = await createTestClinic(testApp.app, mailer);
    second = await createTestClinic(testApp.app, mailer);
  });
  afterAll(async () => {
    await testApp?.close();
    await stopSmtp(smtp);
  });

  it('mails the invitation in Spanish (usted) and one sign-in shows both clinics', async () => {
    const email = uniqueEmail();
    const links: string[] = [];
    for (const clinic of [first, second]) {
      const patientId = await createTestPatient(testApp.app, clinic.token, { email });
      const invited = await testApp.app.inject({
        method: 'POST',
        url: `/api/patients/${patientId}/portal-access`,
        headers: bearer(clinic.token),
      });
      expect(invited.statusCode, invited.body).toBe(200);
      const raw = (smtp.received.filter((mail) => mail.to.includes(email)).at(-1)?.raw ?? '')
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      const decoded = Buffer.from(raw, 'latin1').toString('utf8');
      expect(decoded).toContain('le da acceso a su portal de paciente');
      const match = /https:\/\/odontia\.example\.com\/p\/[a-z0-9-]+\/link\/([A-Za-z0-9_-]{43})/.exec(decoded);
      expect(match).not.toBeNull();
      links.push(match?.[1] ?? '');
    }
    const opened = await testApp.app.inject({ method: 'POST', url: `/api/public/portal-links/${links[1]}` });
    expect(opened.statusCode, opened.body).toBe(200);
    const clinics = opened.json().data.user.clinics as { id: string; level: string }[];
    expect(clinics.map((clinic) => clinic.id).sort()).toEqual([first.accountId, second.accountId].sort());
  });
});
