import { fieldErrorsOf } from './field-message';

/**
 * A refused save of a form kept in React state (not react-hook-form): its field errors become the
 * form's `errors` (path → code), then `reveal` (useFormErrors' reveal) shows the first. False when
 * the error names no field (the caller says what happened, e.g. a toast).
 */
export function placeStateErrors(
  error: unknown,
  setErrors: (errors: Record<string, string>) => void,
  reveal: () => void,
): boolean {
  const fields = fieldErrorsOf(error);
  if (!fields.length) return false;
  setErrors(Object.fromEntries(fields.map((field) => [field.path, field.code])));
  reveal();
  return true;
}
