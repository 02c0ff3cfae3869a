import type { FieldError } from '@odontia/shared/errors';
import { isApiError } from './http';
/*
 * A field's message as the forms hold it: a field code (namespace `validation`) or a server code
 * placed on a field (`messages`), optionally with the limit that was broken, written
 * `too_long|max=80` (react-hook-form keeps one string per field). Zod issues carry `maximum` and
 * `minimum`, the server's field errors `max` and `min` (apps/api/src/plugins/errors.ts); both
 * are written this way so the text can say the limit: "Máximo 80 caracteres".
 */

export interface FieldMessage {
  code: string;
  max?: number;
  min?: number;
}

/** `too_long|max=80` → `{ code: 'too_long', max: 80 }`; a bare code has no limits. */
export function parseFieldMessage(message: string): FieldMessage {
  const [code = '', ...parts] = message.split('|');
  const parsed: FieldMessage = { code };
  for (const part of parts) {
    const [name, raw] = part.split('=');
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    if (name === 'max') parsed.max = value;
    if (name === 'min') parsed.min = value;
  }
  return parsed;
}

/** The other way round: a code with the limits worth saying. */
export function formatFieldMessage({ code, max, min }: FieldMessage): string {
  return [code, max === undefined ? '' : `max=${max}`, min === undefined ? '' : `min=${min}`].filter(Boolean).join('|');
}

const limitCodes = new Set(['too_long', 'too_short', 'too_big', 'too_small']);

/**
 * The limits of a zod issue or a server field error worth putting in its message: the length of a
 * text, the bounds of a number (not the count of a list, nor a date, whose messages say it).
 */
export function limitsOf(issue: {
  code?: string;
  origin?: unknown;
  maximum?: unknown;
  minimum?: unknown;
}): Pick<FieldMessage, 'max' | 'min'> {
  if (issue.origin !== 'string' && issue.origin !== 'number' && issue.origin !== 'int') return {};
  const max = Number(issue.maximum);
  const min = Number(issue.minimum);
  return {
    ...(issue.maximum !== undefined && Number.isFinite(max) ? { max } : {}),
    ...(issue.minimum !== undefined && Number.isFinite(min) ? { min } : {}),
  };
}

/**
 * The catalog key (without namespace) and values of a field message: the limit's own text where
 * the limit is known ("Máximo {{max}} caracteres", "No puede ser negativo"), else the code's.
 */
export function fieldMessageKey(message: FieldMessage): { key: string; values: Record<string, number> } {
  const { code, max, min } = message;
  if (!limitCodes.has(code)) return { key: code, values: {} };
  if (code === 'too_long' && max !== undefined) return { key: 'too_long_max', values: { max } };
  if (code === 'too_short' && min !== undefined) return { key: 'too_short_min', values: { min } };
  if (code === 'too_small' && min === 0) return { key: 'not_negative', values: {} };
  if (code === 'too_small' && min !== undefined) return { key: 'too_small_min', values: { min } };
  if (code === 'too_big' && max !== undefined) return { key: 'too_big_max', values: { max } };
  return { key: code, values: {} };
}

/**
 * `details.fields` of a 400 `validation_error`: `[{ path, code, max?, min? }]`, the path as a
 * dotted string; the code carries the limit it broke (`too_long|max=80`, lib/field-message.ts).
 */
export function fieldErrorsOf(error: unknown): FieldError[] {
  if (!isApiError(error)) return [];
  const fields = error.details?.fields;
  if (!Array.isArray(fields)) return [];
  return fields.flatMap((field: unknown) => {
    if (!field || typeof field !== 'object') return [];
    const { path, code, max, min } = field as { path?: unknown; code?: unknown; max?: unknown; min?: unknown };
    const dotted = Array.isArray(path) ? path.join('.') : typeof path === 'string' ? path : '';
    if (!dotted || typeof code !== 'string') return [];
    const limits = limitsOf({ origin: 'number', maximum: max, minimum: min });
    return [{ path: dotted, code: formatFieldMessage({ code, ...limits }) }];
  });
}

/** The field errors of a 400 as `{ path: code }` for a form's own state, or null when there are none. */
export type FieldCodes = Record<string, string | undefined>;

export function fieldCodesOf(error: unknown): FieldCodes | null {
  const fields = fieldErrorsOf(error);
  return fields.length ? Object.fromEntries(fields.map((field) => [field.path, field.code])) : null;
}
