import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '../components/page-title';
import { AppointmentLinkScreen } from '../features/appointment-links/appointment-link';

const titles = { confirm: 'pages.appointmentConfirm', cancel: 'pages.appointmentCancel' } as const;

/** The screen an appointment e-mail's link opens: confirm or cancel, by its token. */
function AppointmentLinkPage({ purpose }: { purpose: keyof typeof titles }) {
  const { t } = useTranslation('common');
  const { token = '' } = useParams();
  return (
    <>
      <PageTitle title={t(titles[purpose])} />
      <AppointmentLinkScreen key={token} token={token} purpose={purpose} />
    </>
  );
}

export const AppointmentConfirmPage = () => <AppointmentLinkPage purpose="confirm" />;

export const AppointmentCancelPage = () => <AppointmentLinkPage purpose="cancel" />;
