import { TitledPage } from '../../components/page-title';
import { SignInForm } from '../../features/auth/sign-in-form';

export const SignInPage = () => <TitledPage page="signIn" screen={<SignInForm />} />;
