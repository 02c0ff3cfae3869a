import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { AppError } from './lib/app-error.ts';

/** The conventions every route inherits: error bodies, 404s, headers, OpenAPI. */
describe('application conventions', () => {
  let testApp: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    testApp = await createTestApp({
      configure(instance) {
        const typed = instance.withTypeProvider<ZodTypeProvider>();
        typed.post(
          '/api/test/echo',
          {
            config: { permission: 'public' },
            schema: {
              body: z.object({
                email: z.email(),
                name: z.string().trim().min(1),
                age: z.number().int().min(0).optional(),
                address: z.object({ zipCode: z.string().min(4) }).optional(),
              }),
            },
          },
          async (request) => ({ data: request.body }),
        );
        typed.delete('/api/test/thing', { config: { permission: 'public' } }, async () => ({
          code: 'patient_deleted',
        }));
        typed.get('/api/test/missing-patient', { config: { permission: 'public' } }, async () => {
          throw new AppError('patient_not_found');
        });
        typed.get('/api/test/crash', { config: { permission: 'public' } }, async () => {
          // What a driver error looks like: SQL and a stack must never reach the client.
          await instance.db.orm.execute('select * from table_that_does_not_exist where secret = 1');
          return {};
        });
      },
    });
    app = testApp.app;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('answers 404 JSON for an unknown API path, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await app.inject({ method, url: '/api/no-such-thing' });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toMatchObject({ code: 'route_not_found', message: expect.any(String) });
    }
  });

  /** Posts `payload` (raw text) to the echo route as `contentType`. */
  const echo = (payload: string, contentType = 'application/json') =>
    app.inject({ method: 'POST', url: '/api/test/echo', headers: { 'content-type': contentType }, payload });

  it('lists the invalid fields of a validation error with their message codes', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'not-an-email', name: '   ', age: 'ten', address: { zipCode: '1' } },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('validation_error');
    expect(body.message).toEqual(expect.any(String));
    expect(body.details.fields).toEqual(
      expect.arrayContaining([
        { path: 'email', code: 'invalid_email' },
        { path: 'name', code: 'required' },
        { path: 'age', code: 'invalid_number' },
        { path: 'address.zipCode', code: 'too_short', min: 4 },
      ]),
    );
  });

  it('reports a missing required field as required', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { name: 'Ana' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().details.fields).toEqual([{ path: 'email', code: 'required' }]);
  });

  it('accepts a valid body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { email: 'ana@example.com', name: ' Ana ' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { email: 'ana@example.com', name: 'Ana' } });
  });

  it('turns an AppError into its status and code', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/missing-patient' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'patient_not_found', message: expect.any(String) });
    expect(response.json().message).not.toBe('patient_not_found');
  });

  it('answers 500 without stack, SQL or driver message', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'internal_server_error', message: expect.any(String) });
    for (const leak of ['table_that_does_not_exist', 'select', 'secret', ' at ', '.ts:', 'stack']) {
      expect(response.body.toLowerCase()).not.toContain(leak);
    }
  });

  it('answers 400, not 500, for malformed JSON and 415 for another media type', async () => {
    const malformed = await echo('{"email": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('bad_request');

    const xml = await echo('<a/>', 'application/xml');
    expect(xml.statusCode).toBe(415);
    expect(xml.json().code).toBe('unsupported_media_type');
  });

  it('takes an empty JSON body as no body, as the web client sends on DELETE', async () => {
    const response = await app.inject({
      method: 'DELETE',
      url: '/api/test/thing',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ code: 'patient_deleted' });
  });

  it('refuses prototype poisoning in JSON', async () => {
    const response = await echo('{"email":"a@b.co","name":"x","__proto__":{"admin":true}}');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('bad_request');
  });

  it('answers 413 for a body over the limit', async () => {
    const response = await echo(JSON.stringify({ email: 'a@b.co', name: 'x'.repeat(2 * 1024 * 1024) }));
    expect(response.statusCode).toBe(413);
    expect(response.json().code).toBe('payload_too_large');
  });

  it('sends security headers with a same-origin-only CSP', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toMatch(/https?:/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('gives every answer a request id, keeping a safe one from the caller', async () => {
    const generated = await app.inject({ method: 'GET', url: '/api/health' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'proxy-123' } });
    expect(kept.headers['x-request-id']).toBe('proxy-123');
    const unsafe = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'bad id\nforged log line' },
    });
    expect(unsafe.headers['x-request-id']).not.toContain('forged');
  });

  it('publishes the OpenAPI document and its UI at /api/docs', async () => {
    const ui = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
    const document = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(document.statusCode).toBe(200);
    expect(document.json().paths).toHaveProperty('/api/health');
    expect(Object.keys(document.json().paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/sign-in',
        '/api/auth/system/me',
        '/api/users/{id}',
        '/api/medications',
        '/api/supplies/{id}/stock-movements',
        '/api/inventory/reorder',
        '/api/patients',
        '/api/patients/{patientId}/changes',
        '/api/patients/{patientId}/diagnoses/{id}/changes',
        '/api/patients/{patientId}/laboratories/{id}/order.pdf',
        '/api/patients/{patientId}/attendances/{id}/addenda',
      ]),
    );
  });
});
