import { healthResponseSchema, type NotReadyReason, readinessResponseSchema } from '@odontia/shared/schemas/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { measureDatabaseRoundTrip, migrationsRunning } from './health.repository.ts';

/**
 * GET /api/health (liveness) and GET /api/ready (readiness), both public (issue 20). Liveness
 * answers 200 while the process serves, whatever the database's state: an orchestrator that
 * restarts on it must not restart every instance because PostgreSQL restarted. Readiness is what
 * a load balancer checks: 503 while this instance drains (SIGTERM), while the database does not
 * answer, or while another instance migrates it.
 */
/** A probe's route options: public, documented under "platform", answering `response`. */
const probe = <Response extends ZodType>(summary: string, response: Response) => ({
  config: { permission: 'public' as const },
  schema: { tags: ['platform'], summary, response: { 200: response } },
});

export const healthRoutes: FastifyPluginAsyncZod<{ version: string }> = async (app, options) => {
  app.get('/health', probe('Liveness, with the database round trip', healthResponseSchema), async (request) => {
    let latency: number | null = null;
    try {
      latency = await measureDatabaseRoundTrip(app.db);
    } catch (cause) {
      request.log.warn({ err: cause }, 'health check: the database did not answer');
    }
    return {
      status: 'ok' as const,
      database: app.db.kind,
      databaseReachable: latency !== null,
      databaseLatencyMs: latency === null ? null : Math.round(latency * 100) / 100,
      version: options.version,
      uptimeSeconds: Math.round(process.uptime()),
    };
  });

  app.get(
    '/ready',
    probe(
      'Readiness for a load balancer: 503 while draining, without a database or while migrating',
      readinessResponseSchema,
    ),
    async (request) => {
      const notReady = (reason: NotReadyReason, cause?: unknown): never => {
        throw new AppError('service_unavailable', { reason }, { cause });
      };
      if (app.lifecycle.draining) notReady('draining');
      try {
        await measureDatabaseRoundTrip(app.db);
      } catch (cause) {
        request.log.warn({ err: cause }, 'readiness: the database did not answer');
        notReady('database_unreachable', cause);
      }
      if (await migrationsRunning(app.db).catch(() => false)) notReady('migrations_running');
      return { status: 'ready' as const, database: app.db.kind, version: options.version };
    },
  );
};
