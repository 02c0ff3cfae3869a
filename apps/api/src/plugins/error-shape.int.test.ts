import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * Issue 35: every error is `{ code, message, details? }`, Fastify's own refusals too (the router's
 * 414 and bad escapes, the body parser's 400/413/415, unknown routes, the HTTP parser's 431):
 * a generated client has one error type to read.
 */
describe('errors Fastify raises itself', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const json = { 'content-type': 'application/json' };
  const cases: [string, InjectOptions, number, string][] = [
    [
      'a path segment over maxParamLength',
      { method: 'GET', url: `/api/patients/${'a'.repeat(200)}` },
      414,
      'uri_too_long',
    ],
    ['a malformed percent-escape', { method: 'GET', url: '/api/patients/%E0%A4%A' }, 400, 'bad_request'],
    ['an unknown route', { method: 'GET', url: '/api/no-such-thing' }, 404, 'route_not_found'],
    ['a very long unknown route', { method: 'GET', url: `/api/${'a'.repeat(20_000)}` }, 404, 'route_not_found'],
    [
      'a body that is not JSON',
      { method: 'POST', url: '/api/auth/sign-in', payload: '{bad', headers: json },
      400,
      'bad_request',
    ],
    [
      'a body nested thousands of levels deep (the idempotency hash and the safe parser recurse)',
      {
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
        headers: json,
      },
      400,
      'bad_request',
    ],
    [
      'a body over the limit',
      { method: 'POST', url: '/api/auth/sign-in', payload: 'x'.repeat(2 * 1024 * 1024), headers: json },
      413,
      'payload_too_large',
    ],
    [
      'a media type without a parser',
      { method: 'POST', url: '/api/auth/sign-in', payload: '<a/>', headers: { 'content-type': 'application/xml' } },
      415,
      'unsupported_media_type',
    ],
  ];

  it.each(cases)('%s answers the error shape', async (_name, options, status, code) => {
    const answer = await testApp.app.inject(options);
    expect(answer.statusCode).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const body = answer.json();
    expect(body).toEqual({ code, message: expect.any(String) });
    expect(body.message).not.toBe(code);
  });

  it('headers over the HTTP parser limit answer 431 in the error shape', async () => {
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = testApp.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const call = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `/api/health?${'a'.repeat(20_000)}`,
          headers: { 'x-big': 'b'.repeat(20_000) },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, type: String(response.headers['content-type']), body }),
          );
        },
      );
      call.on('error', reject);
      call.end();
    });
    expect(answer.status).toBe(431);
    expect(answer.type).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ code: 'headers_too_large', message: expect.any(String) });
  });
});
