import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
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
        else if (route?.config?.permission === 'public' && schema.security === undefined) schema.security = [];
        return jsonSchemaTransform({ ...input, schema } as Parameters<typeof jsonSchemaTransform>[0]);
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
