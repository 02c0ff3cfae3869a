import { z } from 'zod';

/**
 * Field message codes. Zod issues carry one of these as their message, so the server's
 * `validation_error` details and the web form show the same translated text
 * (namespace `validation` of the web catalogs).
 */
export const fieldCodes = [
  'required',
  'invalid_email',
  'invalid_phone',
  'invalid_date',
  'invalid_number',
  'invalid_value',
  'invalid_format',
  'too_short',
  'too_long',
  'too_small',
  'too_big',
  'passwords_must_match',
  'fill_required_fields',
  'promotional_code_required',
  'password_too_short',
  'password_too_common',
  'must_accept_terms',
  'unknown_field',
] as const;
export type FieldCode = (typeof fieldCodes)[number];

const knownFieldCodes = new Set<string>(fieldCodes);

export function isFieldCode(value: unknown): value is FieldCode {
  return typeof value === 'string' && knownFieldCodes.has(value);
}

type Issue = z.core.$ZodRawIssue;

/** Turns a zod issue into a field code, the one vocabulary of form messages. */
export function fieldCodeOf(issue: Issue): FieldCode {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'required';
      if (issue.expected === 'number' || issue.expected === 'int') return 'invalid_number';
      if (issue.expected === 'date') return 'invalid_date';
      return 'invalid_value';
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'required';
      return issue.origin === 'string' ? 'too_short' : 'too_small';
    case 'too_big':
      return issue.origin === 'string' ? 'too_long' : 'too_big';
    case 'invalid_format':
      if (issue.format === 'email') return 'invalid_email';
      if (issue.format === 'date' || issue.format === 'datetime') return 'invalid_date';
      return 'invalid_format';
    case 'unrecognized_keys':
      return 'unknown_field';
    default:
      return 'invalid_value';
  }
}

let installed = false;

/**
 * Makes every zod message a field code. Call once at start-up, on the server and in the
 * browser; a message given explicitly in a schema (e.g. 'passwords_must_match') wins.
 */
export function installFieldCodes(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: (issue) => fieldCodeOf(issue) });
}

/** A required, trimmed text field. */
export const requiredText = (max = 255) => z.string().trim().min(1, 'required').max(max, 'too_long');

/** An e-mail address, trimmed and lower-cased. */
export const emailAddress = () =>
  z
    .string()
    .trim()
    .min(1, 'required')
    .max(254, 'too_long')
    .pipe(z.email('invalid_email'))
    .transform((value) => value.toLowerCase());

/** A phone number as people write it: digits with optional +, spaces, dashes, dots and brackets. */
const phonePattern = /^\+?[0-9 ().-]{6,20}$/;
export const phoneNumber = () =>
  z
    .string()
    .trim()
    .refine((value) => phonePattern.test(value) && (value.match(/[0-9]/g)?.length ?? 0) >= 6, 'invalid_phone');
