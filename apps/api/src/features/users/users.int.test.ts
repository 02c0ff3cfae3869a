import { userRoutes } from '@odontia/shared/routes/users';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { signIn, type TestClinic, testPassword } from '../../../test/clinics.ts';
import { declaredCollection, describeRecordContract } from '../../../test/record-contract.ts';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';
import { listAuditEvents } from '../audit/audit.repository.ts';

/** Profile, password change and the clinic's users (issue 3). */
describe('profile and users', () => {
  const t = useTestClinic();
  /** PATCH /api/users/:id as that clinic's administrator. */
  const editUser = (clinic: { token: string }, id: string, body: object) =>
    t.call('PATCH', `/api/users/${id}`, { token: clinic.token, body });
  beforeEach(() => t.app.authThrottle.reset());

  async function invite(clinic: TestClinic, level: string, email = `staff.${Math.random()}@clinica.test`) {
    const response = await t.call('POST', '/api/users', {
      token: clinic.token,
      body: { completeName: 'Juan Staff', email, level },
    });
    expect(response.statusCode).toBe(201);
    return { ...response.json().data, email } as { id: string; email: string; version: number; level: string };
  }

  describe('profile', () => {
    it('updates name, language, date format and currency', async () => {
      const clinic = await t.newClinic();
      const response = await t.call('PATCH', '/api/auth/system/me', {
        token: clinic.token,
        body: {
          completeName: 'Ana María Pérez',
          systemLanguage: 'pt',
          dateFormat: 'YYYY-MM-DD',
          systemCurrency: 'brazilian_real',
        },
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
      const clinic = await t.newClinic();
      const before = await t.call('GET', '/api/auth/system/me', { token: clinic.token });
      expect(before.json().data).toMatchObject({ licenseNumber: null, specialty: null });
      const set = await t.call('PATCH', '/api/auth/system/me', {
        token: clinic.token,
        body: {
          licenseNumber: ' MN 12345 ',
          specialty: 'Odontóloga, especialista en endodoncia',
        },
      });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json().data).toMatchObject({
        licenseNumber: 'MN 12345',
        specialty: 'Odontóloga, especialista en endodoncia',
      });
      // A change of something else keeps them.
      const other = await t.call('PATCH', '/api/auth/system/me', {
        token: clinic.token,
        body: { completeName: 'Ana Pérez' },
      });
      expect(other.json().data).toMatchObject({ licenseNumber: 'MN 12345' });
      const cleared = await t.call('PATCH', '/api/auth/system/me', { token: clinic.token, body: { specialty: '' } });
      expect(cleared.json().data).toMatchObject({ licenseNumber: 'MN 12345', specialty: null });
      const tooLong = await t.call('PATCH', '/api/auth/system/me', {
        token: clinic.token,
        body: { licenseNumber: 'x'.repeat(61) },
      });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().details.fields).toEqual([{ path: 'licenseNumber', code: 'too_long', max: 60 }]);
      const events = await t.auditEvents('profile_updated', clinic);
      expect(events.map((event) => event.after)).toEqual(
        expect.arrayContaining([{ licenseNumber: 'MN 12345', specialty: 'Odontóloga, especialista en endodoncia' }]),
      );
    });

    it('changing the e-mail needs the current password and a free address', async () => {
      const clinic = await t.newClinic();
      const other = await t.newClinic();
      const email = `nuevo.${Date.now()}@clinica.test`;
      const missing = await t.call('PATCH', '/api/auth/system/me', { token: clinic.token, body: { email } });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().details.fields).toEqual([{ path: 'currentPassword', code: 'required' }]);
      const wrong = await t.call('PATCH', '/api/auth/system/me', {
        token: clinic.token,
        body: {
          email,
          currentPassword: 'nope-nope-nope',
        },
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('current_password_incorrect');
      const taken = await t.call('PATCH', '/api/auth/system/me', {
        token: clinic.token,
        body: {
          email: other.email,
          currentPassword: testPassword,
        },
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('email_already_exists');
      const ok = await t.call('PATCH', '/api/auth/system/me', {
        token: clinic.token,
        body: { email, currentPassword: testPassword },
      });
      expect(ok.json().data.email).toBe(email);
      expect((await signIn(t.app, email)).token).toBeTruthy();
    });

    it('changes the password with the current one and ends the other sessions', async () => {
      const clinic = await t.newClinic();
      const other = await signIn(t.app, clinic.email);
      const password = 'una clave nueva y larga';
      const wrong = await t.call('POST', '/api/auth/system/password', {
        token: clinic.token,
        body: {
          currentPassword: 'nope-nope-nope',
          password,
          passwordConfirmation: password,
        },
      });
      expect(wrong.json().code).toBe('current_password_incorrect');
      const common = await t.call('POST', '/api/auth/system/password', {
        token: clinic.token,
        body: {
          currentPassword: testPassword,
          password: '1234567890',
          passwordConfirmation: '1234567890',
        },
      });
      expect(common.json().details.fields).toEqual([{ path: 'password', code: 'password_too_common' }]);
      const ok = await t.call('POST', '/api/auth/system/password', {
        token: clinic.token,
        body: {
          currentPassword: testPassword,
          password,
          passwordConfirmation: password,
        },
      });
      expect(ok.json()).toEqual({ code: 'password_changed' });
      expect((await t.call('GET', '/api/auth/system/me', { token: clinic.token })).statusCode).toBe(200);
      expect((await t.call('GET', '/api/auth/system/me', { token: other.token })).json().code).toBe('unauthorized');
      expect((await signIn(t.app, clinic.email, password)).token).toBeTruthy();
    });
  });

  describe('users of the clinic', () => {
    describeRecordContract(t, {
      entity: 'user',
      ...declaredCollection(userRoutes.list),
      table: 'users',
      readOne: false,
      body: () => ({ completeName: 'Juan Staff', email: `staff.${Math.random()}@clinica.test`, level: 'user' }),
      update: {
        method: 'PATCH',
        body: () => ({ specialty: 'Ortodoncista' }),
        stale: () => ({ specialty: 'Endodoncista' }),
        conflictShowsCurrent: false,
      },
      permissions: { read: 'users.manage', write: 'users.manage' },
    });

    it('an administrator invites a user, who sets a password through the link and signs in with that level', async () => {
      const clinic = await t.newClinic({ clinicName: 'Clínica Oeste' });
      const invited = await invite(clinic, 'user');
      expect(invited).toMatchObject({ level: 'user', active: true, activatedAt: null });
      const mail = t.mailer.lastTo(invited.email);
      expect(mail?.subject).toBe('Clínica Oeste te invita a Odontia');
      expect(mail?.link).toMatch(/\/auth\/reset_password\/[A-Za-z0-9_-]{43}$/);
      expect(
        (
          await t.call('POST', '/api/auth/sign-in', {
            token: null,
            body: { email: invited.email, password: testPassword },
          })
        ).statusCode,
      ).toBe(401);

      const password = 'mi clave de recepción';
      const accept = await t.call('POST', `/api/auth/reset-password/${t.mailer.tokenFor(invited.email)}`, {
        token: null,
        body: { password, passwordConfirmation: password },
      });
      expect(accept.json()).toEqual({ code: 'password_reset' });
      const session = await signIn(t.app, invited.email, password);
      expect(session.user).toMatchObject({ level: 'user', account: { id: clinic.accountId } });
      const refused = await t.call('GET', '/api/users', { token: session.token });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('forbidden');

      const list = await t.call('GET', '/api/users?sort=email&pageSize=10', { token: clinic.token });
      expect(list.json()).toMatchObject({ total: 2, page: 1, pageSize: 10 });
      expect(
        (await t.call('GET', `/api/users?q=${encodeURIComponent('Juan')}`, { token: clinic.token })).json().total,
      ).toBe(1);

      const events = await t.db.withTenant(clinic.accountId, (tx) => listAuditEvents(tx));
      expect(events.map((event) => event.action)).toEqual(
        expect.arrayContaining(['user_invited', 'invitation_accepted']),
      );
    });

    it("refuses an e-mail already a member of this clinic (another clinic's: issue 19, multiclinic.int.test.ts)", async () => {
      const clinic = await t.newClinic();
      const staff = await invite(clinic, 'user');
      const response = await t.call('POST', '/api/users', {
        token: clinic.token,
        body: {
          completeName: 'X',
          email: staff.email.toUpperCase(),
          level: 'user',
        },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('email_already_exists');
    });

    it('changes levels, deactivates (ending sessions) and reactivates; guards itself and the last administrator', async () => {
      const clinic = await t.newClinic();
      const self = (await t.call('GET', '/api/auth/system/me', { token: clinic.token })).json().data;
      const [selfRow] = (
        await t.db.orm.execute<{ version: number }>(sql`select version from users where id = ${self.id}`)
      ).rows;
      const selfVersion = selfRow?.version ?? 1;

      const ownDeactivation = await editUser(clinic, self.id, {
        active: false,
        version: selfVersion,
      });
      expect(ownDeactivation.statusCode).toBe(409);
      expect(ownDeactivation.json().code).toBe('cannot_deactivate_self');
      const demoteLast = await editUser(clinic, self.id, {
        level: 'supervisor',
        version: selfVersion,
      });
      expect(demoteLast.statusCode).toBe(409);
      expect(demoteLast.json().code).toBe('last_administrator');

      const staff = await invite(clinic, 'user');
      const password = 'clave del personal 1';
      await t.call('POST', `/api/auth/reset-password/${t.mailer.tokenFor(staff.email)}`, {
        token: null,
        body: { password, passwordConfirmation: password },
      });
      const staffSession = await signIn(t.app, staff.email, password);
      const staffVersion = (await t.call('GET', '/api/users', { token: clinic.token }))
        .json()
        .data.find((user: { id: string }) => user.id === staff.id).version;

      const promoted = await editUser(clinic, staff.id, {
        level: 'supervisor',
        version: staffVersion,
      });
      expect(promoted.json()).toMatchObject({ code: 'user_updated', data: { level: 'supervisor' } });
      const stale = await editUser(clinic, staff.id, {
        active: false,
        version: staffVersion,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().code).toBe('version_conflict');

      const deactivated = await editUser(clinic, staff.id, {
        active: false,
        version: promoted.json().data.version,
      });
      expect(deactivated.json().data.active).toBe(false);
      expect((await t.call('GET', '/api/auth/system/me', { token: staffSession.token })).json().code).toBe(
        'unauthorized',
      );
      const signInRefused = await t.call('POST', '/api/auth/sign-in', {
        token: null,
        body: { email: staff.email, password },
      });
      expect(signInRefused.json().code).toBe('user_inactive');
      const reactivated = await editUser(clinic, staff.id, {
        active: true,
        version: deactivated.json().data.version,
      });
      expect(reactivated.json().data.active).toBe(true);

      // With a second administrator, the first may step down.
      const admin2 = await editUser(clinic, staff.id, {
        level: 'administrator',
        version: reactivated.json().data.version,
      });
      expect(admin2.statusCode).toBe(200);
      const stepDown = await editUser(clinic, self.id, {
        level: 'supervisor',
        version: selfVersion,
      });
      expect(stepDown.json().data.level).toBe('supervisor');

      const events = await t.db.withTenant(clinic.accountId, (tx) => listAuditEvents(tx));
      expect(events.map((event) => event.action)).toEqual(
        expect.arrayContaining(['user_level_changed', 'user_deactivated', 'user_reactivated']),
      );
    });

    it("an administrator sets a user's licence and specialty; listed and audited", async () => {
      const clinic = await t.newClinic();
      const staff = await invite(clinic, 'user');
      const set = await editUser(clinic, staff.id, {
        licenseNumber: 'MP 4321',
        specialty: 'Ortodoncista',
        version: staff.version,
      });
      expectAnswer(set, 200, {
        code: 'user_updated',
        data: { licenseNumber: 'MP 4321', specialty: 'Ortodoncista', level: 'user', active: true },
      });
      const listed = (await t.call('GET', '/api/users', { token: clinic.token }))
        .json()
        .data.find((user: { id: string }) => user.id === staff.id);
      expect(listed).toMatchObject({ licenseNumber: 'MP 4321', specialty: 'Ortodoncista' });
      const cleared = await editUser(clinic, staff.id, {
        licenseNumber: '',
        version: set.json().data.version,
      });
      expect(cleared.json().data).toMatchObject({ licenseNumber: null, specialty: 'Ortodoncista' });
      const events = await t.auditEvents('user_professional_updated', clinic);
      expect(events.filter((event) => event.entityId === staff.id).map((event) => event.after)).toEqual(
        expect.arrayContaining([{ licenseNumber: 'MP 4321', specialty: 'Ortodoncista' }, { licenseNumber: null }]),
      );
    });

    it("answers user_not_found for another clinic's user and never lists them", async () => {
      const clinicA = await t.newClinic();
      const clinicB = await t.newClinic();
      const response = await editUser(clinicA, clinicB.userId, {
        active: false,
        version: 1,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('user_not_found');
      const list = await t.call('GET', '/api/users', { token: clinicA.token });
      expect(list.json().data.map((user: { id: string }) => user.id)).toEqual([clinicA.userId]);
    });
  });
});
