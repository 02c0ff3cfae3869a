import type { OnlineAppointment } from '@odontia/shared/schemas/online-booking';
import { CalendarCheck, CircleCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/http';
import { portalErrorText } from '../errors';
import { formatWhen } from '../format';
import { PortalLayout } from '../layout';
import { publicBookingApi } from '../public-api';
import { Busy, ErrorAlert } from '../ui';
import { usePress } from '../use-submit';

/**
 * The public booking's e-mail link: pressing the button confirms the e-mail and the appointment
 * stands. On pressing, not on opening, so a mail scanner that opens links confirms nothing.
 */
export function BookingLinkPage({ token }: { token: string }) {
  const { t, i18n } = useTranslation();
  const [booked, setBooked] = useState<OnlineAppointment | null>(null);
  const {
    press: confirm,
    busy,
    error,
  } = usePress(async () => {
    setBooked((await publicBookingApi.confirm({ params: { token } })).data);
  });

  if (booked) {
    return (
      <PortalLayout brand={null} title={t('bookingLink.doneTitle')}>
        <div className="text-center py-3" data-testid="booking-confirmed">
          <CircleCheck size={48} aria-hidden="true" className="text-success mb-3" />
          <h1 className="h3">{t('bookingLink.doneTitle')}</h1>
          <p>{t('bookingLink.doneText')}</p>
        </div>
        <dl className="portal-summary">
          <dt>{t('book.whenLabel')}</dt>
          <dd>{formatWhen(booked.startsAt, booked.timeZone, i18n.language)}</dd>
          {booked.treatmentName ? (
            <>
              <dt>{t('book.treatmentLabel')}</dt>
              <dd>{booked.treatmentName}</dd>
            </>
          ) : null}
          <dt>{t('book.professionalLabel')}</dt>
          <dd>{booked.professionalName}</dd>
        </dl>
      </PortalLayout>
    );
  }
  const stale = isApiError(error) && (error.status === 404 || error.code === 'online_booking_link_stale');
  return (
    <PortalLayout brand={null} title={t('bookingLink.title')}>
      <h1 className="h3 mb-3">{t('bookingLink.title')}</h1>
      {stale ? (
        <ErrorAlert>{t('bookingLink.stale')}</ErrorAlert>
      ) : (
        <>
          <p>{t('bookingLink.text')}</p>
          {error ? <ErrorAlert>{portalErrorText(error)}</ErrorAlert> : null}
          <button type="button" className="btn btn-primary btn-lg w-100" disabled={busy} onClick={() => void confirm()}>
            {busy ? <Busy className="me-2" /> : <CalendarCheck size={20} aria-hidden="true" className="me-2" />}
            {t('bookingLink.submit')}
          </button>
        </>
      )}
    </PortalLayout>
  );
}
