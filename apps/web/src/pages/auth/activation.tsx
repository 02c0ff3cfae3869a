import { LinkPage } from '../../components/page-title';
import { ActivationStatus } from '../../features/auth/activation-status';

export const ActivationPage = () => (
  <LinkPage page="activation" screen={(token) => <ActivationStatus key={token} token={token} />} />
);
