import { z } from 'zod';
// Before any schema is built: zod's browser configuration (see validation.ts).
import '../validation.ts';

/**
 * GET /api/health — liveness: the process answers. Always 200 while it serves, the database's
 * state reported, never a reason to restart (a database restart is ridden through, issue 20).
 */
export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  /** Whether one round trip answered within the probe's time (2 s). */
  databaseReachable: z.boolean(),
  /** That round trip's duration; null when it did not answer. */
  databaseLatencyMs: z.number().min(0).nullable(),
  version: z.string(),
  uptimeSeconds: z.number().min(0),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** Why an instance is not ready (503 service_unavailable, `details.reason`). */
export const notReadyReasons = ['draining', 'database_unreachable', 'migrations_running'] as const;
export type NotReadyReason = (typeof notReadyReasons)[number];

/**
 * GET /api/ready — readiness: a load balancer may send this instance requests. 503
 * service_unavailable with `details.reason` while it shuts down (draining), while the database
 * does not answer, or while another instance migrates the database.
 */
export const readinessResponseSchema = z.object({
  status: z.literal('ready'),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
});
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;
