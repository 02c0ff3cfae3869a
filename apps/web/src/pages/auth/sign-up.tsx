import { TitledPage } from '../../components/page-title';
import { SignUpForm } from '../../features/auth/sign-up-form';

export const SignUpPage = () => <TitledPage page="signUp" screen={<SignUpForm />} />;
