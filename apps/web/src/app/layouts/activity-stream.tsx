import { History } from 'lucide-react';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { activityLink, useActivity } from '../../features/activity/activity';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useLayoutUi } from './layout-ui-context';

/** Right panel with the clinic's recent audited activity that the signed-in level may see. */
export function ActivityStream() {
  const { t, i18n } = useTranslation('layout');
  const { activityOpen, setActivityOpen } = useLayoutUi();
  const activity = useActivity(activityOpen);
  const dateTime = useDateTimeFormat();
  const entries = activity.data ?? [];
  const close = () => setActivityOpen(false);
  const what = (action: string) =>
    i18n.exists(`layout:activity.actions.${action}`) ? t(`activity.actions.${action}`) : t('activity.actions.other');
  return (
    <Offcanvas
      show={activityOpen}
      onHide={close}
      placement="end"
      className="layout-offcanvas"
      aria-labelledby="activity-title"
      data-testid="activity-stream"
    >
      <Offcanvas.Header closeButton closeLabel={t('common:close')}>
        <Offcanvas.Title as="h2" id="activity-title" className="h5 mb-0">
          {t('activity.title')}
        </Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body>
        {activity.isPending ? (
          <div className="d-flex justify-content-center py-4">
            <span className="spinner-border spinner-border-sm" role="status" aria-label={t('activity.loading')} />
          </div>
        ) : activity.isError ? (
          <div className="alert alert-warning small" role="alert">
            {t('activity.error')}{' '}
            <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={() => activity.refetch()}>
              {t('activity.retry')}
            </button>
          </div>
        ) : entries.length === 0 ? (
          <div className="empty-state">
            <span className="empty-state-icon">
              <History size={28} aria-hidden="true" />
            </span>
            <p className="empty-state-title">{t('activity.empty')}</p>
            <p className="empty-state-text">{t('activity.emptyHint')}</p>
          </div>
        ) : (
          <ol className="list-unstyled activity-list mb-0" data-testid="activity-list">
            {entries.map((entry) => {
              const link = activityLink(entry);
              const subject = entry.patientName ?? entry.itemName;
              const body = (
                <>
                  <span className="activity-what">{what(entry.action)}</span>
                  {subject ? <span className="activity-subject">{subject}</span> : null}
                  <span className="activity-meta">
                    {entry.userName ?? t('activity.system')} · {dateTime(entry.createdAt)}
                  </span>
                </>
              );
              return (
                <li key={entry.id} className="activity-entry" data-testid="activity-entry">
                  {link ? (
                    <Link to={link} onClick={close} className="activity-link">
                      {body}
                    </Link>
                  ) : (
                    <div className="activity-link">{body}</div>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </Offcanvas.Body>
    </Offcanvas>
  );
}
