import { z } from 'zod';
import { documented } from './api-schema.ts';
import { normalizeDecimal } from './decimal-input.ts';

/**
 * In a browser zod runs without its JIT: the web's CSP forbids eval, and zod's `new Function`
 * probe alone, made when the first object schema is built, is reported as a violation. Every
 * schema module imports this file (directly, or through common.ts; apps/web/src/lib/shared-schemas-zod.test.ts checks it),
 * so this runs before any schema is built, whichever chunk the bundler puts a schema in. The
 * server keeps the JIT.
 */
if ('document' in globalThis) z.config({ jitless: true });

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
  /** NUL or half of a UTF-16 surrogate pair: text that cannot be stored (see `safeText`). */
  'invalid_characters',
  /** A wall-clock time that is not 'HH:MM'. */
  'invalid_time',
  /** A closing (or a recess end) not after its opening (or recess start). */
  'closing_before_opening',
  /** A recess that is not inside its opening hours. */
  'recess_outside_range',
  /** Two ranges of the same weekday overlap. */
  'ranges_overlap',
  /** An end not after its start (an appointment, a block). */
  'end_before_start',
  /** A period longer than the screen sums (the dashboard: a year). */
  'range_too_long',
  /** A tax id whose check digits (or form) are wrong for its kind: CUIT, NIF, CNPJ, SIRET… */
  'invalid_tax_id',
  /** A credit or debit note that does not name the document it corrects. */
  'related_document_required',
  /** A quantity of a catalogue item that is not a whole number of units. */
  'whole_quantity_required',
  /** A due date before the document's date. */
  'due_before_date',
  /** A collection's parts (cash + card…) that do not add up to its amount (issue 35). */
  'parts_total_mismatch',
  /** A tooth that is not an FDI tooth number (11–48, 51–85). */
  'invalid_tooth',
  /** A sale on cards without a credit or debit card as its method. */
  'card_method_required',
  /** A periodontal site that is not one of the six (issue 41). */
  'unknown_site',
  /** A furcation grade on a tooth with one root. */
  'furcation_single_rooted',
  /** A tooth the odontogram shows missing or extracted. */
  'tooth_not_present',
  /** A cash sale with a method other than cash. */
  'cash_method_required',
  /** A sale line names a catalogue item and a price-list treatment at once. */
  'item_or_treatment',
  /** An imported row whose record was deleted here since an earlier import (issue 42). */
  'record_deleted',
  /** An imported amount whose separator could be read two ways ("1,250" in a clinic that writes decimals with a comma). */
  'ambiguous_number',
  /** An amount or a rate with more than two decimals. */
  'too_many_decimals',
  /** An imported row naming a patient the same source's patients' import did not bring (issue 42). */
  'patient_not_imported',
  /** An imported appointment naming no user of the clinic by name or e-mail (issue 42). */
  'professional_not_found',
  /** An imported opening balance whose amount changed since it entered the current account (issue 42). */
  'balance_already_imported',
  /** An amount that is no number with at most two decimals (issue 42's imports). */
  'invalid_amount',
  /** An imported appointment overlapping another of the same professional (issue 42). */
  'appointment_overlaps',
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

/**
 * What text the product accepts: any well-formed Unicode except NUL. NUL cannot be stored in a
 * PostgreSQL text, and a lone UTF-16 surrogate (half of an emoji) has no UTF-8 form: the record
 * would keep a replacement character and the audit trail's JSON refuses it. Every other
 * character (accents, emoji, tabs, line breaks, other scripts) is kept as typed.
 */
const loneSurrogate = /\p{Cs}/u;

/** Whether a text holds a NUL or a lone surrogate (a surrogate pair is one character: fine). */
export function hasInvalidCharacters(value: string): boolean {
  return value.includes('\u0000') || loneSurrogate.test(value);
}

/**
 * The string every text of a request starts from (bodies, `q`, path parameters): NUL and lone
 * surrogates are `invalid_characters`. The other helpers build on it; a bare `z.string()` in a
 * request contract fails `validation.test.ts`.
 */
export const safeText = () =>
  z.string().refine((value) => !hasInvalidCharacters(value), { message: 'invalid_characters', abort: true });

/** A required, trimmed text field. */
export const requiredText = (max = 255) => safeText().trim().min(1, 'required').max(max, 'too_long');

/** A search text (`q` of the lists): trimmed, at most 200 characters. */
export const searchText = () => safeText().trim().max(200, 'too_long');

/** An e-mail address, trimmed and lower-cased. */
export const emailAddress = () =>
  safeText()
    .trim()
    .min(1, 'required')
    .max(254, 'too_long')
    .pipe(z.email('invalid_email'))
    .transform((value) => value.toLowerCase());

/**
 * A phone number as people write it: "+54 11 4567-8900", "(011) 4567-8900", "11 15 4567 8900",
 * "+55 (11) 98765-4321", "4567.8900", with an extension ("int. 23", "ext. 23", "x23"): digits with
 * an optional leading + (or 00), spaces, dashes, dots, slashes and brackets; 6 to 15 digits before
 * the extension (E.164 has at most 15), 30 characters in all.
 */
