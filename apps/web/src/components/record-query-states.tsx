import type { ReactNode } from 'react';
import { isNotFoundError, isRecordId } from '../lib/record-id';
import { FormAlert } from './form-feedback';
import { PageTitle } from './page-title';
import { RecordNotFound } from './record-not-found';
import { Spinner } from './spinner';

/** What RecordQueryStates reads of a record's query (TanStack Query's answer). */
interface RecordQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
}

/**
 * A record page's query until the record is there: "not found" (a malformed id, an unknown,
 * deleted or another clinic's record), a spinner, or the load error with its retry button (inside
 * `errorFrame`, e.g. the page's way back); then `children(record)`. `title`: the tab's title meanwhile.
 */
export function RecordQueryStates<T>({
  id,
  query,
  notFound,
  title,
  loadError,
  children,
}: {
  id: string;
  query: RecordQuery<T>;
  notFound: { code: string; backTo: string; backLabel: string };
  title?: string | undefined;
  loadError: { text: string; retry: string; testId: string; frame?: (alert: ReactNode) => ReactNode };
  children: (record: T) => ReactNode;
}) {
  const pageTitle = title ? <PageTitle title={title} /> : null;
  if (!isRecordId(id) || (query.isError && isNotFoundError(query.error))) {
    return <RecordNotFound title={title} {...notFound} />;
  }
  if (query.isPending) {
    return (
      <div className="text-center py-5">
        {pageTitle}
        <Spinner size={8} />
      </div>
    );
  }
  if (query.isError || !query.data) {
    const alert = (
      <FormAlert testId={loadError.testId}>
        {loadError.text}
        <button type="button" className="btn btn-link" onClick={() => void query.refetch()}>
          {loadError.retry}
        </button>
      </FormAlert>
    );
    return loadError.frame ? loadError.frame(alert) : alert;
  }
  return <>{children(query.data)}</>;
}
