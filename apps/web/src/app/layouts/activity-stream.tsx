import { History } from 'lucide-react';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { useTranslation } from 'react-i18next';
import { useLayoutUi } from './layout-ui-context';

/** Right panel with the clinic's recent activity; empty until the audit feature lands. */
export function ActivityStream() {
  const { t } = useTranslation('layout');
  const { activityOpen, setActivityOpen } = useLayoutUi();
  return (
    <Offcanvas
      show={activityOpen}
      onHide={() => setActivityOpen(false)}
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
        <div className="empty-state">
          <span className="empty-state-icon">
            <History size={28} aria-hidden="true" />
          </span>
          <p className="empty-state-title">{t('activity.empty')}</p>
          <p className="empty-state-text">{t('activity.emptyHint')}</p>
        </div>
      </Offcanvas.Body>
    </Offcanvas>
  );
}
