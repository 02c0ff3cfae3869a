import type { ReactNode } from 'react';
import { i18n } from '../lib/i18n';
import { FieldFeedback } from './form-feedback';

/**
 * The text of a field's message code: a field code (namespace `validation`) or a server code
 * placed on a field (`messages`, e.g. `current_password_incorrect`); anything else reads as
 * "invalid value".
 */
export function fieldCodeText(code: string | undefined): string {
  if (!code) return '';
  for (const key of [`validation:${code}`, `messages:${code}`]) if (i18n.exists(key)) return i18n.t(key);
  return i18n.t('validation:invalid_value');
}

/** Props that tie an input to its label, hint and message. */
export function describedField(id: string, error: string | undefined, hint?: boolean) {
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy || undefined } as const;
}

/** Bootstrap's input class, invalid when the field has a message. */
export const inputClass = (error: string | undefined) => `form-control${error ? ' is-invalid' : ''}`;

/** Label, control (children), hint and the field's translated message. */
export function FormField({
  id,
  label,
  error,
  hint,
  className = 'mb-3',
  children,
}: {
  id: string;
  label: ReactNode;
  /** A message code from zod or the server. */
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      {children}
      <FieldFeedback id={`${id}-error`} message={fieldCodeText(error)} />
      {hint && !error ? (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      ) : null}
    </div>
  );
}
