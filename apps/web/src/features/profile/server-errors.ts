import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../../lib/http';
import { fieldErrorsOf } from '../auth/api-errors';

/**
 * Puts a failed call's messages on the form: `details.fields` of a 400, and the codes that belong
 * to one field (`codeFields`, e.g. `current_password_incorrect` → `currentPassword`). Returns
 * false when nothing was placed (the caller shows a toast).
 */
export function placeServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  codeFields: Partial<Record<string, Path<T>>> = {},
): boolean {
  const found = fieldErrorsOf(error).filter((field) => (fields as readonly string[]).includes(field.path));
  const byCode = isApiError(error) ? codeFields[error.code] : undefined;
  const placed = [
    ...found.map((field) => ({ path: field.path as Path<T>, code: field.code })),
    ...(byCode && isApiError(error) ? [{ path: byCode, code: error.code }] : []),
  ];
  placed.forEach((field, index) => {
    setError(field.path, { type: 'server', message: field.code }, { shouldFocus: index === 0 });
  });
  return placed.length > 0;
}
