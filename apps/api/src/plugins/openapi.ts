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
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: `${options.basePath}api/docs`,
      // The UI's own inline scripts are allowed by hash on its pages only.
      staticCSP: true,
    });
  },
  { name: 'openapi' },
);
