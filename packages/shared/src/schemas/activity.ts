import { z } from 'zod';
import { instantText } from '../api-schema.ts';
// Before any schema is built: zod's browser configuration (see validation.ts).
import '../validation.ts';

/**
 * The activity stream of the top bar (issue 14): the clinic's latest audited changes that the
 * signed-in level may see — who, what, when and the record — newest first. GET /api/activity.
 */

export const activityQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type ActivityQuery = z.output<typeof activityQuerySchema>;

export const activityEntrySchema = z.object({
  id: z.uuid(),
  /** The audit action ('patient_created', 'stock_adjusted'…). */
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  /** The patient the change belongs to, while the patient exists. */
  patientId: z.string().nullable(),
  patientName: z.string().nullable(),
  /** The medicine's or supply's name, for an inventory change. */
  itemName: z.string().nullable(),
  userName: z.string().nullable(),
  createdAt: instantText(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const activityResponseSchema = z.object({ data: z.array(activityEntrySchema) });
