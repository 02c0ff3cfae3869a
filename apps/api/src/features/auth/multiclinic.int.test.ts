import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import { signIn, signUpBody, type TestClinic, testPassword } from '../../../test/clinics.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * One sign-in across clinics (issue 19): a person invited by a second clinic keeps their e-mail
 * and password, signs in once and switches; each clinic still sees only its own rows, the level
 * is per clinic, one password change ends the sessions everywhere, and nothing tells an inviting
 * administrator (or a sign-up) that an address exists elsewhere.
 */
/** An installation with plans, so a clinic can be read-only (its contract overdue past the grace days). */
const env = {
  PLANS: JSON.stringify([{ id: 'basic', name: 'Básico', price: '29.90', currency: 'euro', periodMonths: 1 }]),
  ACCOUNT_GRACE_DAYS: '10',
};

describe.each(availableBackends())('one sign-in across clinics on %s', (backend) => {
  const t = useTestClinic(backend, { clinics: false, env });
  beforeEach(() => t.app.authThrottle.reset());

  type Session = Awaited<ReturnType<typeof signIn>>;
  const me = async (token: string) => (await t.call('GET', '/api/auth/system/me', { token })).json().data;
  const switchTo = (token: string, accountId: string) =>
    t.call('POST', '/api/auth/switch', { token, body: { accountId } });
  const invite = (clinic: TestClinic, email: string, level = 'user') =>
    t.call('POST', '/api/users', { token: clinic.token, body: { completeName: 'Dra. Marta Ruiz', email, level } });

  /** A dentist, administrator of her own clinic A, invited as a user by clinic B. */
  async function dentistInTwoClinics() {
    const a = await t.newClinic();
    const b = await t.newClinic();
    const invited = await invite(b, a.email);
    expect(invited.statusCode, invited.body).toBe(201);
    return { a, b, membershipInB: invited.json().data.id as string };
  }

  it('answers an invitation of an address known elsewhere exactly as one of a new address', async () => {
    const known = await t.newClinic();
    const inviter = await t.newClinic();
    const newcomer = `nueva.${Date.now()}@clinica.test`;
    const first = await invite(inviter, newcomer);
    const second = await invite(inviter, known.email);
    expect(second.statusCode).toBe(first.statusCode);
    expect(first.statusCode).toBe(201);
    const shape = (body: { code: string; data: Record<string, unknown> }) => ({
      code: body.code,
      keys: Object.keys(body.data).sort(),
      activatedAt: body.data.activatedAt,
      active: body.data.active,
      level: body.data.level,
    });
    expect(shape(second.json())).toEqual(shape(first.json()));
    expect(second.json().data.email).toBe(known.email);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    // The mails differ, but only their owners read them: a new address chooses a password, a
    // known one signs in with the password it has.
    expect(t.mailer.lastTo(newcomer)?.link).toMatch(/auth\/reset_password\/.+/);
    expect(t.mailer.lastTo(known.email)?.link).toMatch(/auth\/sign-in$/);
    // Inviting a member of this clinic again is this clinic's own business: 409.
    const again = await invite(inviter, known.email.toUpperCase());
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('email_already_exists');
    // Both memberships are in the inviting clinic's audit trail.
    const invitedEvents = await t.auditEvents('user_invited', inviter);
    expect(invitedEvents.map((event) => (event.after as { email: string }).email)).toEqual([newcomer, known.email]);
  });

  it('signs in once, lists the clinics with their levels and switches between them', async () => {
    const { a, b, membershipInB } = await dentistInTwoClinics();
    const session = await signIn(t.app, a.email, testPassword, true);
    // Sign-in opens the clinic last entered: A (the only one so far).
    expect(session.user.account.id).toBe(a.accountId);
    const profile = await me(session.token);
    expect(profile.clinics).toEqual([
      { id: a.accountId, clinicName: expect.any(String), level: 'administrator' },
      { id: b.accountId, clinicName: expect.any(String), level: 'user' },
    ]);

    const switched = await switchTo(session.token, b.accountId);
    expect(switched.statusCode, switched.body).toBe(200);
    const inB = switched.json();
    expect(inB.code).toBe('clinic_switched');
    expect(inB.data.user).toMatchObject({ id: membershipInB, level: 'user', account: { id: b.accountId } });
    // Same remember choice and expiry; the old token is revoked.
    expect(inB.data.expiresAt).toBe(session.expiresAt);
    expect(inB.data.remember).toBe(true);
    const [row] = (
      await t.db.orm.execute<{ remember: boolean }>(
        sql`select remember from sessions where account_id = ${b.accountId} and user_id = ${membershipInB}`,
      )
    ).rows;
    expect(row?.remember).toBe(true);
    expect((await t.call('GET', '/api/auth/system/me', { token: session.token })).statusCode).toBe(401);
    expect((await me(inB.data.token)).account.id).toBe(b.accountId);

    // Audited in both clinics; the first entry into B accepts the invitation.
    expect(await t.auditEvents('clinic_switched_out', a)).toHaveLength(1);
    expect(await t.auditEvents('clinic_switched_in', b)).toHaveLength(1);
    expect(await t.auditEvents('invitation_accepted', b)).toHaveLength(1);
    expect(await t.auditEvents('clinic_switched_in', a)).toHaveLength(0);
    const users = await t.call('GET', '/api/users', { token: b.token });
    expect(users.json().data.find((user: { id: string }) => user.id === membershipInB).activatedAt).not.toBeNull();

    // The next sign-in opens B, the clinic last entered.
    await t.call('POST', '/api/auth/sign-out', { token: inB.data.token });
    const again = await signIn(t.app, a.email);
    expect(again.user.account.id).toBe(b.accountId);
  });

  it("shows each clinic only its own rows after switching, and applies each clinic's level", async () => {
    const { a, b } = await dentistInTwoClinics();
    const patientOfA = await createTestPatient(t.app, a.token);
    const patientOfB = await createTestPatient(t.app, b.token);
    const session = await signIn(t.app, a.email);
    const patientIds = async (token: string) =>
      (await t.call('GET', '/api/patients?pageSize=100', { token })).json().data.map((p: { id: string }) => p.id);

    expect(await patientIds(session.token)).toEqual([patientOfA]);
    expect((await t.call('GET', '/api/users', { token: session.token })).statusCode).toBe(200);

    const inB: Session = (await switchTo(session.token, b.accountId)).json().data;
    expect(await patientIds(inB.token)).toEqual([patientOfB]);
    // A user in B: no users administration, and A's patient is not found from B.
    const users = await t.call('GET', '/api/users', { token: inB.token });
    expect(users.statusCode).toBe(403);
    expect(users.json().code).toBe('forbidden');
    expect((await t.call('GET', `/api/patients/${patientOfA}`, { token: inB.token })).statusCode).toBe(404);

    const backInA: Session = (await switchTo(inB.token, a.accountId)).json().data;
    expect(await patientIds(backInA.token)).toEqual([patientOfA]);
    expect((await t.call('GET', '/api/users', { token: backInA.token })).statusCode).toBe(200);
  });

  it('refuses 404 a clinic the person may not enter', async () => {
    const { a, b, membershipInB } = await dentistInTwoClinics();
    const stranger = await t.newClinic();
    const session = await signIn(t.app, a.email);
    for (const accountId of [stranger.accountId, '01900000-0000-7000-8000-000000000000']) {
      const refused = await switchTo(session.token, accountId);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().code).toBe('clinic_not_found');
    }
    // Not valid: a validation error, not a clinic.
    expect((await switchTo(session.token, 'not-a-clinic')).statusCode).toBe(400);
    // The session is still good after a refusal.
    expect((await me(session.token)).account.id).toBe(a.accountId);

    // Deactivated in B: B is no longer listed nor reachable.
    const version = (await t.call('GET', '/api/users', { token: b.token }))
      .json()
      .data.find((user: { id: string }) => user.id === membershipInB).version;
    const deactivated = await t.call('PATCH', `/api/users/${membershipInB}`, {
      token: b.token,
      body: { active: false, version },
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((await me(session.token)).clinics.map((clinic: { id: string }) => clinic.id)).toEqual([a.accountId]);
    expect((await switchTo(session.token, b.accountId)).json().code).toBe('clinic_not_found');
  });

  it('deactivating the membership in one clinic ends its sessions there and leaves the other', async () => {
    const { a, b, membershipInB } = await dentistInTwoClinics();
    const first = await signIn(t.app, a.email);
    const inB: Session = (await switchTo(first.token, b.accountId)).json().data;
    const inA = await signIn(t.app, a.email); // opens B, the clinic last entered
    expect(inA.user.account.id).toBe(b.accountId);
    const version = (await t.call('GET', '/api/users', { token: b.token }))
      .json()
      .data.find((user: { id: string }) => user.id === membershipInB).version;
    await t.call('PATCH', `/api/users/${membershipInB}`, { token: b.token, body: { active: false, version } });
    expect((await t.call('GET', '/api/auth/system/me', { token: inB.token })).statusCode).toBe(401);
    // Sign-in still works and opens A, the clinic left to the person.
    const after = await signIn(t.app, a.email);
    expect(after.user.account.id).toBe(a.accountId);
    expect((await me(after.token)).clinics).toHaveLength(1);
  });

  it('keeps the lock and the read-only state per session and per clinic', async () => {
    const { a, b } = await dentistInTwoClinics();
    // B's contract ended 30 days ago: past its 10 grace days, read-only.
    await t.db.withSystem((tx) =>
      tx.execute(sql`update accounts set plan = 'basic', renewal_requested_at = null,
        plan_ends_at = ${new Date(Date.now() - 30 * 86_400_000).toISOString()}::timestamptz where id = ${b.accountId}::uuid`),
    );
    const session = await signIn(t.app, a.email);
    const patient = { firstName: 'Marta', lastName: 'Ruiz', sex: 'female', birthdate: '1979-03-01' };
    expect((await t.call('POST', '/api/patients', { token: session.token, body: patient })).statusCode).toBe(201);

    // A locked session moves nowhere until it is unlocked.
    await t.call('POST', '/api/auth/lock', { token: session.token });
    const locked = await switchTo(session.token, b.accountId);
    expect(locked.statusCode).toBe(401);
    expect(locked.json().code).toBe('session_locked');
    const unlocked = await t.call('POST', '/api/auth/unlock', {
      token: session.token,
      body: { password: testPassword },
    });
    expect(unlocked.statusCode).toBe(200);

    // Switching into (and out of) a read-only clinic works; writing there does not.
    const inB: Session = (await switchTo(session.token, b.accountId)).json().data;
    expect((await me(inB.token)).account.contractState).toBe('read_only');
    const refused = await t.call('POST', '/api/patients', { token: inB.token, body: patient });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('account_read_only');
    const backInA = await switchTo(inB.token, a.accountId);
    expect(backInA.statusCode).toBe(200);
    const token = backInA.json().data.token as string;
    expect((await me(token)).account.contractState).toBe('active');
    expect((await t.call('POST', '/api/patients', { token, body: patient })).statusCode).toBe(201);
  });

  it('one password change ends the sessions in both clinics and works in both', async () => {
    const { a, b, membershipInB } = await dentistInTwoClinics();
    const elsewhere = await signIn(t.app, a.email); // A, on another computer
    const here = await signIn(t.app, a.email);
    const inB: Session = (await switchTo(here.token, b.accountId)).json().data;
    const password = 'una clave nueva para las dos';
    const changed = await t.call('POST', '/api/auth/system/password', {
      token: inB.token,
      body: { currentPassword: testPassword, password, passwordConfirmation: password },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // The clinic admin's own session in A (another person) is untouched; the dentist's is ended.
    expect((await t.call('GET', '/api/auth/system/me', { token: elsewhere.token })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/auth/system/me', { token: inB.token })).statusCode).toBe(200);
    expect(
      (await t.call('POST', '/api/auth/sign-in', { token: null, body: { email: a.email, password: testPassword } }))
        .statusCode,
    ).toBe(401);
    const next = await signIn(t.app, a.email, password);
    expect(next.user.account.id).toBe(b.accountId);
    expect((await switchTo(next.token, a.accountId)).statusCode).toBe(200);

    const inBEvents = await t.auditEvents('password_changed', b);
    expect(inBEvents.map((event) => [event.userId, event.after])).toEqual([[membershipInB, { sessionsEnded: 0 }]]);
    const inAEvents = await t.auditEvents('password_changed', a);
    expect(inAEvents.map((event) => event.after)).toEqual([{ sessionsEnded: 2, elsewhere: true }]);
  });

  it('a password reset sets the password of every clinic and ends every session', async () => {
    const { a, b } = await dentistInTwoClinics();
    const session = await signIn(t.app, a.email);
    const inB: Session = (await switchTo(session.token, b.accountId)).json().data;
    const forgot = await t.call('POST', '/api/auth/forgot-password', { token: null, body: { email: a.email } });
    expect(forgot.statusCode).toBe(200);
    const password = 'clave restablecida 2026';
    const reset = await t.call('POST', `/api/auth/reset-password/${t.mailer.tokenFor(a.email)}`, {
      token: null,
      body: { password, passwordConfirmation: password },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await t.call('GET', '/api/auth/system/me', { token: inB.token })).statusCode).toBe(401);
    const next = await signIn(t.app, a.email, password);
    expect((await switchTo(next.token, a.accountId)).statusCode).toBe(200);
  });

  it('a sign-up with an address known elsewhere answers the same and joins the sign-in once activated', async () => {
    const owner = await t.newClinic();
    const fresh = await t.call('POST', '/api/auth/sign-up', { token: null, body: signUpBody() });
    const body = signUpBody({
      email: owner.email,
      clinicName: 'Clínica del Centro',
      password: 'clave que nadie usará',
      passwordConfirmation: 'clave que nadie usará',
    });
    const signUp = await t.call('POST', '/api/auth/sign-up', { token: null, body });
    expect(signUp.statusCode).toBe(fresh.statusCode);
    expect(signUp.json()).toEqual(fresh.json());
    const session = await signIn(t.app, owner.email);
    expect((await me(session.token)).clinics).toHaveLength(1);

    const activated = await t.call('POST', `/api/auth/activation/${t.mailer.tokenFor(owner.email)}`, { token: null });
    expect(activated.statusCode).toBe(200);
    const clinics = (await me(session.token)).clinics;
    expect(clinics.map((clinic: { clinicName: string; level: string }) => [clinic.clinicName, clinic.level])).toEqual([
      [expect.any(String), 'administrator'],
      ['Clínica del Centro', 'administrator'],
    ]);
    // The password typed at that sign-up was never the person's.
    expect(
      (
        await t.call('POST', '/api/auth/sign-in', {
          token: null,
          body: { email: owner.email, password: body.password },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('a sign-up nobody activated cannot give its password to an invitation', async () => {
    // Someone signs up with an address they do not read, then a clinic invites that address.
    const victim = `victima.${Date.now()}@clinica.test`;
    const squatter = 'la clave del intruso';
    await t.call('POST', '/api/auth/sign-up', {
      token: null,
      body: signUpBody({ email: victim, password: squatter, passwordConfirmation: squatter }),
    });
    const inviter = await t.newClinic();
    expect((await invite(inviter, victim)).statusCode).toBe(201);
    // The signed-up password opens nothing: the invitation still asks the mailbox for a password.
    const tried = await t.call('POST', '/api/auth/sign-in', {
      token: null,
      body: { email: victim, password: squatter },
    });
    expect(tried.json().code).toBe('account_not_activated');
    expect(t.mailer.lastTo(victim)?.link).toMatch(/auth\/reset_password\/.+/);
    const password = 'la clave de la dueña';
    await t.call('POST', `/api/auth/reset-password/${t.mailer.tokenFor(victim)}`, {
      token: null,
      body: { password, passwordConfirmation: password },
    });
    const session = await signIn(t.app, victim, password);
    expect(session.user.account.id).toBe(inviter.accountId);
  });
});