const phonePattern = /^\+?[0-9][0-9 ()./-]*$|^\([0-9][0-9 ()./-]*$/;
const phoneExtension = /\s*(?:int\.?|ext\.?|interno|x)\s*[0-9]{1,6}$/i;
const digitCount = (value: string) => value.match(/[0-9]/g)?.length ?? 0;
export const isPhoneNumber = (value: string) => {
  const number = value.replace(phoneExtension, '');
  return value.length <= 30 && phonePattern.test(number) && digitCount(number) >= 6 && digitCount(number) <= 15;
};
export const phoneNumber = () => safeText().trim().refine(isPhoneNumber, 'invalid_phone');

/** An optional e-mail: blank becomes null. */
export const optionalEmail = () =>
  z
    .preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), emailAddress().nullish())
    .transform((value) => value ?? null);

/** An optional phone number: blank becomes null. */
export const optionalPhone = () =>
  z
    .preprocess((value) => (typeof value === 'string' && value.trim() === '' ? null : value), phoneNumber().nullish())
    .transform((value) => value ?? null);

/**
 * The code before a phone number, as written on a form: a country's ('+54', '54'), an area's ('11',
 * '011', '(0351)') or both ('+54 11', '+54 9 11', '0054 11'): 1 to 8 digits, with spaces, dashes
 * and brackets.
 */
