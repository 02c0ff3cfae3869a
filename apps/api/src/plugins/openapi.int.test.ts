import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { operationIdOf } from './openapi.ts';

type Schema = Record<string, unknown>;

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
  let schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }>;

  beforeAll(async () => {
    testApp = await createTestApp();
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    paths = document.paths;
    schemas = document.components?.schemas ?? {};
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

  it('names the main records in components.schemas and references them (issue 35)', () => {
    const named = ['Patient', 'Appointment', 'Sale', 'Purchase', 'Collection', 'Payment', 'Customer', 'Provider'];
    named.push('InventoryItem', 'Attendance', 'Budget', 'ApiError');
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(named));
    const json = (operation: Operation | undefined, status: string) =>
      operation?.responses?.[status]?.content?.['application/json']?.schema;
    expect(json(paths['/api/patients/{patientId}']?.get, '200')).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/Patient' } },
    });
    expect(json(paths['/api/sales']?.get, '200')).toMatchObject({
      properties: { data: { items: { $ref: '#/components/schemas/SaleListItem' } } },
    });
    expect(json(paths['/api/sales']?.post, '201')).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/Sale' } },
    });
    expect(json(paths['/api/patients']?.post, '4XX')).toEqual({ $ref: '#/components/schemas/ApiError' });
  });

  it('gives dates, instants and amounts their format and pattern, in answers and requests', () => {
    const patient = schemas.Patient?.properties ?? {};
    expect(patient.birthdate).toMatchObject({ type: 'string', format: 'date' });
    expect(patient.createdAt).toMatchObject({ type: 'string', format: 'date-time' });
    const sale = schemas.Sale?.properties ?? {};
    expect(sale.date).toMatchObject({ format: 'date' });
    expect(sale.total).toMatchObject({ type: 'string', pattern: '^-?[0-9]+\\.[0-9]{2}$' });
    expect(sale.total?.description).toMatch(/decimal/);
    const line = schemas.SaleLine?.properties ?? {};
    expect(line.quantity).toMatchObject({ pattern: '^-?[0-9]+(\\.[0-9]+)?$' });
    const body = paths['/api/patients']?.post as { requestBody?: { content: Record<string, { schema: Schema }> } };
    const fields = body.requestBody?.content['application/json']?.schema.properties as Record<string, Schema>;
    expect(fields.birthdate).toMatchObject({ type: 'string', format: 'date' });
  });

  it('declares the media type of every file it answers, as bytes', () => {
    const files: string[] = [];
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const success = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
        for (const [status, answer] of success) {
          const where = `${method.toUpperCase()} ${path} ${status}`;
          expect(Object.keys(answer.content ?? {}), where).not.toEqual([]);
          for (const [type, { schema }] of Object.entries(answer.content ?? {})) {
            if (type === 'application/json') continue;
            files.push(`${method.toUpperCase()} ${path} ${type}`);
            expect(schema, where).toEqual({ type: 'string', format: 'binary' });
          }
        }
      }
    }
    // Every PDF, CSV, XLSX, image and patient file (23 operations; reports answer several types).
    expect(files.length).toBeGreaterThanOrEqual(23);
    expect(files).toContain('GET /api/sales/{id}/pdf application/pdf');
    expect(files).toContain('GET /api/providers/export.csv text/csv');
    expect(files).toContain('GET /api/patients/{patientId}/files/{id}/content application/pdf');
    expect(files).toContain(
      'GET /api/reports/{reportId} application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
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
