import { z } from 'zod';
import { named } from '../api-schema.ts';
// Before any schema is built: zod's browser configuration (see validation.ts).
import '../validation.ts';

/**
 * What the clinical records of the medical history share beyond every record's pieces
 * (./records.ts): the professional who wrote them.
 */

/** A user of the clinic (400 validation_error on `professionalId` when not an active user of it). */
export const professionalIdField = z.uuid({
  error: (issue) => (issue.input == null || issue.input === '' ? 'required' : 'invalid_value'),
});

/**
 * The professional who signs a clinical paper (a prescription, a certificate), with the name,
 * licence and specialty as they were when it was written (the database's `signingProfessional`).
 */
export const signingProfessionalFields = {
  professionalId: z.uuid(),
  professionalName: z.string(),
  professionalLicense: z.string().nullable(),
  professionalSpecialty: z.string().nullable(),
};

/** Who may be a record's professional: an active user of the clinic who is not a customer. */
export const professionalSchema = named(
  'Professional',
  z.object({
    id: z.uuid(),
    completeName: z.string(),
    licenseNumber: z.string().nullable(),
    specialty: z.string().nullable(),
  }),
);
export type Professional = z.infer<typeof professionalSchema>;

/** GET /api/professionals: the clinic's professionals by name (a clinic has tens, not thousands). */
export const professionalsResponseSchema = z.object({ data: z.array(professionalSchema) });
