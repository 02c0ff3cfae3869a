import { z } from 'zod';
import { instantText, named } from '../api-schema.ts';
import { staffLevels, userLevels } from '../enums.ts';
import { emailAddress, optionalText, requiredText } from '../validation.ts';
import { listQuerySchema, pageSchema } from './common.ts';

/** Users of the clinic (administrators only: `users.manage`): /api/users. */

export const clinicUserSchema = named(
  'ClinicUser',
  z.object({
    id: z.uuid(),
    completeName: z.string(),
    email: z.string(),
    level: z.enum(userLevels),
    active: z.boolean(),
    /** The professional's licence (matrícula) and title, printed on prescriptions. */
    licenseNumber: z.string().nullable(),
    specialty: z.string().nullable(),
    /** Null while an invitation has not been accepted. */
    activatedAt: instantText().nullable(),
    createdAt: instantText(),
    version: z.number().int(),
  }),
);
export type ClinicUser = z.infer<typeof clinicUserSchema>;

export const usersListQuerySchema = listQuerySchema(['completeName', 'email', 'level', 'createdAt']);
export const usersPageSchema = pageSchema(clinicUserSchema);

/** POST /api/users: invites by e-mail; the invitation link sets the password. */
export const inviteUserRequestSchema = z.object({
  completeName: requiredText(120),
  email: emailAddress(),
  level: z.enum(staffLevels),
});

/** PATCH /api/users/:id: change the level, deactivate or reactivate. `version` guards concurrent edits. */
export const updateUserRequestSchema = z.object({
  level: z.enum(staffLevels).optional(),
  active: z.boolean().optional(),
  /** Matrícula; blank clears it. */
  licenseNumber: optionalText(60).optional(),
  /** Especialidad / título; blank clears it. */
  specialty: optionalText(120).optional(),
  version: z.number().int().min(1),
});

export const userResponseSchema = z.object({ data: clinicUserSchema, code: z.enum(['user_invited', 'user_updated']) });
