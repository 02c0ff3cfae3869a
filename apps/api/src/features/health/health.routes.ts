import { healthResponseSchema } from '@odontia/shared/schemas/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { measureDatabaseRoundTrip } from './health.repository.ts';

/** GET /api/health: public; a load balancer's probe. 503 when the database does not answer. */
export const healthRoutes: FastifyPluginAsyncZod<{ version: string }> = async (app, options) => {
  app.get(
    '/health',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['platform'],
        summary: 'Liveness and database round trip',
        response: { 200: healthResponseSchema },
      },
    },
    async (request) => {
      let latency: number;
      try {
        latency = await measureDatabaseRoundTrip(app.db);
      } catch (cause) {
        request.log.error({ err: cause }, 'health check: database did not answer');
        throw new AppError('service_unavailable', undefined, { cause });
      }
      return {
        status: 'ok' as const,
        database: app.db.kind,
        databaseLatencyMs: Math.round(latency * 100) / 100,
        version: options.version,
        uptimeSeconds: Math.round(process.uptime()),
      };
    },
  );
};
