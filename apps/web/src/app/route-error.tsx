import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

export function errorMessageOf(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const detail = typeof error.data === 'string' ? error.data : '';
    return [`${error.status} ${error.statusText}`.trim(), detail].filter(Boolean).join(' — ');
  }
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** The router's error screen (spec §8): the exact title and the error's message. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation('common');
  if (error) console.error(error);
  const home = new URL(document.baseURI).pathname;

  return (
    <main className="status-page" role="alert">
      <div className="status-card">
        <h1 className="status-title">Unexpected Application Error!</h1>
        <pre className="status-error" data-testid="route-error-message">
          {errorMessageOf(error)}
        </pre>
        <div className="d-flex flex-wrap gap-2 justify-content-center">
          <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
            <RefreshCw size={16} aria-hidden="true" className="me-2" />
            {t('error.reload')}
          </button>
          <a href={home} className="btn btn-outline-secondary">
            {t('error.home')}
          </a>
        </div>
      </div>
    </main>
  );
}
