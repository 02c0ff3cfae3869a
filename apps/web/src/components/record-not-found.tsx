import { ArrowLeft, SearchX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { IconLink } from './icon-link';
import { PageTitle } from './page-title';

/**
 * 404 inside the layout for a record page whose id names no record of the clinic (malformed,
 * unknown, deleted or another clinic's): the spec's `<entity>_not_found` message and a way back.
 * No "Reintentar": retrying will not make the record appear. `title`: the tab's title, the route's
 * (like the page header); left out inside a frame that sets it.
 */
export function RecordNotFound({
  code,
  backTo,
  backLabel,
  title,
}: {
  code: string;
  backTo: string;
  backLabel: string;
  title?: string;
}) {
  const { t } = useTranslation(['common', 'messages']);
  return (
    <>
      {title ? <PageTitle title={title} /> : null}
      <section
        className="card coming-soon"
        data-testid="record-not-found"
        data-code={code}
        aria-labelledby="record-not-found-title"
      >
        <div className="card-body">
          <span className="coming-soon-icon coming-soon-icon-danger">
            <SearchX size={26} aria-hidden="true" />
          </span>
          <p className="coming-soon-eyebrow text-danger-emphasis">{t('common:recordNotFound.code')}</p>
          <h2 id="record-not-found-title" className="coming-soon-title">
            {t(`messages:${code}`)}
          </h2>
          <p className="coming-soon-text">{t('common:recordNotFound.text')}</p>
          <IconLink to={backTo} className="btn btn-primary" icon={ArrowLeft}>
            {backLabel}
          </IconLink>
        </div>
      </section>
    </>
  );
}
