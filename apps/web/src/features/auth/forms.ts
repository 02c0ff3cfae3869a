import '../../lib/zod-setup';
import {
  forgotPasswordRequestSchema,
  resetPasswordRequestSchema,
  signUpRequestSchema,
  unlockRequestSchema,
} from '@odontia/shared/schemas/auth';
import { phoneNumber } from '@odontia/shared/validation';
import { z } from 'zod';

/*
 * Schemas of the auth forms that use react-hook-form: the shared contracts, plus the fields
 * that only exist in the form. Every zod message is a field code (namespace `validation`).
 * The sign-in form does not come through here (see sign-in-validation.ts).
 */

// Refinements that also run while other fields are still invalid, so every message shows at once.
const always = () => true;

/** Sign-up as the form holds it: the contract, "I have a promotional code", and `contact` required first. */
export const signUpFormSchema = signUpRequestSchema
  .safeExtend({
    hasPromotionalCode: z.boolean(),
    contact: z.string().trim().min(1, 'required').pipe(phoneNumber()),
  })
  .refine((value) => value.password === value.passwordConfirmation, {
    path: ['passwordConfirmation'],
    message: 'passwords_must_match',
    when: always,
  })
  .refine((value) => !value.hasPromotionalCode || Boolean(value.promotionalCode?.trim()), {
    path: ['promotionalCode'],
    message: 'promotional_code_required',
    when: always,
  });
export type SignUpFormInput = z.input<typeof signUpFormSchema>;
export type SignUpFormOutput = z.output<typeof signUpFormSchema>;

/** The fields 'Please fill in all required fields' is about. */
export const signUpRequiredFields = [
  'completeName',
  'email',
  'password',
  'passwordConfirmation',
  'clinicName',
  'contact',
] as const;

export const resetPasswordFormSchema = resetPasswordRequestSchema.refine(
  (value) => value.password === value.passwordConfirmation,
  { path: ['passwordConfirmation'], message: 'passwords_must_match', when: always },
);
export { forgotPasswordRequestSchema, unlockRequestSchema };
