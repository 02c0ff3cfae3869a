import { openApiPath } from '@odontia/shared/api-route';
import { declaredRoutes } from '@odontia/shared/routes/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * Issue 36: a route declared once in packages/shared is the route the server serves and documents.
 * Each declaration's method and path are served, and the OpenAPI document has the operation with
 * the declared parameters, query, body, answer status and Idempotency-Key; a declaration the server
 * forgot to serve (or serves elsewhere) fails here by name.
 */

interface Operation {
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

const declarations = Object.entries(declaredRoutes).flatMap(([resource, routes]) =>
  Object.entries(routes).map(([name, route]) => ({ name: `${resource}.${name}`, route })),
);

describe('every route declared in packages/shared', () => {
  let testApp: TestApp;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    testApp = await createTestApp({ backend: 'pglite' });
    paths = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths;
  });
  afterAll(() => testApp?.close());

  it('declares some routes', () => {
    expect(declarations.length).toBeGreaterThan(0);
  });

  it.each(declarations)('$name is served and documented as declared', ({ route }) => {
    const url = `/api${route.path}`;
    expect(testApp.app.hasRoute({ method: route.method, url }), `${route.method} ${url} is served`).toBe(true);
    const operation = paths[`/api${openApiPath(route.path)}`]?.[route.method.toLowerCase()];
    expect(operation, `${route.method} ${url} is in the OpenAPI document`).toBeDefined();
    const parameters = operation?.parameters ?? [];
    const pathNames = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]);
    expect(parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(pathNames),
    );
    const queryNames = parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
    const declaredQuery = route.query && 'shape' in route.query ? Object.keys(route.query.shape as object) : [];
    expect(queryNames.sort()).toEqual(declaredQuery.sort());
    expect(operation?.requestBody !== undefined, 'a request body exactly when one is declared').toBe(
      route.body !== undefined,
    );
    expect(Object.keys(operation?.responses ?? {})).toContain(String(route.status ?? 200));
    const key = parameters.find((parameter) => parameter.in === 'header' && parameter.name === 'idempotency-key');
    expect(Boolean(key?.required), 'Idempotency-Key required exactly when declared').toBe(Boolean(route.idempotent));
  });
});
