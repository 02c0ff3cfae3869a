import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

describe('GET /api/health', () => {
  let testApp: TestApp | undefined;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  it('answers 200 after a database round trip', async () => {
    testApp = await createTestApp();
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      database: testApp.db.kind,
      databaseLatencyMs: expect.any(Number),
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      uptimeSeconds: expect.any(Number),
    });
  });

  it('answers 503 service_unavailable when the database does not answer', async () => {
    testApp = await createTestApp();
    const { app, db } = testApp;
    await db.close();
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('service_unavailable');
  });

  it('lives under the base path', async () => {
    testApp = await createTestApp({ env: { BASE_PATH: '/clinica/' } });
    expect((await testApp.app.inject({ method: 'GET', url: '/clinica/api/health' })).statusCode).toBe(200);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(404);
  });
});
