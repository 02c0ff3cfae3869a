import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestClinic, testPassword } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { expectAnswer } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { buildApp } from '../../app.ts';

/*
 * The auth throttle (issue 14): every password check counts like a sign-in, the counters are per
 * (e-mail, address) with a higher limit per address and per e-mail, an attacker elsewhere cannot
 * lock the user out, and the counts live in the database, shared by every API process.
 * Each test uses its own client addresses, so the tests do not fill each other's counters.
 */
describe.each(availableBackends())('auth throttle on %s', (backend) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  const mailer = new MemoryMailer();

  beforeAll(async () => {
    testApp = await createTestApp({ backend, mailer });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const call = (
    method: 'POST' | 'PATCH',
    url: string,
    remoteAddress: string,
    payload: object,
    token?: string,
    target: FastifyInstance = app,
  ) => target.inject({ method, url, remoteAddress, payload, ...(token ? { headers: bearer(token) } : {}) });
  const signInFrom = (remoteAddress: string, email: string, password: string, target = app) =>
    call('POST', '/api/auth/sign-in', remoteAddress, { email, password }, undefined, target);

  function expectThrottled(response: Awaited<ReturnType<typeof call>>) {
    expectAnswer(response, 429, {
      code: 'too_many_requests',
      details: { retryAfterSeconds: expect.any(Number), retryAfterMinutes: expect.any(Number) },
    });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  }

  it('throttles guesses of the current password on POST /api/auth/system/password like sign-in', async () => {
    const clinic = await createTestClinic(app, mailer);
    const change = (currentPassword: string) =>
      call(
        'POST',
        '/api/auth/system/password',
        '192.0.2.11',
        { currentPassword, password: 'otra frase muy larga 1', passwordConfirmation: 'otra frase muy larga 1' },
        clinic.token,
      );
    for (let attempt = 1; attempt <= 10; attempt++) {
      const wrong = await change(`no-es-la-clave-${attempt}`);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('current_password_incorrect');
    }
    const throttled = await change(testPassword);
    expectThrottled(throttled);
    expect(throttled.json().details.retryAfterMinutes).toBe(15);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(890);
  });

  it('throttles the current password of an e-mail change on PATCH /api/auth/system/me', async () => {
    const clinic = await createTestClinic(app, mailer);
    const changeEmail = (currentPassword: string) =>
      call(
        'PATCH',
        '/api/auth/system/me',
        '192.0.2.12',
        { email: `nueva.${Date.now()}@clinica.test`, currentPassword },
        clinic.token,
      );
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await changeEmail(`no-es-la-clave-${attempt}`)).json().code).toBe('current_password_incorrect');
    }
    expectThrottled(await changeEmail(testPassword));
  });

  it('counts sign-in, unlock, password change and e-mail change against the same limit', async () => {
    const clinic = await createTestClinic(app, mailer);
    const address = '192.0.2.13';
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await signInFrom(address, clinic.email, `mala-${attempt}`)).statusCode).toBe(401);
    }
    // Locked (issue 3): the lock screen asks the password of the signed-in user.
    expect((await call('POST', '/api/auth/lock', address, {}, clinic.token)).statusCode).toBe(200);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await call('POST', '/api/auth/unlock', address, { password: `mala-${attempt}` }, clinic.token);
      expect(response.statusCode).toBe(401);
    }
    expect((await call('POST', '/api/auth/unlock', address, { password: testPassword }, clinic.token)).statusCode).toBe(
      200,
    );
    for (let attempt = 1; attempt <= 4; attempt++) {
      const response = await call(
        'POST',
        '/api/auth/system/password',
        address,
        {
          currentPassword: `mala-${attempt}`,
          password: 'otra frase muy larga 2',
          passwordConfirmation: 'otra frase muy larga 2',
        },
        clinic.token,
      );
      expect(response.statusCode).toBe(400);
    }
    // Ten failures from this address against this account: the right password waits too.
    expectThrottled(
      await call(
        'PATCH',
        '/api/auth/system/me',
        address,
        { email: 'x@clinica.test', currentPassword: testPassword },
        clinic.token,
      ),
    );
    expectThrottled(await signInFrom(address, clinic.email, testPassword));
  });

  it('lets the user sign in while an attacker elsewhere hammers the account', async () => {
    const clinic = await createTestClinic(app, mailer);
    const attacker = '203.0.113.66';
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await signInFrom(attacker, clinic.email, `adivina-${attempt}`)).statusCode).toBe(401);
    }
    for (let attempt = 11; attempt <= 15; attempt++) {
      expectThrottled(await signInFrom(attacker, clinic.email, `adivina-${attempt}`));
    }
    // The clinic's computer (where the user signed in before), and a new one.
    expect((await signInFrom('127.0.0.1', clinic.email, testPassword)).statusCode).toBe(200);
    expect((await signInFrom('198.51.100.20', clinic.email, testPassword)).statusCode).toBe(200);
  });

  it('stops a guesser spread over many addresses at 50 failures an hour, except where the user signs in', async () => {
    const clinic = await createTestClinic(app, mailer);
    for (let address = 1; address <= 5; address++) {
      for (let attempt = 1; attempt <= 10; attempt++) {
        const response = await signInFrom(`203.0.113.${100 + address}`, clinic.email, `adivina-${attempt}`);
        expect(response.statusCode).toBe(401);
      }
    }
    const newAddress = await signInFrom('203.0.113.200', clinic.email, testPassword);
    expectThrottled(newAddress);
    expect(newAddress.json().details.retryAfterMinutes).toBe(60);
    // createTestClinic signed in from 127.0.0.1: the user's usual address still gets in.
    expect((await signInFrom('127.0.0.1', clinic.email, testPassword)).statusCode).toBe(200);
  });

  it('limits one address to 30 failures across accounts', async () => {
    const address = '203.0.113.77';
    for (let attempt = 1; attempt <= 30; attempt++) {
      const response = await signInFrom(address, `nadie-${attempt}@clinica.test`, 'una contraseña equivocada');
      expect(response.statusCode).toBe(401);
    }
    expectThrottled(await signInFrom(address, 'otra@clinica.test', 'una contraseña equivocada'));
    expectThrottled(await call('POST', '/api/auth/forgot-password', address, { email: 'otra@clinica.test' }));
  });

  it('counts an IPv6 client by its /64, not by each of its addresses', async () => {
    for (let attempt = 1; attempt <= 30; attempt++) {
      const response = await signInFrom(`2001:db8:5:6::${attempt.toString(16)}`, `v6-${attempt}@clinica.test`, 'x');
      expect(response.statusCode).toBe(401);
    }
    expectThrottled(await signInFrom('2001:db8:5:6:ffff::1', 'v6-otra@clinica.test', 'x'));
    expect((await signInFrom('2001:db8:5:7::1', 'v6-otra@clinica.test', 'x')).statusCode).toBe(401);
  });

  it('shares the counts between API processes on one database', async () => {
    const clinic = await createTestClinic(app, mailer);
    const other = await buildApp({ env: testApp.env, db: testApp.db, mailer });
    await other.ready();
    try {
      const address = '203.0.113.88';
      for (let attempt = 1; attempt <= 10; attempt++) {
        const target = attempt % 2 === 0 ? other : app;
        expect((await signInFrom(address, clinic.email, `adivina-${attempt}`, target)).statusCode).toBe(401);
      }
      expectThrottled(await signInFrom(address, clinic.email, testPassword, other));
      expectThrottled(await signInFrom(address, clinic.email, testPassword, app));
    } finally {
      await other.close();
    }
  });

  it("keeps the counters out of a clinic's reach: the clinic role cannot read them", async () => {
    const clinic = await createTestClinic(app, mailer);
    await expect(
      testApp.db.withTenant(clinic.accountId, (tx) => tx.execute(sql`select count(*) from auth_failures`)),
    ).rejects.toThrow();
    // The system context of the auth flows can.
    const { rows } = await testApp.db.withSystem((tx) =>
      tx.execute<{ n: number }>(sql`select count(*)::int as n from auth_failures`),
    );
    expect(rows[0]?.n).toEqual(expect.any(Number));
  });
});
