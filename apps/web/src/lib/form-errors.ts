import { toNestErrors } from '@hookform/resolvers';
import { useCallback, useRef } from 'react';
import type { FieldError, FieldValues, Path, Resolver, UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import { toastErrorText } from './api-toast';
import { fieldErrorsOf, formatFieldMessage, limitsOf } from './field-message';
import { isApiError } from './http';
import { i18n } from './i18n';

/*
 * Errors where the eye is (issue 14): every form of the app goes through this module.
 *
 * - `formResolver(schema)` validates with a shared zod schema, like @hookform/resolvers' zod
 *   resolver, but keeps the limit an issue broke in the message (`too_long|max=80`), so the field
 *   can say "Máximo 80 caracteres".
 * - `useFormErrors()` gives the form a ref, the invalid handler for `handleSubmit(onValid,
 *   onInvalid)` and `place(error, fields)` for a failed save: the server's field errors go on
 *   their fields, then the first field in error (in the order the page shows them) is scrolled to
 *   the middle of the screen and focused, and a toast says its label and message. A duplicate SKU
 *   at the top of a long form no longer looks like nothing happened.
 */

type Issue = z.core.$ZodIssue;

/** The field message of a zod issue: its code, with the length or bound it broke. */
export function issueMessage(issue: Issue): string {
  const limitCode = ['too_long', 'too_short', 'too_big', 'too_small'].includes(issue.message);
  const limits = limitCode && (issue.code === 'too_big' || issue.code === 'too_small') ? limitsOf(issue) : {};
  return formatFieldMessage({ code: issue.message, ...limits });
}

/** A react-hook-form resolver for a shared zod schema; field messages as `issueMessage` writes them. */
export function formResolver<Input extends FieldValues, Output = Input>(
  schema: z.ZodType<unknown, unknown>,
): Resolver<Input, unknown, Output> {
  return async (values, _context, options) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) return { values: result.data as Output, errors: {} };
    const flat: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      if (!Object.hasOwn(flat, path)) flat[path] = { type: issue.code, message: issueMessage(issue) };
    }
    return { values: {}, errors: toNestErrors(flat, options) };
  };
}

const focusableSelector = 'input:not([type="hidden"]), select, textarea, button, [tabindex]:not([tabindex="-1"])';

/** The control to focus for an element marked invalid (itself, or the first control inside a group). */
function controlOf(element: HTMLElement): HTMLElement {
  if (element.matches(focusableSelector)) return element;
  return element.querySelector<HTMLElement>(focusableSelector) ?? element;
}

