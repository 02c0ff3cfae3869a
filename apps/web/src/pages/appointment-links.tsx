import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '../components/page-title';
import { AppointmentLinkScreen } from '../features/appointment-links/appointment-link';

export function AppointmentConfirmPage() {
  const { t } = useTranslation('common');
  const { token = '' } = useParams();
  return (
    <>
      <PageTitle title={t('pages.appointmentConfirm')} />
      <AppointmentLinkScreen key={token} token={token} purpose="confirm" />
    </>
  );
}

export function AppointmentCancelPage() {
  const { t } = useTranslation('common');
  const { token = '' } = useParams();
  return (
    <>
      <PageTitle title={t('pages.appointmentCancel')} />
      <AppointmentLinkScreen key={token} token={token} purpose="cancel" />
    </>
  );
}
