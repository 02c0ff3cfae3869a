import type { LucideIcon } from 'lucide-react';
import { type FormEvent, type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { portalErrorText } from './errors';

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

type FieldSpec<F extends string> = { name: F; label: string; hint?: string } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'name'
>;

/**
 * A portal form: its inputs (each with its error), anything else it asks (`children`), the failure
 * and the one submit button, busy while the form is on its way (`useFormSubmit`).
 */
export function PortalForm<F extends string>({
  form,
  fields,
  submitLabel,
  icon: Icon,
  testId,
  submitTestId,
  secondary = false,
  children,
}: {
  form: {
    submit: (event: FormEvent<HTMLFormElement>) => void;
    edit: (event: FormEvent<HTMLFormElement>) => void;
    busy: boolean;
    error: unknown;
    fieldErrors: Partial<Record<F, string>>;
  };
  fields: readonly FieldSpec<F>[];
  submitLabel: string;
  icon: LucideIcon;
  testId: string;
  submitTestId?: string;
  /** An outlined button, for a form beside the page's main action. */
  secondary?: boolean;
  children?: ReactNode;
}) {
  return (
    <form onSubmit={form.submit} onInput={form.edit} noValidate data-testid={testId}>
      {fields.map(({ name, label, ...input }) => (
        <Field key={name} name={name} label={label} error={form.fieldErrors[name]} required {...input} />
      ))}
      {children}
      {form.error ? <ErrorAlert>{portalErrorText(form.error)}</ErrorAlert> : null}
      <button
        type="submit"
        className={`btn ${secondary ? 'btn-outline-primary' : 'btn-primary'} btn-lg w-100`}
        disabled={form.busy}
        data-testid={submitTestId}
      >
        {form.busy ? <Busy className="me-2" /> : <Icon size={20} aria-hidden="true" className="me-2" />}
        {submitLabel}
      </button>
    </form>
  );
}

/** A titled part of a page, named by its heading for screen readers. */
export function PortalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="portal-section" aria-labelledby={id}>
      <h2 id={id} className="h5">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * What a section shows of data it loads: its failure, a placeholder of its size while it loads, or
 * what `children` makes of the data.
 */
export function Loaded<T>({
  state,
  minHeight,
  children,
}: {
  state: { data: T | undefined | null; error: unknown };
  minHeight: string;
  children: (data: T) => ReactNode;
}) {
  if (state.error) return <ErrorAlert>{portalErrorText(state.error)}</ErrorAlert>;
  if (state.data === undefined || state.data === null) return <Placeholder minHeight={minHeight} />;
  return <>{children(state.data)}</>;
}
