import '../../lib/zod-setup';
import { changePasswordRequestSchema, maxPasswordLength } from '@odontia/shared/schemas/auth';
import { emailAddress, requiredText } from '@odontia/shared/validation';
import { z } from 'zod';

// Refinements that also run while other fields are still invalid, so every message shows at once.
const always = () => true;

/** Name and e-mail; a new e-mail needs the current password (`currentEmail` is the one saved). */
export function detailsFormSchema(currentEmail: string) {
  return z
    .object({
      completeName: requiredText(120),
      email: emailAddress(),
      currentPassword: z.string().max(maxPasswordLength, 'too_long'),
      licenseNumber: z.string().trim().max(60, 'too_long'),
      specialty: z.string().trim().max(120, 'too_long'),
    })
    .refine((value) => value.email === currentEmail.toLowerCase() || value.currentPassword.length > 0, {
      path: ['currentPassword'],
      message: 'required',
      when: always,
    });
}

export const passwordFormSchema = changePasswordRequestSchema.refine(
  (value) => value.password === value.passwordConfirmation,
  { path: ['passwordConfirmation'], message: 'passwords_must_match', when: always },
);

/** The date formats the server accepts, with today's date as the example. */
export const dateFormats = ['DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'] as const;

export function formatExample(format: string, date = new Date()): string {
  const day = String(date.getDate()).padStart(2, '0');
  const month = String(date.getMonth() + 1).padStart(2, '0');
  return format.replace('DD', day).replace('MM', month).replace('YYYY', String(date.getFullYear()));
}
