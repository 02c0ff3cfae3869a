import type { UseQueryResult } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { type FormEvent, type ReactNode, type RefObject, useId } from 'react';
import { BusyIcon } from './busy-icon';
import { FormAlert } from './form-feedback';
import { PageTitle } from './page-title';
import { Spinner } from './spinner';

/**
 * A settings area's page (fiscal data, system settings, my account): its title and one line of
 * introduction, the form of its record once loaded (a spinner before, the load error instead), then
 * the sections that load on their own.
 */
export function SettingsPageFrame<TData>({
  title,
  intro,
  testId,
  query,
  loadError,
  loaded,
  children,
}: {
  title: string;
  intro: string;
  testId: string;
  query: UseQueryResult<TData>;
  loadError: string;
  /** What the loaded record shows (keyed by its version by the caller, so a save resets the form). */
  loaded: (data: TData) => ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="d-flex flex-column gap-3" data-testid={testId}>
      <PageTitle title={title} />
      <div>
        <h1 className="h3 mb-1">{title}</h1>
        <p className="text-body-secondary mb-0">{intro}</p>
      </div>
      {query.isPending ? (
        <div className="text-center py-4">
          <Spinner size={6} />
        </div>
      ) : query.isError ? (
        <FormAlert testId={testId.replace(/-page$/, '-error')}>{loadError}</FormAlert>
      ) : (
        loaded(query.data)
      )}
      {children}
    </div>
  );
}

/**
 * One section of a settings page: a card titled by its h2 (which names the region), an optional
 * line of introduction, then its content. `actions` stand right of the title (the heading block
 * and they share a row); `className` is added after `card mb-0`.
 */
export function SettingsSection({
  title,
  intro,
  testId,
  actions,
  className,
  children,
}: {
  title: string;
  intro?: string | undefined;
  testId: string;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  const heading = (
    <div>
      <h2 id={headingId} className="h5 mb-0">
        {title}
      </h2>
      {intro ? <p className="small text-body-secondary mb-0">{intro}</p> : null}
    </div>
  );
  return (
    <section
      className={`card mb-0${className ? ` ${className}` : ''}`}
      aria-labelledby={headingId}
      data-testid={testId}
    >
      <div className="card-body d-flex flex-column gap-3">
        {actions === undefined ? (
          heading
        ) : (
          <div className="d-flex flex-wrap gap-2 justify-content-between align-items-start">
            {heading}
            {actions}
          </div>
        )}
        {children}
      </div>
    </section>
  );
}

/**
 * A settings page's form of its one record: disabled while saving, the stale-save warning on top,
 * then its sections (`children`), the save button and when it was last saved. `prefix` names its
 * parts: `<prefix>-form`, `-conflict`, `-save`.
 */
export function SettingsRecordForm({
  ref,
  onSubmit,
  prefix,
  busy,
  conflict,
  saveLabel,
  savedAt,
  children,
}: {
  ref: RefObject<HTMLFormElement | null>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  prefix: string;
  busy: boolean;
  /** The warning's text after a stale save; null before. */
  conflict: string | null;
  saveLabel: string;
  savedAt: string | null;
  children: ReactNode;
}) {
  return (
    <form ref={ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid={`${prefix}-form`}>
      <fieldset disabled={busy} className="d-flex flex-column gap-3">
        {conflict ? (
          <FormAlert variant="warning" testId={`${prefix}-conflict`}>
            {conflict}
          </FormAlert>
        ) : null}
        {children}
        <div className="d-flex flex-wrap align-items-center gap-2">
          <button type="submit" className="btn btn-primary" data-testid={`${prefix}-save`}>
            <BusyIcon busy={busy} icon={Save} />
            <span className="ms-1">{saveLabel}</span>
          </button>
          {savedAt ? <span className="small text-body-secondary">{savedAt}</span> : null}
        </div>
      </fieldset>
    </form>
  );
}