/** Text of an element without what is hidden from assistive technology (the required asterisk). */
function visibleText(element: Element | null): string {
  if (!element) return '';
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The label of an invalid field: `<label for>`, `aria-labelledby`, `aria-label` or its group's legend. */
function labelOf(root: HTMLElement, element: HTMLElement): string {
  const control = controlOf(element);
  for (const candidate of [element, control]) {
    if (candidate.id) {
      const label = root.ownerDocument.querySelector(`label[for="${CSS.escape(candidate.id)}"]`);
      if (label) return visibleText(label);
    }
    const labelledBy = candidate.getAttribute('aria-labelledby');
    if (labelledBy) {
      return labelledBy
        .split(/\s+/)
        .map((id) => visibleText(root.ownerDocument.getElementById(id)))
        .join(' ');
    }
    const ariaLabel = candidate.getAttribute('aria-label');
    if (ariaLabel) return ariaLabel;
  }
  return visibleText(element.closest('fieldset')?.querySelector('legend') ?? null);
}

/** The message shown beside an invalid field (its `aria-describedby` with `-error`, or the next feedback). */
function messageOf(root: HTMLElement, element: HTMLElement): string {
  const describedBy = [element, controlOf(element)]
    .map((candidate) => candidate.getAttribute('aria-describedby') ?? '')
    .join(' ')
    .split(/\s+/)
    .filter((id) => id.endsWith('-error'));
  for (const id of describedBy) {
    const text = visibleText(root.ownerDocument.getElementById(id));
    if (text) return text;
  }
  const container = element.closest('.mb-3, .mb-0, [class*="col"], fieldset') ?? element.parentElement;
  return visibleText(container?.querySelector('.invalid-feedback') ?? null);
}

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

/**
 * Scrolls to the first field marked invalid inside `root` (DOM order: what the user reads first),
 * focuses it and toasts "Label: message". Waits (up to a second) for the form to be enabled again:
 * a field inside the fieldset a pending save disables cannot take the focus. `toast: false` when
 * the caller already says what happened in a toast of its own.
 */
export function revealFirstError(root: HTMLElement, { toast = true }: { toast?: boolean } = {}): void {
  let frames = 0;
  const attempt = () => {
    const invalid = root.querySelector<HTMLElement>('[aria-invalid="true"], .is-invalid');
    const control = invalid ? controlOf(invalid) : null;
    const disabled = control?.matches(':disabled') ?? false;
    if ((!invalid || disabled) && frames++ < 60) {
      requestAnimationFrame(attempt);
      return;
    }
    if (!invalid || !control) return;
    control.scrollIntoView({ block: 'center', behavior: reducedMotion() ? 'auto' : 'smooth' });
    control.focus({ preventScroll: true });
    if (!toast) return;
    const label = labelOf(root, invalid);
    const message = messageOf(root, invalid) || i18n.t('messages:validation_error');
    const count = root.querySelectorAll('[aria-invalid="true"]').length;
    const first = label ? i18n.t('common:formErrors.field', { label, message }) : message;
    toastErrorText(count > 1 ? `${first} ${i18n.t('common:formErrors.more', { count: count - 1 })}` : first);
  };
  requestAnimationFrame(attempt);
}

export interface PlaceOptions<T extends FieldValues> {
  /** Only these field paths are on the form (others are not placed); default every path. */
  fields?: readonly string[];
  /** Codes that belong to one field (e.g. `current_password_incorrect` → `currentPassword`). */
  codeFields?: Partial<Record<string, Path<T>>>;
}

/**
 * Puts a failed call's field errors on the form: `details.fields` of a 400 and the codes that
 * belong to one field. Returns false when nothing was placed (the caller shows its own message).
 */
export function placeServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  { fields, codeFields = {} }: PlaceOptions<T> = {},
): boolean {
  const found = fieldErrorsOf(error).filter((field) => !fields || fields.includes(field.path));
  const byCode = isApiError(error) ? codeFields[error.code] : undefined;
  const placed = [
    ...found.map((field) => ({ path: field.path as Path<T>, code: field.code })),
    ...(byCode && isApiError(error) ? [{ path: byCode, code: error.code }] : []),
  ];
  for (const field of placed) setError(field.path, { type: 'server', message: field.code });
  return placed.length > 0;
}

/**
 * The one way a form shows its errors. Put `ref` on the `<form>` (or the element around the
 * fields), pass `onInvalid` to `handleSubmit(onValid, onInvalid)`, and in the save's `catch`:
 * `place(error, setError, options)` (true when the server's errors went on fields, then revealed)
 * or `reveal()` after a `setError` of your own.
 */
export function useFormErrors<E extends HTMLElement = HTMLFormElement>() {
  const ref = useRef<E>(null);
  const reveal = useCallback((options?: { toast?: boolean }) => {
    if (ref.current) revealFirstError(ref.current, options);
  }, []);
  const place = useCallback(
    <T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, options?: PlaceOptions<T>) => {
      const placed = placeServerErrors(error, setError, options);
      if (placed) reveal();
      return placed;
    },
    [reveal],
  );
  const onInvalid = useCallback(() => reveal(), [reveal]);
  return { ref, reveal, onInvalid, place };
}
