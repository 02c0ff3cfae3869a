import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useAppPerTest } from '../../../test/test-app.ts';
import { migrationLockKey } from '../../db/client.ts';

describe('GET /api/health', () => {
  const startApp = useAppPerTest();

  it('answers 200 after a database round trip', async () => {
    const testApp = await startApp();
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      database: testApp.db.kind,
      databaseReachable: true,
      databaseLatencyMs: expect.any(Number),
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      uptimeSeconds: expect.any(Number),
    });
  });

  it('liveness stays 200 without the database (no restart for a database restart); readiness answers 503', async () => {
    const testApp = await startApp();
    const { app, db } = testApp;
    await db.close();
    const live = await app.inject({ method: 'GET', url: '/api/health' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ status: 'ok', databaseReachable: false, databaseLatencyMs: null });
    const ready = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ code: 'service_unavailable', details: { reason: 'database_unreachable' } });
  });

  it('readiness answers 200 when serving, 503 draining once shutting down', async () => {
    const testApp = await startApp();
    const { app, db } = testApp;
    const ready = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: db.kind, version: expect.any(String) });
    app.lifecycle.draining = true;
    const draining = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toMatchObject({ code: 'service_unavailable', details: { reason: 'draining' } });
    // Liveness is not readiness: the process still answers while it drains.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it.runIf(process.env.DATABASE_URL)(
    'readiness answers 503 migrations_running while an instance holds the migrations lock (PostgreSQL)',
    async () => {
      const testApp = await startApp({ backend: 'postgres' });
      const { app, db } = testApp;
      let unlock: () => void = () => {};
      let locked: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // Another instance migrating: it holds the lock for its whole run (a transaction's here).
      const migrating = db.withSystem(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${migrationLockKey})`);
        locked();
        await new Promise<void>((resolve) => {
          unlock = resolve;
        });
      });
      await held;
      const during = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(during.statusCode).toBe(503);
      expect(during.json()).toMatchObject({ details: { reason: 'migrations_running' } });
      unlock();
      await migrating;
      expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    },
  );

  it('lives under the base path', async () => {
    const testApp = await startApp({ env: { BASE_PATH: '/clinica/' } });
    expect((await testApp.app.inject({ method: 'GET', url: '/clinica/api/health' })).statusCode).toBe(200);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(404);
  });
});
