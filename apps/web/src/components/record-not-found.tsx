import { ArrowLeft, type LucideIcon, SearchX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { IconLink } from './icon-link';
import { PageTitle } from './page-title';

/**
 * A page refused inside the layout (403, a record not found): the icon in danger, the code, the
 * title, why, and the way back. `testId` also names the title (`<testId>-title`).
 */
export function RefusalCard({
  icon: Icon,
  eyebrow,
  title,
  text,
  back,
  testId,
  code,
}: {
  icon: LucideIcon;
  eyebrow: string;
  title: string;
  text: string;
  back: { to: string; label: string };
  testId: string;
  /** The message code, as `data-code` (a record not found). */
  code?: string;
}) {
  return (
    <section className="card coming-soon" data-testid={testId} data-code={code} aria-labelledby={`${testId}-title`}>
      <div className="card-body">
        <span className="coming-soon-icon coming-soon-icon-danger">
          <Icon size={26} aria-hidden="true" />
        </span>
        <p className="coming-soon-eyebrow text-danger-emphasis">{eyebrow}</p>
        <h2 id={`${testId}-title`} className="coming-soon-title">
          {title}
        </h2>
        <p className="coming-soon-text">{text}</p>
        <IconLink to={back.to} className="btn btn-primary" icon={ArrowLeft}>
          {back.label}
        </IconLink>
      </div>
    </section>
  );
}

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
      <RefusalCard
        icon={SearchX}
        eyebrow={t('common:recordNotFound.code')}
        title={t(`messages:${code}`)}
        text={t('common:recordNotFound.text')}
        back={{ to: backTo, label: backLabel }}
        testId="record-not-found"
        code={code}
      />
    </>
  );
}
