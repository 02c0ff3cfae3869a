import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestClinic, setLevel, signIn, type TestClinic, testPassword } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { listAuditEvents } from '../audit/audit.repository.ts';

/** Profile, password change and the clinic's users (issue 3). */
describe('profile and users', () => {
  let testApp: TestApp;
  let app: FastifyInstance;
  const mailer = new MemoryMailer();
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
    app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    testApp = await createTestApp({ mailer });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp?.close();
  });
  beforeEach(() => app.authThrottle.reset());

  async function invite(clinic: TestClinic, level: string, email = `staff.${Math.random()}@clinica.test`) {
    const response = await call('POST', '/api/users', clinic.token, { completeName: 'Juan Staff', email, level });
    expect(response.statusCode).toBe(201);
    return { ...response.json().data, email } as { id: string; email: string; version: number; level: string };
  }

  describe('profile', () => {
    it('updates name, language, date format and currency', async () => {
      const clinic = await createTestClinic(app, mailer);
      const response = await call('PATCH', '/api/auth/system/me', clinic.token, {
        completeName: 'Ana María Pérez',
        systemLanguage: 'pt',
        dateFormat: 'YYYY-MM-DD',
        systemCurrency: 'brazilian_real',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        code: 'profile_updated',
        data: {
          completeName: 'Ana María Pérez',
          settings: { systemLanguage: 'pt', dateFormat: 'YYYY-MM-DD', systemCurrency: 'brazilian_real' },
        },
      });
    });

    it("sets and clears the professional's licence and specialty (Matrícula, Especialidad / título)", async () => {
      const clinic = await createTestClinic(app, mailer);
      const before = await call('GET', '/api/auth/system/me', clinic.token);
      expect(before.json().data).toMatchObject({ licenseNumber: null, specialty: null });
      const set = await call('PATCH', '/api/auth/system/me', clinic.token, {
        licenseNumber: ' MN 12345 ',
        specialty: 'Odontóloga, especialista en endodoncia',
      });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().data).toMatchObject({
        licenseNumber: 'MN 12345',
        specialty: 'Odontóloga, especialista en endodoncia',
      });
      // A change of something else keeps them.
      const other = await call('PATCH', '/api/auth/system/me', clinic.token, { completeName: 'Ana Pérez' });
      expect(other.json().data).toMatchObject({ licenseNumber: 'MN 12345' });
      const cleared = await call('PATCH', '/api/auth/system/me', clinic.token, { specialty: '' });
      expect(cleared.json().data).toMatchObject({ licenseNumber: 'MN 12345', specialty: null });
      const tooLong = await call('PATCH', '/api/auth/system/me', clinic.token, { licenseNumber: 'x'.repeat(61) });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().details.fields).toEqual([{ path: 'licenseNumber', code: 'too_long', max: 60 }]);
      const events = await testApp.db.withTenant(clinic.accountId, (tx) =>
        listAuditEvents(tx, { action: 'profile_updated' }),
      );
      expect(events.map((event) => event.after)).toEqual(
        expect.arrayContaining([{ licenseNumber: 'MN 12345', specialty: 'Odontóloga, especialista en endodoncia' }]),
      );
    });

    it('changing the e-mail needs the current password and a free address', async () => {
      const clinic = await createTestClinic(app, mailer);
      const other = await createTestClinic(app, mailer);
      const email = `nuevo.${Date.now()}@clinica.test`;
      const missing = await call('PATCH', '/api/auth/system/me', clinic.token, { email });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().details.fields).toEqual([{ path: 'currentPassword', code: 'required' }]);
      const wrong = await call('PATCH', '/api/auth/system/me', clinic.token, {
        email,
        currentPassword: 'nope-nope-nope',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('current_password_incorrect');
      const taken = await call('PATCH', '/api/auth/system/me', clinic.token, {
        email: other.email,
        currentPassword: testPassword,
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('email_already_exists');
      const ok = await call('PATCH', '/api/auth/system/me', clinic.token, { email, currentPassword: testPassword });
      expect(ok.json().data.email).toBe(email);
      expect((await signIn(app, email)).token).toBeTruthy();
    });

    it('changes the password with the current one and ends the other sessions', async () => {
      const clinic = await createTestClinic(app, mailer);
      const other = await signIn(app, clinic.email);
      const password = 'una clave nueva y larga';
      const wrong = await call('POST', '/api/auth/system/password', clinic.token, {
        currentPassword: 'nope-nope-nope',
        password,
        passwordConfirmation: password,
      });
      expect(wrong.json().code).toBe('current_password_incorrect');
      const common = await call('POST', '/api/auth/system/password', clinic.token, {
        currentPassword: testPassword,
        password: '1234567890',
        passwordConfirmation: '1234567890',
      });
      expect(common.json().details.fields).toEqual([{ path: 'password', code: 'password_too_common' }]);
      const ok = await call('POST', '/api/auth/system/password', clinic.token, {
        currentPassword: testPassword,
        password,
        passwordConfirmation: password,
      });
      expect(ok.json()).toEqual({ code: 'password_changed' });
      expect((await call('GET', '/api/auth/system/me', clinic.token)).statusCode).toBe(200);
      expect((await call('GET', '/api/auth/system/me', other.token)).json().code).toBe('unauthorized');
      expect((await signIn(app, clinic.email, password)).token).toBeTruthy();
    });
  });

  describe('users of the clinic', () => {
    it('an administrator invites a user, who sets a password through the link and signs in with that level', async () => {
      const clinic = await createTestClinic(app, mailer, { clinicName: 'Clínica Oeste' });
      const invited = await invite(clinic, 'user');
      expect(invited).toMatchObject({ level: 'user', active: true, activatedAt: null });
      const mail = mailer.lastTo(invited.email);
      expect(mail?.subject).toBe('Clínica Oeste te invita a Odontia');
      expect(mail?.link).toMatch(/\/auth\/reset_password\/[A-Za-z0-9_-]{43}$/);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/auth/sign-in',
            payload: { email: invited.email, password: testPassword },
          })
        ).statusCode,
      ).toBe(401);

      const password = 'mi clave de recepción';
      const accept = await app.inject({
        method: 'POST',
        url: `/api/auth/reset-password/${mailer.tokenFor(invited.email)}`,
        payload: { password, passwordConfirmation: password },
      });
      expect(accept.json()).toEqual({ code: 'password_reset' });
      const session = await signIn(app, invited.email, password);
      expect(session.user).toMatchObject({ level: 'user', account: { id: clinic.accountId } });
      const refused = await call('GET', '/api/users', session.token);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('forbidden');

      const list = await call('GET', '/api/users?sort=email&pageSize=10', clinic.token);
      expect(list.json()).toMatchObject({ total: 2, page: 1, pageSize: 10 });
      expect((await call('GET', `/api/users?q=${encodeURIComponent('Juan')}`, clinic.token)).json().total).toBe(1);

      const events = await testApp.db.withTenant(clinic.accountId, (tx) => listAuditEvents(tx));
      expect(events.map((event) => event.action)).toEqual(
        expect.arrayContaining(['user_invited', 'invitation_accepted']),
      );
    });

    it('refuses an e-mail already used anywhere in the installation', async () => {
      const clinic = await createTestClinic(app, mailer);
      const other = await createTestClinic(app, mailer);
      const response = await call('POST', '/api/users', clinic.token, {
        completeName: 'X',
        email: other.email,
        level: 'user',
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('email_already_exists');
    });

    it('changes levels, deactivates (ending sessions) and reactivates; guards itself and the last administrator', async () => {
      const clinic = await createTestClinic(app, mailer);
      const self = (await call('GET', '/api/auth/system/me', clinic.token)).json().data;
      const [selfRow] = (
        await testApp.db.orm.execute<{ version: number }>(sql`select version from users where id = ${self.id}`)
      ).rows;
      const selfVersion = selfRow?.version ?? 1;

      const ownDeactivation = await call('PATCH', `/api/users/${self.id}`, clinic.token, {
        active: false,
        version: selfVersion,
      });
      expect(ownDeactivation.statusCode).toBe(409);
      expect(ownDeactivation.json().code).toBe('cannot_deactivate_self');
      const demoteLast = await call('PATCH', `/api/users/${self.id}`, clinic.token, {
        level: 'supervisor',
        version: selfVersion,
      });
      expect(demoteLast.statusCode).toBe(409);
      expect(demoteLast.json().code).toBe('last_administrator');

      const staff = await invite(clinic, 'user');
      const password = 'clave del personal 1';
      await app.inject({
        method: 'POST',
        url: `/api/auth/reset-password/${mailer.tokenFor(staff.email)}`,
        payload: { password, passwordConfirmation: password },
      });
      const staffSession = await signIn(app, staff.email, password);
      const staffVersion = (await call('GET', '/api/users', clinic.token))
        .json()
        .data.find((user: { id: string }) => user.id === staff.id).version;

      const promoted = await call('PATCH', `/api/users/${staff.id}`, clinic.token, {
        level: 'supervisor',
        version: staffVersion,
      });
      expect(promoted.json()).toMatchObject({ code: 'user_updated', data: { level: 'supervisor' } });
      const stale = await call('PATCH', `/api/users/${staff.id}`, clinic.token, {
        active: false,
        version: staffVersion,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().code).toBe('version_conflict');

      const deactivated = await call('PATCH', `/api/users/${staff.id}`, clinic.token, {
        active: false,
        version: promoted.json().data.version,
      });
      expect(deactivated.json().data.active).toBe(false);
      expect((await call('GET', '/api/auth/system/me', staffSession.token)).json().code).toBe('unauthorized');
      const signInRefused = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: staff.email, password },
      });
      expect(signInRefused.json().code).toBe('user_inactive');
      const reactivated = await call('PATCH', `/api/users/${staff.id}`, clinic.token, {
        active: true,
        version: deactivated.json().data.version,
      });
      expect(reactivated.json().data.active).toBe(true);

      // With a second administrator, the first may step down.
      const admin2 = await call('PATCH', `/api/users/${staff.id}`, clinic.token, {
        level: 'administrator',
        version: reactivated.json().data.version,
      });
      expect(admin2.statusCode).toBe(200);
      const stepDown = await call('PATCH', `/api/users/${self.id}`, clinic.token, {
        level: 'supervisor',
        version: selfVersion,
      });
      expect(stepDown.json().data.level).toBe('supervisor');

      const events = await testApp.db.withTenant(clinic.accountId, (tx) => listAuditEvents(tx));
      expect(events.map((event) => event.action)).toEqual(
        expect.arrayContaining(['user_level_changed', 'user_deactivated', 'user_reactivated']),
      );
    });

    it("an administrator sets a user's licence and specialty; listed and audited", async () => {
      const clinic = await createTestClinic(app, mailer);
      const staff = await invite(clinic, 'user');
      const set = await call('PATCH', `/api/users/${staff.id}`, clinic.token, {
        licenseNumber: 'MP 4321',
        specialty: 'Ortodoncista',
        version: staff.version,
      });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json()).toMatchObject({
        code: 'user_updated',
        data: { licenseNumber: 'MP 4321', specialty: 'Ortodoncista', level: 'user', active: true },
      });
      const listed = (await call('GET', '/api/users', clinic.token))
        .json()
        .data.find((user: { id: string }) => user.id === staff.id);
      expect(listed).toMatchObject({ licenseNumber: 'MP 4321', specialty: 'Ortodoncista' });
      const cleared = await call('PATCH', `/api/users/${staff.id}`, clinic.token, {
        licenseNumber: '',
        version: set.json().data.version,
      });
      expect(cleared.json().data).toMatchObject({ licenseNumber: null, specialty: 'Ortodoncista' });
      const events = await testApp.db.withTenant(clinic.accountId, (tx) =>
        listAuditEvents(tx, { action: 'user_professional_updated' }),
      );
      expect(events.filter((event) => event.entityId === staff.id).map((event) => event.after)).toEqual(
        expect.arrayContaining([{ licenseNumber: 'MP 4321', specialty: 'Ortodoncista' }, { licenseNumber: null }]),
      );
    });

    it("answers user_not_found for another clinic's user and never lists them", async () => {
      const clinicA = await createTestClinic(app, mailer);
      const clinicB = await createTestClinic(app, mailer);
      const response = await call('PATCH', `/api/users/${clinicB.userId}`, clinicA.token, {
        active: false,
        version: 1,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('user_not_found');
      const list = await call('GET', '/api/users', clinicA.token);
      expect(list.json().data.map((user: { id: string }) => user.id)).toEqual([clinicA.userId]);
    });

    it('supervisors and users may not manage users', async () => {
      const clinic = await createTestClinic(app, mailer);
      for (const level of ['supervisor', 'user', 'customer'] as const) {
        await setLevel(testApp.db, clinic.userId, level);
        expect((await call('GET', '/api/users', clinic.token)).statusCode).toBe(403);
        expect(
          (await call('POST', '/api/users', clinic.token, { completeName: 'X', email: 'x@y.test', level: 'user' }))
            .statusCode,
        ).toBe(403);
      }
    });
  });
});
