import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { apiSchemaRegistry, binaryFile } from '@odontia/shared/api-schema';
import { errorBodySchema } from '@odontia/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * The document is generated with the shared contracts' registry (packages/shared/src/api-schema.ts):
 * a record's named schema becomes `components.schemas.<Name>` and is referenced with $ref, dates
 * and amounts carry their `format` and `pattern` (issue 35).
 */
// The converter's registry type has an index signature; ours names its keys.
const schemaRegistry = apiSchemaRegistry as unknown as z.core.$ZodRegistry<{ id?: string; [key: string]: unknown }>;
const routeSchemaTransform = createJsonSchemaTransform({ schemaRegistry });
const componentsTransform = createJsonSchemaTransformObject({ schemaRegistry });
const fileAnswer = binaryFile();

/** OpenAPI document generated from the zod contracts; the UI at `<base>api/docs`. */
export const openApi = fp(
  async (app: FastifyInstance, options: { basePath: string; version: string }) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Odontia API',
          description:
            'Back office for dental and medical clinics. Every answer is JSON: `{ data }`, or `{ code, message, details? }` for an error (the `ApiError` schema), except the files a route says it produces (a PDF, an image, a CSV or XLSX), answered as bytes of that media type. Dates are `format: date` (YYYY-MM-DD), instants `format: date-time` (ISO 8601, UTC), amounts decimal strings with a point (`pattern`).',
          version: options.version,
        },
        servers: [{ url: '/' }],
        components: {
          securitySchemes: {
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              description:
                'Either a session token (POST /api/auth/sign-in answers it) or an API token (issue 42: `odt_…`, made in Mi perfil › Tokens de API or Administración › Tokens de API). A request with an API token needs the operation\'s action in its level AND its scopes (403 api_token_scope_missing), cannot call a person\'s own operations (403 api_token_not_allowed: sign-out, password, tokens), answers 401 once the token is revoked or expired and 429 too_many_requests with Retry-After past its requests per minute. See docs/api.md "Tokens de API".',
            },
          },
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
          schema.response = withFileAnswers(schema.response as ResponseSchemas | undefined, schema.produces);
          delete schema.produces;
          (schema.response as ResponseSchemas)['4XX'] = errorBodySchema;
        }
        return routeSchemaTransform({ ...input, schema } as Parameters<typeof routeSchemaTransform>[0]);
      },
      transformObject: (documentObject) => {
        const document = componentsTransform(
          documentObject as Parameters<typeof componentsTransform>[0],
        ) as unknown as OpenApiDocument;
        unusedComponentsRemoved(document);
        answersDescribed(document);
        nullableUnionsTyped(document);
        return document as never;
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

type ResponseSchemas = Record<string, unknown>;

/**
 * A route that answers files (a PDF, a CSV, a report as XLSX) declares their media types
 * (`produces`): its success answer lists each as bytes (`format: binary`), beside its JSON answer
 * when it has one, so a generated client reads a PDF as a Blob, not as text.
 */
function withFileAnswers(response: ResponseSchemas | undefined, produces: unknown): ResponseSchemas {
  const files = Array.isArray(produces) ? produces.filter((type) => type !== 'application/json') : [];
  if (files.length === 0) return { ...response };
  const successStatus = Object.keys(response ?? {}).find((status) => status.startsWith('2')) ?? '200';
  const json = response?.[successStatus] as z.ZodType | undefined;
  const content: Record<string, { schema: z.ZodType }> = {};
  if (json) content['application/json'] = { schema: json };
  for (const type of files) content[type] = { schema: fileAnswer };
  return {
    ...response,
    [successStatus]: {
      description: json ? 'The answer, or the file in the media type asked for' : 'The file',
      content,
    },
  };
}

/**
 * The converter emits both an input and an output form of every named schema; only those an
 * operation (or another component) references stay.
 */
function unusedComponentsRemoved(document: OpenApiDocument): void {
  const schemas = document.components?.schemas;
  if (!schemas) return;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(document.paths);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

/** Says what each answer is, where the generator wrote 'Default Response'. */
function answersDescribed(document: OpenApiDocument): void {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        const described = answer as { description?: string };
        if (described.description !== 'Default Response') continue;
        described.description =
          status === '4XX'
            ? 'An error: `{ code, message, details? }` (ApiError); the code says which'
            : status === '201'
              ? 'Created'
              : 'The answer';
      }
    }
  }
}

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

type OpenApiDocument = {
  paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  components?: { schemas?: Record<string, unknown> };
};

/**
 * OpenAPI 3.0 wants a `type` beside `nullable`: a nullable union (a money amount written as
 * text or number, or null) becomes a union of nullable branches; a nullable reference a union
 * of the reference and null; a nullable enum lists null.
 */
const nullBranch = { type: 'string', nullable: true, enum: [null] };

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
  // A nullable named record (`nullable` beside `allOf: [{ $ref }]` does not reach into the
  // reference, so a validator refuses null): the record or null, as zod writes a null branch.
  if (schema.nullable === true && schema.type === undefined && Array.isArray(schema.allOf)) {
    delete schema.nullable;
    schema.anyOf = [...schema.allOf, nullBranch];
    delete schema.allOf;
  }
  // OpenAPI 3.0.3: a nullable enum lists null among its values, or null is not one of them.
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...schema.enum, null];
  }
  for (const value of Object.values(schema)) nullableUnionsTyped(value);
}
