import { useId, useRef, useState } from 'react';
import type { ZodType } from 'zod';
import { FieldLabel, fieldCodeText, inputClass } from '../../components/form-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { fieldErrorsOf } from '../../lib/field-message';
import { revealFirstError } from '../../lib/form-errors';

/** A field's errors by dotted path (`lines.0.unitPrice`): a zod or server code each. */
export type FieldErrors = Record<string, string>;

/**
 * What a commercial document's form (a purchase, a sale) does the same way: its field errors, the
 * props that tie an input to its label and message, client validation with the shared schema, and
 * a save whose field errors come back where the eye is.
 */
export function useDocumentForm() {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});

  const showErrors = (next: FieldErrors) => {
    setErrors(next);
    requestAnimationFrame(() => {
      if (formRef.current) revealFirstError(formRef.current);
    });
  };

  /** The request's issues by path (the first of each), or null when the schema takes it. */
  const issuesOf = (schema: ZodType, request: unknown): FieldErrors | null => {
    const parsed = schema.safeParse(request);
    if (parsed.success) return null;
    const found: FieldErrors = {};
    for (const issue of parsed.error.issues) found[issue.path.map(String).join('.')] ??= issue.message;
    return found;
  };

  /**
   * Sends the document: a success code is toasted and `onSaved` goes on; field errors show on their
   * fields; `onProblem` takes the domain's own failures (answers true when it did); the rest is a toast.
   */
  const send = async <T,>(
    save: () => Promise<{ code?: string; data: T }>,
    onSaved: (data: T) => void,
    onProblem: (error: unknown) => boolean,
  ) => {
    try {
      const answer = await save();
      if (answer.code) toastSuccess(answer.code);
      onSaved(answer.data);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) {
        showErrors(Object.fromEntries(fields.map((field) => [field.path, field.code])));
        return;
      }
      if (!onProblem(error)) toastApiError(error);
    }
  };

  const field = (name: string) => ({
    id: `${id}-${name}`,
    className: inputClass(errors[name]),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });
  const message = (name: string) =>
    errors[name] ? (
      <div id={`${id}-${name}-error`} className="invalid-feedback d-block">
        {fieldCodeText(errors[name])}
      </div>
    ) : null;
  const label = (name: string, text: string, required = false) => (
    <label htmlFor={`${id}-${name}`} className="form-label">
      <FieldLabel text={text} required={required} />
    </label>
  );

  return { id, formRef, errors, setErrors, showErrors, issuesOf, send, field, message, label };
}
