import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { demoPassword, demoUsers, seedDemoClinic } from '../src/seed/demo.ts';
import { bearer, signIn } from './clinics.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * The demo clinic, seeded once for the file on an empty database, read by its administrator:
 * `get(url)` expects 200; `post(url, body)` answers as it comes (with an Idempotency-Key); `runJobs()` runs the due background
 * jobs; `db()` is the database, for what the API does not show.
 */
export function useDemoClinic() {
  let testApp: TestApp;
  let token: string;
  beforeAll(async () => {
    testApp = await createTestApp();
    expect(await seedDemoClinic(testApp.db, { dataDir: testApp.env.DATA_DIR })).toBe('created');
    token = (await signIn(testApp.app, demoUsers[0].email, demoPassword)).token;
  });
  afterAll(async () => {
    await testApp?.close();
  });
  return {
    get: async (url: string) => {
      const response = await testApp.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(response.statusCode, `${url} ${response.body}`).toBe(200);
      return response;
    },
    post: (url: string, payload: object = {}) =>
      testApp.app.inject({
        method: 'POST',
        url,
        headers: { ...bearer(token), 'idempotency-key': randomUUID() },
        payload,
      }),
    runJobs: () => testApp.app.jobs.runDue(),
    db: (): Database => testApp.db,
  };
}
