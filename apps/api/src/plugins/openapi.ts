import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { errorBodySchema } from '@odontia/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI document generated from the zod contracts; the UI at `<base>api/docs`. */
export const openApi = fp(
  async (app: FastifyInstance, options: { basePath: string; version: string }) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Odontia API',
          description:
            'Back office for dental and medical clinics. Every answer is JSON: `{ data }`, or `{ code, message, details? }` for an error.',
          version: options.version,
        },
        servers: [{ url: '/' }],
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
        },
      },
      // Only the API is documented (not the web app's pages); a public operation says so with an
      // empty `security`, as client generators and linters expect.
      transform: (input) => {
        const { route } = input as { route?: { config?: { permission?: string } } };
        const isApi = input.url === `${options.basePath}api` || input.url.startsWith(`${options.basePath}api/`);
        const schema = { ...(input.schema ?? {}) } as Record<string, unknown>;
        if (!isApi) schema.hide = true;
        else {
          if (route?.config?.permission === 'public' && schema.security === undefined) schema.security = [];
          schema.operationId ??= operationIdOf(input.route.method, input.url.slice(`${options.basePath}api`.length));
          // Every operation can answer an error body; the message code says which (docs/api.md).
          schema.response = { ...(schema.response as object), '4XX': errorBodySchema };
        }
        return jsonSchemaTransform({ ...input, schema } as Parameters<typeof jsonSchemaTransform>[0]);
      },
      transformObject: (documentObject) => {
        const document = (documentObject as { openapiObject: OpenApiDocument }).openapiObject;
        for (const operations of Object.values(document.paths ?? {})) {
          for (const operation of Object.values(operations)) {
            // A file answer (PDF, image, CSV) has no JSON contract; say it answers 200 anyway.
            operation.responses ??= {};
            const responses = operation.responses;
            if (!Object.keys(responses).some((status) => status.startsWith('2'))) {
              responses['200'] = { description: 'The file (PDF, image or CSV), as its content type says' };
            }
          }
        }
        nullableUnionsTyped(document);
        return document;
      },
    });
    await app.register(swaggerUi, {
      routePrefix: `${options.basePath}api/docs`,
      // The UI's own inline scripts are allowed by hash on its pages only.
      staticCSP: true,
    });
  },
  { name: 'openapi' },
);

/**
 * A stable operationId from the method and the path's words, for client generators:
 * `GET /patients/{patientId}/diagnoses/{id}` → `getPatientsDiagnosesById`.
 */
export function operationIdOf(method: string | string[], path: string): string {
  const verb = (Array.isArray(method) ? method[0] : method)?.toLowerCase() ?? 'get';
  const words = path
    .split('/')
    .filter((segment) => segment && !segment.startsWith(':') && !segment.startsWith('{'))
    .flatMap((segment) => segment.split(/[^a-zA-Z0-9]+/))
    .filter(Boolean);
  const byId = /[:{][a-zA-Z]+}?$/.test(path) ? ['by', 'id'] : [];
  return [verb, ...words, ...byId]
    .map((word, index) => (index === 0 ? word : word[0]?.toUpperCase() + word.slice(1)))
    .join('');
}

type OpenApiDocument = { paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> };

/**
 * OpenAPI 3.0 wants a `type` beside `nullable`: a nullable union (a money amount written as
 * text or number, or null) becomes a union of nullable branches.
 */
function nullableUnionsTyped(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) nullableUnionsTyped(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true && schema.type === undefined && Array.isArray(schema.anyOf)) {
    delete schema.nullable;
    schema.anyOf = schema.anyOf.map((branch) => ({ ...(branch as object), nullable: true }));
  }
  for (const value of Object.values(schema)) nullableUnionsTyped(value);
}
