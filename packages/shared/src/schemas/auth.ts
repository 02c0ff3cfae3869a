import { z } from 'zod';
import { instantText } from '../api-schema.ts';
import { currencies } from '../currencies.ts';
import { languages } from '../languages.ts';
import { userLevels } from '../user-levels.ts';
import { emailAddress, optionalText, phoneNumber, requiredText, safeText } from '../validation.ts';
import { accountStates } from './account.ts';

/**
 * Contracts of the session endpoints (issue 3, ARCHITECTURE §5): /api/auth/*.
 * Passwords: at least 10 characters, any Unicode, no composition rules; the server also
 * refuses the most common ones (`password_too_common`).
 */

export const minPasswordLength = 10;
export const maxPasswordLength = 1024;

export const passwordSchema = safeText()
  .min(1, 'required')
  .min(minPasswordLength, 'password_too_short')
  .max(maxPasswordLength, 'too_long');

/** A new password and its confirmation must match; the message sits on the confirmation. */
const passwordsMatch = (value: { password: string; passwordConfirmation: string }) =>
  value.password === value.passwordConfirmation;
const passwordsMismatch = { path: ['passwordConfirmation'], message: 'passwords_must_match' };
const newPasswordFields = { password: passwordSchema, passwordConfirmation: safeText().min(1, 'required') };

/** POST /api/auth/sign-up */
export const signUpRequestSchema = z
  .object({
    ...newPasswordFields,
    completeName: requiredText(120),
    email: emailAddress(),
    clinicName: requiredText(120),
    contact: phoneNumber(),
    promotionalCode: safeText().trim().max(40, 'too_long').optional(),
    acceptTerms: z.literal(true, { message: 'must_accept_terms' }),
    /** The interface language at sign-up: the activation mail and the user's systemLanguage. */
    language: z.enum(languages).optional(),
  })
  .refine(passwordsMatch, passwordsMismatch);
export type SignUpRequest = z.infer<typeof signUpRequestSchema>;

/** POST /api/auth/sign-in */
export const signInRequestSchema = z.object({
  email: emailAddress(),
  password: safeText().min(1, 'required').max(maxPasswordLength, 'too_long'),
  remember: z.boolean().default(false),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** POST /api/auth/forgot-password */
export const forgotPasswordRequestSchema = z.object({ email: emailAddress() });

/** A link's secret as it arrives in the path (the server looks up its hash). */
const linkSecret = () => safeText().min(1).max(512);

/** POST /api/auth/activation/:token */
export const activationParamsSchema = z.object({ token: linkSecret() });

/** GET and POST /api/auth/reset-password/:id */
export const resetPasswordParamsSchema = z.object({ id: linkSecret() });

/** POST /api/auth/reset-password/:id */
export const resetPasswordRequestSchema = z.object(newPasswordFields).refine(passwordsMatch, passwordsMismatch);

/** POST /api/auth/unlock */
export const unlockRequestSchema = z.object({
  password: safeText().min(1, 'required').max(maxPasswordLength, 'too_long'),
});

/** GET /api/auth/system/me: the signed-in user's profile. */
export const profileSchema = z.object({
  id: z.uuid(),
  completeName: z.string(),
  email: z.string(),
  level: z.enum(userLevels),
  /** The professional's licence (matrícula) and title, printed on prescriptions. */
  licenseNumber: z.string().nullable(),
  specialty: z.string().nullable(),
  account: z.object({
    id: z.uuid(),
    clinicName: z.string(),
    plan: z.string(),
    planEndsAt: instantText().nullable(),
    /** My account (issue 19): active, in its grace period after the due date, or read-only. */
    contractState: z.enum(accountStates),
    /** When writing stops (due date + grace days); null when due dates are not enforced. */
    graceEndsAt: instantText().nullable(),
    /** The clinic's IANA time zone: its "today", its days and the times the screens show. */
    timeZone: z.string(),
    /** The language a new patient's form starts with (system settings). */
    defaultLanguage: z.enum(languages),
    /** The clinic's currency: every document and payment is in it (issue 35). */
    currency: z.enum(currencies),
  }),
  settings: z.object({
    systemLanguage: z.enum(languages),
    dateFormat: z.string(),
    systemCurrency: z.enum(currencies),
    /** The screen locks itself after this many minutes without activity (clinic setting). */
    lockAfterMinutes: z.number().int().min(1),
  }),
  locked: z.boolean(),
  /**
   * One sign-in across clinics (issue 19): every clinic the person may enter with this sign-in
   * (active membership, activated clinic), the current one included, with the level there.
   */
  clinics: z.array(z.object({ id: z.uuid(), clinicName: z.string(), level: z.enum(userLevels) })),
});
export type Profile = z.infer<typeof profileSchema>;

/** POST /api/auth/switch: move the session to another of the person's clinics (issue 19). */
export const switchClinicRequestSchema = z.object({ accountId: z.uuid() });
export type SwitchClinicRequest = z.infer<typeof switchClinicRequestSchema>;

/** POST /api/auth/sign-in answer: the opaque token (kept by the client) and the profile. */
export const signInResponseSchema = z.object({
  data: z.object({ token: z.string(), expiresAt: instantText(), user: profileSchema }),
  code: z.literal('login_success'),
});

/** POST /api/auth/switch answer: the new session's token (the old one is revoked), its expiry and profile. */
export const switchClinicResponseSchema = z.object({
  /** `remember`: the session's choice, kept (the browser keeps its cookie as long). */
  data: z.object({ token: z.string(), expiresAt: instantText(), remember: z.boolean(), user: profileSchema }),
  code: z.literal('clinic_switched'),
});

/** POST /api/auth/resend-activation */
export const resendActivationRequestSchema = z.object({ email: emailAddress() });

/** GET /api/auth/system/me answer. */
export const profileResponseSchema = z.object({ data: profileSchema });

/** The answer of a session mutation with nothing to return but its success code (for the toast). */
export const authCodeResponseSchema = <TCode extends string>(code: TCode) => z.object({ code: z.literal(code) });

/**
 * GET /api/auth/sign-up: what a new clinic gets, for the sign-up page to say only what is true.
 * `trialDays`: the free trial before a plan is due, where the installation has plans (`PLANS`);
 * null on a self-hosted installation without plans, where nothing is ever due.
 */
export const signUpTermsResponseSchema = z.object({ data: z.object({ trialDays: z.number().int().nullable() }) });
export type SignUpTerms = z.infer<typeof signUpTermsResponseSchema>['data'];

/** GET /api/auth/reset-password/:id answer: the link can still be used. */
export const resetLinkResponseSchema = z.object({ data: z.object({ valid: z.literal(true) }) });

/** PATCH /api/auth/system/me: the user's own profile. Changing the e-mail needs the current password. */
export const updateProfileRequestSchema = z.object({
  completeName: requiredText(120).optional(),
  email: emailAddress().optional(),
  currentPassword: safeText().max(maxPasswordLength, 'too_long').optional(),
  /** Matrícula; blank clears it. */
  licenseNumber: optionalText(60).optional(),
  /** Especialidad / título; blank clears it. */
  specialty: optionalText(120).optional(),
  systemLanguage: z.enum(languages).optional(),
  dateFormat: z.enum(['DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD']).optional(),
  systemCurrency: z.enum(currencies).optional(),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

/** POST /api/auth/system/password: change the password; ends the user's other sessions. */
export const changePasswordRequestSchema = z
  .object({ currentPassword: safeText().min(1, 'required').max(maxPasswordLength, 'too_long'), ...newPasswordFields })
  .refine(passwordsMatch, passwordsMismatch);