export const phoneArea = () =>
  safeText()
    .trim()
    .max(16, 'too_long')
    .refine(
      (value) => value === '' || (/^\+?\(?[0-9][0-9 ()-]*$/.test(value) && digitCount(value) <= 8),
      'invalid_phone',
    )
    .nullish()
    .transform((value) => (value ? value : null));

/** Optional free text: trimmed; empty becomes null. */
export const optionalText = (max = 255) =>
  safeText()
    .trim()
    .max(max, 'too_long')
    .nullish()
    .transform((value) => (value ? value : null));

/**
 * An optional colour, '#rrggbb' in either case, kept lower-case (a treatment's colour, the clinic's
 * brand colour); blank becomes null; anything else is `invalid_format`.
 */
/** A colour as the database keeps it: '#rrggbb', lower-case (`accounts.brand_color`'s check). */
export const hexColorPattern = /^#[0-9a-f]{6}$/;

export const optionalHexColor = () =>
  safeText()
    .trim()
    .toLowerCase()
    .refine((value) => value === '' || hexColorPattern.test(value), { message: 'invalid_format' })
    .nullish()
    .transform((value) => (value ? value : null));

/** Blank form inputs ('' or spaces) count as missing, so numbers and amounts say "required". */
const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/**
 * The largest amount the database keeps: money columns are numeric(14,2), twelve digits before
 * the point. A contract's bound and every total computed from amounts stay within it.
 */
export const maxMoneyAmount = 999_999_999_999.99;
const moneyPattern = /^\d+(\.\d{1,2})?$/;
/** A number typed with a minus sign: "cannot be negative" says more than "invalid number". */
const negativeNumberPattern = /^-\s*\d/;
const numberCode = (value: unknown) =>
  negativeNumberPattern.test(String(value).trim()) ? 'not_negative' : 'invalid_number';
const percentagePattern = /^\d+(\.\d{1,2})?$/;

/** What the OpenAPI document says of an amount sent as text (issue 35): the forms it is read in. */
const typedAmountText =
  "An amount ≥ 0 with at most two decimals, as a number or as text: '1234.50' (a point), or as typed in a form ('1234,50', '12.500,50', '12,500.50').";
const typedPercentageText =
  "A percentage 0–100 with at most two decimals, as a number or as text ('21', '10.5', '10,5').";

/** A typed number as a plain decimal ("12.500,50" → "12500.50", see decimal-input.ts); kept as typed when it is none. */
const typedDecimal = (value: string | number) => normalizeDecimal(value) ?? String(value).trim();

/** A number above `max`: `too_big` with the bound, which the form says ("Máximo 999.999.999.999,99"). */
export function tooBigIssue(ctx: z.RefinementCtx, max: number, path: PropertyKey[] = []) {
  ctx.addIssue({
    code: 'too_big',
    origin: 'number',
    maximum: max,
    inclusive: true,
    input: undefined,
    path,
    message: 'too_big',
  });
}

/**
 * A decimal typed as people type it (decimal-input.ts) or sent as a number, of `pattern` and at
 * most `max` (`too_big` with its bound), answered as `normalise` writes it.
 */
const typedDecimalField = (
  { description, pattern, max }: { description: string; pattern: RegExp; max: number },
  normalise: (value: string) => string,
) =>
  z.preprocess(
    blankToUndefined,
    z
      .union([documented(z.string(), { description }), z.number()])
      .transform(typedDecimal)
      .refine((value) => pattern.test(value), { error: (issue) => numberCode(issue.input), abort: true })
      .superRefine((value, ctx) => {
        if (Number(value) > max) tooBigIssue(ctx, max);
      })
      .transform(normalise),
  );

/**
 * A money amount ≥ 0 with at most two decimals, typed "1234.5", "1234,50", "12.500,50", "12,500.50"
 * (decimal-input.ts) or sent as a number; normalised to a decimal string with two decimals
 * ("1234.50"). Never a float in between. Above `max` (at most what the database keeps) is
 * `too_big` with its bound, whatever the number of digits.
 */
export const moneyAmount = (max = maxMoneyAmount) =>
  typedDecimalField({ description: typedAmountText, pattern: moneyPattern, max }, (value) => {
    const [units = '0', cents = ''] = value.split('.');
    return `${BigInt(units)}.${cents.padEnd(2, '0')}`;
  });

/** A percentage 0–100 with at most two decimals ("21", "10,5"), as a decimal string. */
export const percentage = () =>
  typedDecimalField({ description: typedPercentageText, pattern: percentagePattern, max: 100 }, (value) =>
    String(Number(value)),
  );

/** A whole number (typed or sent as a number) within bounds. */
export const wholeNumber = (min = 0, max = 1_000_000_000) =>
  z.preprocess(
    (value) => {
      const blank = blankToUndefined(value);
      return typeof blank === 'string' ? Number(typedDecimal(blank)) : blank;
    },
    z.number().int('invalid_number').min(min, 'too_small').max(max, 'too_big'),
  );

/** An optional whole number: blank becomes null. */
export const optionalWholeNumber = (min = 0, max = 1_000_000_000) =>
  z.preprocess((value) => {
    const blank = blankToUndefined(value);
    if (blank === undefined) return null;
    return typeof blank === 'string' ? Number(typedDecimal(blank)) : blank;
  }, z.number().int('invalid_number').min(min, 'too_small').max(max, 'too_big').nullable());

/**
 * The dates the product accepts: years 1900 to 2999. Before 1900 there is no living patient nor
 * record to write, and PostgreSQL has no year 0 (JavaScript has), so '0000-01-01' reached the
 * database and failed there; past 2999 is a typing slip. Birthdates keep their own end (today).
 */
export const earliestDay = '1900-01-01';
export const latestDay = '2999-12-31';
const earliestInstant = Date.parse(`${earliestDay}T00:00:00.000Z`);
const latestInstant = Date.parse(`${latestDay}T23:59:59.999Z`);
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

function isRealDay(value: string): boolean {
  if (!dayPattern.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * A calendar date 'YYYY-MM-DD' that exists, from 1900 to 2999, and not after `latest()` when given
 * (the clinic's today, for a birthdate): one field code, `invalid_date`, `date_too_early`,
 * `date_in_future` or `too_big`.
 */
export const calendarDate = ({ latest }: { latest?: () => string } = {}) =>
  documented(
    z
      .string()
      .trim()
      .min(1, { message: 'required', abort: true })
      .superRefine((value, ctx) => {
        if (!isRealDay(value)) ctx.addIssue({ code: 'custom', message: 'invalid_date' });
        else if (value < earliestDay) ctx.addIssue({ code: 'custom', message: 'date_too_early' });
        else if (latest && value > latest()) ctx.addIssue({ code: 'custom', message: 'date_in_future' });
        else if (value > latestDay) ctx.addIssue({ code: 'custom', message: 'too_big' });
      }),
    { format: 'date' },
  );

/** `field` made optional: '' and null (or nothing) mean none, answered as null. */
export const blankAsNull = <T extends z.ZodType>(field: T) =>
  z.preprocess(
    (value) => (value === '' ? null : value),
    field.nullish().transform((value) => value ?? null),
  );

/** An optional calendar date: '' and null mean none (answered as null). */
export const optionalCalendarDate = () => blankAsNull(calendarDate());

/** An optional reference to another record: '' and null mean none (answered as null). */
export const optionalId = () => blankAsNull(z.uuid('invalid_value'));

/**
 * An instant with its offset ('2026-03-01T10:30:00-03:00' or 'Z'), answered in UTC, from
 * 1900-01-01 to 2999-12-31 (UTC).
 */
export const instant = () =>
  documented(
    z
      .string({ error: (issue) => (issue.input == null ? 'required' : 'invalid_date') })
      .trim()
      .min(1, { message: 'required', abort: true })
      .pipe(z.iso.datetime({ offset: true, error: 'invalid_date' }))
      .transform((value, ctx) => {
        const time = Date.parse(value);
        const problem = Number.isNaN(time)
          ? 'invalid_date'
          : time < earliestInstant
            ? 'date_too_early'
            : time > latestInstant
              ? 'too_big'
              : undefined;
        if (problem) {
          ctx.issues.push({ code: 'custom', message: problem, input: value });
          return z.NEVER;
        }
        return new Date(time).toISOString();
      }),
    { format: 'date-time' },
  );
