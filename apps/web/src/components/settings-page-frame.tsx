import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
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
