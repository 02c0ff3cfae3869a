import type { ReactNode } from 'react';
import { fieldMessageKey, parseFieldMessage } from '../lib/field-message';
import { i18n } from '../lib/i18n';
import { FieldFeedback } from './form-feedback';

/**
 * The text of a field's message: a field code (namespace `validation`) or a server code placed on
 * a field (`messages`, e.g. `current_password_incorrect`), with the limit it broke when known
 * (`too_long|max=80` reads "Máximo 80 caracteres", see lib/field-message.ts); anything else reads
 * as "invalid value".
 */
export function fieldCodeText(message: string | undefined): string {
  if (!message) return '';
  const { key, values } = fieldMessageKey(parseFieldMessage(message));
  const number = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language ?? 'es');
  const formatted = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, number.format(value)]));
  for (const candidate of [`validation:${key}`, `messages:${key}`]) {
    if (i18n.exists(candidate)) return i18n.t(candidate, formatted);
  }
  return i18n.t('validation:invalid_value');
}

/** Props that tie an input to its label, hint and message. */
export function describedField(id: string, error: string | undefined, hint?: boolean) {
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy || undefined } as const;
}

/** Bootstrap's input class, invalid when the field has a message. */
export const inputClass = (error: string | undefined) => `form-control${error ? ' is-invalid' : ''}`;

/** A field label with the required mark (hidden from screen readers: the control says aria-required). */
export function FieldLabel({ text, required = false }: { text: ReactNode; required?: boolean }) {
  return (
    <>
      {text}
      {required ? (
        <span className="text-danger ms-1" aria-hidden="true">
          *
        </span>
      ) : null}
    </>
  );
}

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
