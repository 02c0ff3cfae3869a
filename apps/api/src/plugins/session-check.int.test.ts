import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestClinic, signIn, type TestClinic } from '../../test/clinics.ts';
import { MemoryMailer } from '../../test/mail.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { availableBackends } from '../../test/test-database.ts';

/**
 * The request path of issue 15: the bearer token is checked by one statement on every request
 * (nothing cached), and a GET of one patient is one tenant transaction.
 */
describe.each(availableBackends())('the session check of each request on %s', (backend) => {
  let testApp: TestApp;
  let clinic: TestClinic;
  let patientId: string;
  const mailer = new MemoryMailer();

  const getPatient = (token: string) =>
    testApp.app.inject({ method: 'GET', url: `/api/patients/${patientId}`, headers: bearer(token) });
  const freshToken = async () => (await signIn(testApp.app, clinic.email)).token;
  const exec = (query: ReturnType<typeof sql>) => testApp.db.orm.execute(query);

  beforeAll(async () => {
    testApp = await createTestApp({ backend, mailer });
    clinic = await createTestClinic(testApp.app, mailer);
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/api/patients',
      headers: bearer(clinic.token),
      payload: { firstName: 'Lucía', lastName: 'Benítez', sex: 'female', birthdate: '1990-04-02' },
    });
    expect(created.statusCode).toBe(201);
    patientId = created.json().data.id;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  /** A request that passes, `change` in the database, then the very next request: refused with `code`. */
  async function refusedAfter(change: ReturnType<typeof sql>, code: string): Promise<string> {
    const token = await freshToken();
    expect((await getPatient(token)).statusCode).toBe(200);
    await exec(change);
    const refused = await getPatient(token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe(code);
    return token;
  }
  const openSessions = () => sql`revoked_at is null and user_id = ${clinic.userId}`;

  it('refuses a session revoked between two requests on the very next one', async () => {
    await refusedAfter(sql`update sessions set revoked_at = now() where ${openSessions()}`, 'unauthorized');
  });

  it('refuses a session that expired between two requests', async () => {
    await refusedAfter(
      sql`update sessions set expires_at = now() - interval '1 second' where ${openSessions()}`,
      'session_expired',
    );
  });

  it('refuses a session locked between two requests, but me still answers it is locked', async () => {
    const token = await refusedAfter(
      sql`update sessions set locked_at = now() where ${openSessions()}`,
      'session_locked',
    );
    const me = await testApp.app.inject({ method: 'GET', url: '/api/auth/system/me', headers: bearer(token) });
    expect(me.json().data.locked).toBe(true);
  });

  it('refuses the session of a user deactivated between two requests', async () => {
    try {
      await refusedAfter(sql`update users set active = false where id = ${clinic.userId}`, 'unauthorized');
    } finally {
      await exec(sql`update users set active = true where id = ${clinic.userId}`);
    }
  });

  it('answers 401 before validating the body', async () => {
    const token = await freshToken();
    await exec(sql`update sessions set revoked_at = now() where ${openSessions()}`);
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/patients',
      headers: bearer(token),
      payload: { firstName: 42 },
    });
    expect(response.statusCode).toBe(401);
  });

  it('runs a GET of one patient in one tenant transaction and no system transaction', async () => {
    const token = await freshToken();
    const withTenant = vi.spyOn(testApp.db, 'withTenant');
    const withSystem = vi.spyOn(testApp.db, 'withSystem');
    try {
      expect((await getPatient(token)).statusCode).toBe(200);
      expect(withTenant).toHaveBeenCalledTimes(1);
      expect(withSystem).not.toHaveBeenCalled();
    } finally {
      withTenant.mockRestore();
      withSystem.mockRestore();
    }
  });

  it('the check leaves the caller in its own context when called inside a transaction', async () => {
    const context = await testApp.db.withTenant(clinic.accountId, async (tx) => {
      await tx.execute(sql`select * from odontia_session_check('no-such-token', now(), false, 30000)`);
      const { rows } = await tx.execute<{ who: string; account: string }>(
        sql`select current_user as who, current_setting('app.account_id') as account`,
      );
      return rows[0];
    });
    expect(context).toEqual({ who: 'odontia_app', account: clinic.accountId });
  });
});
