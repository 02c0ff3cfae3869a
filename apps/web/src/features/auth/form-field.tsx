import type { ReactNode } from 'react';
import { FieldFeedback } from '../../components/form-feedback';
import { fieldMessage } from './api-errors';

/** Props that tie an input to its label, hint and message. */
export function fieldProps(id: string, error: string | undefined, hint?: boolean) {
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  } as const;
}

export const inputClass = (error: string | undefined) => `form-control${error ? ' is-invalid' : ''}`;

/** Label, input (children), hint and the field's translated message. */
export function Field({
  id,
  label,
  error,
  hint,
  className = 'mb-3',
  children,
}: {
  id: string;
  label: ReactNode;
  /** A field code from zod or the server. */
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
      <FieldFeedback id={`${id}-error`} message={fieldMessage(error)} />
      {hint && !error ? (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      ) : null}
    </div>
  );
}
