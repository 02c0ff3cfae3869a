import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpBody } from '../../../test/clinics.ts';
import { type Smtp, startSmtp, stopSmtp } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

/** Mail leaves through real transports: an in-process SMTP server, and the outbox folder. */

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

describe('mail over SMTP', () => {
  let smtp: Smtp;
  let testApp: TestApp;

  beforeAll(async () => {
    smtp = await startSmtp();
    testApp = await createTestApp({
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://odontia.example.com/clinica' },
    });
  });
  afterAll(async () => {
    await testApp?.close();
    await stopSmtp(smtp);
  });

  it('sign-up → the activation mail arrives → its link activates the account', async () => {
    const body = signUpBody({ clinicName: 'Clínica Dental Río', language: 'pt' });
    const signUp = await testApp.app.inject({ method: 'POST', url: '/api/auth/sign-up', payload: body });
    expect(signUp.statusCode).toBe(201);

    const mail = smtp.received.find((message) => message.to.includes(body.email));
    expect(mail).toBeDefined();
    const raw = decodeQuotedPrintable(mail?.raw ?? '');
    const match = /https:\/\/odontia\.example\.com\/clinica\/auth\/activation\/([A-Za-z0-9_-]{43})/.exec(raw);
    expect(match).not.toBeNull();
    expect(mail?.raw).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(raw).toContain('Obrigado por cadastrar');

    const activation = await testApp.app.inject({ method: 'POST', url: `/api/auth/activation/${match?.[1]}` });
    expect(activation.statusCode).toBe(200);
    expect(activation.json()).toEqual({ code: 'account_activated' });
    const signIn = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: body.email, password: body.password },
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('answers error_sending_email when the SMTP server is unreachable', async () => {
    const broken = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    try {
      const response = await broken.app.inject({ method: 'POST', url: '/api/auth/sign-up', payload: signUpBody() });
      expect(response.statusCode).toBe(502);
      expect(response.json().code).toBe('error_sending_email');
    } finally {
      await broken.close();
    }
  });
});

describe('mail without SMTP_URL', () => {
  it('writes an .eml file into DATA_DIR/outbox with the link', async () => {
    const testApp = await createTestApp();
    try {
      const body = signUpBody();
      const response = await testApp.app.inject({ method: 'POST', url: '/api/auth/sign-up', payload: body });
      expect(response.statusCode).toBe(201);
      const outbox = path.join(testApp.env.DATA_DIR, 'outbox');
      const files = await readdir(outbox);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      // Long headers are folded (RFC 5322): unfold before reading them.
      const raw = (await readFile(path.join(outbox, files[0] ?? ''), 'utf8')).replace(/\r?\n[ \t]+/g, ' ');
      expect(raw).toContain(`To: ${body.email}`);
      expect(raw).toMatch(/^X-Odontia-Link: http:\/\/localhost:3000\/auth\/activation\/[A-Za-z0-9_-]{43}$/m);
    } finally {
      await testApp.close();
    }
  });
});
