import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { operationIdOf } from './openapi.ts';

interface Operation {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

/**
 * The OpenAPI document is a contract others generate clients from: every operation has a unique
 * operationId, a summary, its security (empty for public ones), a success and an error answer,
 * and no nullable schema without a type (what `redocly lint` checks; CI runs it too).
 */
describe('the OpenAPI document', () => {
  let testApp: TestApp;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    testApp = await createTestApp();
    paths = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths;
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('gives every operation a unique operationId, a summary, security, a 2XX and a 4XX answer', () => {
    const operations = Object.entries(paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.length).toBeGreaterThan(80);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(operation.summary, where).toBeTruthy();
      expect(operation.security, where).toBeDefined();
      const statuses = Object.keys(operation.responses ?? {});
      expect(
        statuses.some((status) => status.startsWith('2')),
        where,
      ).toBe(true);
      expect(statuses, where).toContain('4XX');
    }
    expect(paths['/api/patients/{patientId}/diagnoses/{id}']?.get?.operationId).toBe('getPatientsDiagnosesById');
    expect(paths['/api/auth/sign-in']?.post?.security).toEqual([]);
  });

  it('types every nullable schema (OpenAPI 3.0)', () => {
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (schema.nullable === true && schema.type === undefined) untyped.push(at);
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`);
    };
    walk(paths, '#/paths');
    expect(untyped).toEqual([]);
  });

  it('derives operationIds from the method and the path words', () => {
    expect(operationIdOf('GET', '/patients')).toBe('getPatients');
    expect(operationIdOf('PUT', '/patients/:patientId/attendances/:id')).toBe('putPatientsAttendancesById');
    expect(operationIdOf('GET', '/patients/:patientId/laboratories/:id/order.pdf')).toBe(
      'getPatientsLaboratoriesOrderPdf',
    );
    expect(operationIdOf(['POST'], '/auth/sign-in')).toBe('postAuthSignIn');
  });
});
