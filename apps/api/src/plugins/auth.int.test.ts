import { userLevels } from '@odontia/shared/enums';
import { can, type PermissionAction, permissionActions } from '@odontia/shared/permissions';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestClinic, setLevel, signIn } from '../../test/clinics.ts';
import { MemoryMailer } from '../../test/mail.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { newId } from '../lib/ids.ts';
import { sessionOf } from './auth.ts';

/** Every API route declares its permission; every clinic-owned table is under RLS; clinics never meet. */
describe('authorization and clinic isolation', () => {
  let testApp: TestApp;
  const mailer = new MemoryMailer();

  beforeAll(async () => {
    testApp = await createTestApp({
      mailer,
      configure(instance) {
        // A data route as later issues write them: the handler runs in the session's clinic.
        instance.get('/api/test/users', { config: { permission: 'patients.read' } }, async (request) => {
          const rows = await request.tenant(
            async (tx) =>
              (await tx.execute<{ id: string; account_id: string }>(sql`select id, account_id from users`)).rows,
          );
          return { data: rows, accountId: sessionOf(request).accountId };
        });
        instance.get('/api/test/sessions/:id', { config: { permission: 'patients.read' } }, async (request, reply) => {
          const { id } = request.params as { id: string };
          const rows = await request.tenant(
            async (tx) => (await tx.execute(sql`select id from sessions where id = ${id}`)).rows,
          );
          if (rows.length === 0) return reply.status(404).send({ code: 'not_found', message: 'not found' });
          return { data: rows[0] };
        });
      },
    });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('registers every API route with a known permission', () => {
    const known = new Set(['public', 'authenticated', ...permissionActions]);
    const routes = testApp.app.apiRoutes;
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) expect(known.has(route.permission), `${route.method} ${route.url}`).toBe(true);
    const byUrl = Object.fromEntries(routes.map((route) => [`${route.method} ${route.url}`, route.permission]));
    expect(byUrl).toMatchObject({
      'GET /api/health': 'public',
      'POST /api/auth/sign-in': 'public',
      'GET /api/auth/system/me': 'authenticated',
      'POST /api/auth/unlock': 'authenticated',
    });
    expect(routes.some((route) => route.url.startsWith('/api/docs'))).toBe(true);
  });

  it('refuses to start when an API route declares no permission', async () => {
    await expect(
      createTestApp({
        configure(instance) {
          instance.get('/api/test/undeclared', async () => ({ data: 'x' }));
        },
      }),
    ).rejects.toThrow('Route GET /api/test/undeclared declares no permission');
  });

  it('puts every table with an account_id column, and accounts, under forced row-level security', async () => {
    const { rows } = await testApp.db.orm.execute<{
      table: string;
      enabled: boolean;
      forced: boolean;
      policies: number;
    }>(sql`
      select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
             -- The clinic's two policies; the portal's per-patient one (issue 37) comes on top.
             (select count(*)::int from pg_policy p where p.polrelid = c.oid and p.polname <> 'patient_isolation') as policies
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and (c.relname = 'accounts' or exists (
          select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'account_id' and not a.attisdropped))
      order by 1`);
    expect(rows.map((row) => row.table)).toEqual(
      expect.arrayContaining([
        'account_counters',
        'accounts',
        'attendance_addenda',
        'attendance_items',
        'attendance_lines',
        'attendances',
        'audit_events',
        'auth_tokens',
        'diagnoses',
        'inventory_items',
        'laboratories',
        'patients',
        'sessions',
        'stock_movements',
        'users',
      ]),
    );
    for (const row of rows) expect(row, row.table).toMatchObject({ enabled: true, forced: true, policies: 2 });
  });

  it("a clinic's session never sees another clinic's users, sessions or clinic row", async () => {
    const app = testApp.app;
    const clinicA = await createTestClinic(app, mailer);
    const clinicB = await createTestClinic(app, mailer);
    await signIn(app, clinicB.email);

    const listA = await app.inject({ method: 'GET', url: '/api/test/users', headers: bearer(clinicA.token) });
    expect(listA.json().data).toEqual([{ id: clinicA.userId, account_id: clinicA.accountId }]);

    const [sessionB] = (
      await testApp.db.orm.execute<{ id: string }>(
        sql`select id from sessions where user_id = ${clinicB.userId} limit 1`,
      )
    ).rows;
    const crossed = await app.inject({
      method: 'GET',
      url: `/api/test/sessions/${sessionB?.id}`,
      headers: bearer(clinicA.token),
    });
    expect(crossed.statusCode).toBe(404);

    const seen = await testApp.db.withTenant(clinicA.accountId, async (tx) => ({
      accounts: (await tx.execute<{ id: string }>(sql`select id from accounts`)).rows.map((row) => row.id),
      sessions: (await tx.execute<{ account_id: string }>(sql`select distinct account_id from sessions`)).rows,
      audit: (await tx.execute<{ account_id: string }>(sql`select distinct account_id from audit_events`)).rows,
    }));
    expect(seen.accounts).toEqual([clinicA.accountId]);
    expect(seen.sessions).toEqual([{ account_id: clinicA.accountId }]);
    expect(seen.audit).toEqual([{ account_id: clinicA.accountId }]);
    // The app role cannot create a clinic or write into another one.
    await expect(
      testApp.db.withTenant(clinicA.accountId, (tx) =>
        tx.execute(sql`update users set complete_name = 'x' where account_id = ${clinicB.accountId} returning id`),
      ),
    ).resolves.toMatchObject({ rows: [] });
    await expect(
      testApp.db.withTenant(clinicA.accountId, (tx) =>
        tx.execute(sql`insert into accounts (id, clinic_name, contact, system_currency, time_zone)
                       values (gen_random_uuid(), 'x', 'x', 'euro', 'UTC')`),
      ),
    ).rejects.toThrow();
  });

  it('keeps clinics apart under 500 interleaved concurrent requests', async () => {
    const app = testApp.app;
    const clinics = [await createTestClinic(app, mailer), await createTestClinic(app, mailer)];
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, index) => {
        const clinic = clinics[index % 2];
        if (!clinic) throw new Error('no clinic');
        return app
          .inject({ method: 'GET', url: '/api/test/users', headers: bearer(clinic.token) })
          .then((response) => ({ clinic, body: response.json() }));
      }),
    );
    for (const { clinic, body } of answers) {
      expect(body.data).toEqual([{ id: clinic.userId, account_id: clinic.accountId }]);
    }
  }, 120_000);

  it("declares a commercial route's DELETE with commercial.delete (the user level has no commercial deletes)", () => {
    const commercialDeletes = testApp.app.apiRoutes.filter(
      (route) => route.method.split(',').includes('DELETE') && route.permission.startsWith('commercial.'),
    );
    expect(commercialDeletes.map((route) => route.url)).toContain('/api/sales/:id');
    expect(
      commercialDeletes.filter((route) => route.permission !== 'commercial.delete').map((route) => route.url),
    ).toEqual([]);
  });

  it('answers every route of a permission action as the matrix says, for every level', async () => {
    const app = testApp.app;
    const clinic = await createTestClinic(app, mailer);
    const routes = app.apiRoutes.filter(
      (route) => route.permission !== 'public' && route.permission !== 'authenticated' && !route.url.includes('/test/'),
    );
    expect(routes.length).toBeGreaterThan(0);
    for (const level of userLevels) {
      await setLevel(testApp.db, clinic.userId, level);
      for (const route of routes) {
        const url = route.url.replace(/:[A-Za-z]+/g, newId());
        for (const method of route.method.split(',').filter((name) => name !== 'HEAD')) {
          const response = await app.inject({
            method: method as 'GET',
            url,
            headers: bearer(clinic.token),
            ...(method === 'GET' ? {} : { payload: {} }),
          });
          const allowed = can(level, route.permission as PermissionAction);
          expect(response.statusCode === 403, `${level} ${method} ${route.url} → ${response.statusCode}`).toBe(
            !allowed,
          );
          expect(response.statusCode).not.toBe(401);
        }
      }
    }
  });
});
