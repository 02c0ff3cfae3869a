import { z } from 'zod';
import { idSchema } from './common.ts';

/**
 * What the clinical records of the medical history (issue 5: diagnoses, laboratory orders,
 * attendances) share: the route parameters, the professional, the version of an edit and the
 * page of a "history of changes". Each record's own contract lives in its file.
 */

/** /api/patients/:patientId/{diagnoses,laboratories,attendances} */
export const patientParamsSchema = z.object({ patientId: idSchema });
/** /api/patients/:patientId/{diagnoses,laboratories,attendances}/:id */
export const clinicalRecordParamsSchema = z.object({ patientId: idSchema, id: idSchema });

/** A user of the clinic (400 validation_error on `professionalId` when not an active user of it). */
export const professionalIdField = z.uuid({
  error: (issue) => (issue.input == null || issue.input === '' ? 'required' : 'invalid_value'),
});

/** The version the edit started from (409 `version_conflict`, with details.current, when stale). */
export const versionField = z.number().int().min(1);

/** Page of a clinical list: newest first. */
export const clinicalListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ClinicalListQuery = z.output<typeof clinicalListQuerySchema>;

/** GET …/:id/changes: the record's audit events, newest first. */
export const clinicalChangesQuerySchema = clinicalListQuerySchema;

/** Who created and last changed a record, and when. */
export const recordStampsSchema = {
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  updatedAt: z.string(),
  updatedByName: z.string().nullable(),
  version: z.number().int(),
};

/** Who may be a record's professional: an active user of the clinic who is not a customer. */
export const professionalSchema = z.object({
  id: z.uuid(),
  completeName: z.string(),
  licenseNumber: z.string().nullable(),
  specialty: z.string().nullable(),
});
export type Professional = z.infer<typeof professionalSchema>;

/** GET /api/professionals: the clinic's professionals by name (a clinic has tens, not thousands). */
export const professionalsResponseSchema = z.object({ data: z.array(professionalSchema) });
