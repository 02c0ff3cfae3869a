import { TitledPage } from '../../components/page-title';
import { ForgotPasswordForm } from '../../features/auth/forgot-password-form';

export const ForgotPasswordPage = () => <TitledPage page="forgotPassword" screen={<ForgotPasswordForm />} />;
