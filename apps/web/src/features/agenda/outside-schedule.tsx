import { useId } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';

/** The reasons of a 409 appointment_outside_schedule, as a list. */
export function OutsideScheduleReasons({ reasons }: { reasons: readonly string[] }) {
  const { t } = useTranslation('agenda');
  return (
    <ul className="mb-0" data-testid="outside-reasons">
      {reasons.map((reason) => (
        <li key={reason}>{t(`outsideReasons.${reason}`)}</li>
      ))}
    </ul>
  );
}

/** A move outside the schedule: say why and ask before booking anyway. */
export function OutsideScheduleDialog({
  reasons,
  onCancel,
  onConfirm,
}: {
  reasons: readonly string[];
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('agenda');
  const titleId = useId();
  return (
    <Modal show onHide={onCancel} centered aria-labelledby={titleId} restoreFocus>
      <div data-testid="outside-schedule">
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {t('outsideTitle')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>{t('outsideText')}</p>
          <OutsideScheduleReasons reasons={reasons} />
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
            {t('cancel')}
          </button>
          <button type="button" className="btn btn-warning" onClick={onConfirm} data-testid="book-anyway">
            {t('bookAnyway')}
          </button>
        </Modal.Footer>
      </div>
    </Modal>
  );
}
