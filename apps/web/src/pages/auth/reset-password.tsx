import { LinkPage } from '../../components/page-title';
import { ResetPasswordForm } from '../../features/auth/reset-password-form';

export const ResetPasswordPage = () => (
  <LinkPage page="resetPassword" param="id" screen={(token) => <ResetPasswordForm key={token} resetId={token} />} />
);
