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
  'min_above_reorder',
  'reorder_above_max',
  'duplicate_in_file',
  'already_exists',
  'invalid_transition',
  /** A template or authorization text names a placeholder that does not exist. */
  'unknown_placeholder',
  /** A date that may not be after today (a birthdate, when something was charted). */
  'date_in_future',
  /** A date before the earliest the product accepts (1900-01-01). */
  'date_too_early',
  /** An amount, a rate or a count below zero. */
  'not_negative',
  /** A laboratory result dated before its order. */
  'date_before_order',
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
    case 'invalid_union':
      // A blank amount (string | number) fails every branch of its union: it is missing.
      return issue.input === undefined || issue.input === null ? 'required' : 'invalid_value';
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

/** Optional free text: trimmed; empty becomes null. */
export const optionalText = (max = 255) =>
  z
    .string()
    .trim()
    .max(max, 'too_long')
    .nullish()
    .transform((value) => (value ? value : null));

/** Blank form inputs ('' or spaces) count as missing, so numbers and amounts say "required". */
const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

const moneyPattern = /^\d{1,12}(\.\d{1,2})?$/;
/** A number typed with a minus sign: "cannot be negative" says more than "invalid number". */
const negativeNumberPattern = /^-\s*\d/;
const numberCode = (value: unknown) =>
  negativeNumberPattern.test(String(value).trim()) ? 'not_negative' : 'invalid_number';
const percentagePattern = /^\d{1,3}(\.\d{1,2})?$/;

/**
 * A money amount ≥ 0 with at most two decimals, typed "1234.5", "1234,50" or sent as a number;
 * normalised to a decimal string with two decimals ("1234.50"). Never a float in between.
 */
export const moneyAmount = (max = 999_999_999_999.99) =>
  z.preprocess(
    blankToUndefined,
    z
      .union([z.string(), z.number()])
      .transform((value) => String(value).trim().replace(',', '.'))
      .refine((value) => moneyPattern.test(value), { error: (issue) => numberCode(issue.input) })
      .refine((value) => !moneyPattern.test(value) || Number(value) <= max, 'too_big')
      .transform((value) => {
        const [units = '0', cents = ''] = value.split('.');
        return `${BigInt(units)}.${cents.padEnd(2, '0')}`;
      }),
  );

/** A percentage 0–100 with at most two decimals ("21", "10,5"), as a decimal string. */
export const percentage = () =>
  z.preprocess(
    blankToUndefined,
    z
      .union([z.string(), z.number()])
      .transform((value) => String(value).trim().replace(',', '.'))
      .refine((value) => percentagePattern.test(value), { error: (issue) => numberCode(issue.input) })
      .refine((value) => !percentagePattern.test(value) || Number(value) <= 100, 'too_big')
      .transform((value) => String(Number(value))),
  );

/** A whole number (typed or sent as a number) within bounds. */
export const wholeNumber = (min = 0, max = 1_000_000_000) =>
  z.preprocess(
    (value) => {
      const blank = blankToUndefined(value);
      return typeof blank === 'string' ? Number(blank.trim()) : blank;
    },
    z.number().int('invalid_number').min(min, 'too_small').max(max, 'too_big'),
  );

/** An optional whole number: blank becomes null. */
export const optionalWholeNumber = (min = 0, max = 1_000_000_000) =>
  z.preprocess((value) => {
    const blank = blankToUndefined(value);
    if (blank === undefined) return null;
    return typeof blank === 'string' ? Number(blank.trim()) : blank;
  }, z.number().int('invalid_number').min(min, 'too_small').max(max, 'too_big').nullable());
