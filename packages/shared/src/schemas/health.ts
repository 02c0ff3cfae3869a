import { z } from 'zod';
// Before any schema is built: zod's browser configuration (see validation.ts).
import '../validation.ts';

/** GET /api/health */
export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  databaseLatencyMs: z.number().min(0),
  version: z.string(),
  uptimeSeconds: z.number().min(0),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
