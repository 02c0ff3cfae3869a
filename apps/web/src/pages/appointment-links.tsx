import { LinkPage } from '../components/page-title';
import { AppointmentLinkScreen } from '../features/appointment-links/appointment-link';

export const AppointmentConfirmPage = () => (
  <LinkPage
    page="appointmentConfirm"
    screen={(token) => <AppointmentLinkScreen key={token} token={token} purpose="confirm" />}
  />
);

export const AppointmentCancelPage = () => (
  <LinkPage
    page="appointmentCancel"
    screen={(token) => <AppointmentLinkScreen key={token} token={token} purpose="cancel" />}
  />
);
