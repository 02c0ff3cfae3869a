import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { RecordNotFound } from '../../components/record-not-found';
import { Spinner } from '../../components/spinner';
import { isApiError } from '../../lib/http';
import { isRecordId } from '../../lib/record-id';
import type { DocumentNamespace } from './document-lines';

/** Where a kind of document's screens go back to and what they say when it is not there. */
export interface DocumentScreens {
  namespace: DocumentNamespace;
  /** `/purchases`, `/sales`. */
  listPath: string;
  /** `purchase_not_found`, `sale_not_found`. */
  notFoundCode: string;
}

/** While the document loads: a spinner, its 404, or the error with a retry. */
export function DocumentLoading({
  screens,
  error,
  refetch,
}: {
  screens: DocumentScreens;
  error: unknown;
  refetch: () => unknown;
}) {
  const { t } = useTranslation(screens.namespace);
  if (isApiError(error) && error.status === 404)
    return <RecordNotFound code={screens.notFoundCode} backTo={screens.listPath} backLabel={t('view.back')} />;
  if (error)
    return (
      <div className="alert alert-danger">
        {t('list.loadError')}{' '}
        <button type="button" className="btn btn-link p-0" onClick={() => void refetch()}>
          {t('list.retry')}
        </button>
      </div>
    );
  return <Spinner />;
}

/** A document's view screen: its title, back to the list, and the view once the document is loaded. */
export function DocumentViewScreen<T>({
  screens,
  id,
  title,
  query,
  view,
}: {
  screens: DocumentScreens;
  id: string;
  title: string;
  query: UseQueryResult<T>;
  view: (document: T) => ReactNode;
}) {
  const { t } = useTranslation(screens.namespace);
  if (!isRecordId(id))
    return (
      <RecordNotFound code={screens.notFoundCode} backTo={screens.listPath} backLabel={t('view.back')} title={title} />
    );
  return (
    <>
      <PageTitle title={title} />
      <div className="mb-2">
        <Link to={screens.listPath}>{t('view.back')}</Link>
      </div>
      {query.data ? (
        view(query.data)
      ) : (
        <DocumentLoading screens={screens} error={query.error} refetch={query.refetch} />
      )}
    </>
  );
}
