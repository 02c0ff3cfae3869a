import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';

/** A labelled input with its error under it, tied to it for screen readers. */
export function Field({
  label,
  error,
  hint,
  ...input
}: { label: string; error?: string | undefined; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <input
        id={id}
        className={`form-control form-control-lg${error ? ' is-invalid' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
      {hint ? (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      ) : null}
      {error ? (
        <div id={`${id}-error`} className="invalid-feedback">
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** A small spinner with its text for screen readers. */
export function Busy({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`spinner-border spinner-border-sm ${className}`} role="status">
      <span className="visually-hidden">{t('loading')}</span>
    </span>
  );
}

/**
 * What a section shows while it loads: a spinner in the space the content will take, so nothing
 * below it moves when it arrives.
 */
export function Placeholder({ testId, minHeight = '12rem' }: { testId?: string; minHeight?: string }) {
  return (
    <div className="d-flex align-items-center justify-content-center" style={{ minHeight }} data-testid={testId}>
      <Busy />
    </div>
  );
}

export function ErrorAlert({ children }: { children: ReactNode }) {
  return children ? (
    <div className="alert alert-danger" role="alert">
      {children}
    </div>
  ) : null;
}
