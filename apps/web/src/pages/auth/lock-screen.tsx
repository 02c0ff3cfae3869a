import { TitledPage } from '../../components/page-title';
import { LockScreenForm } from '../../features/auth/lock-screen-form';

export const LockScreenPage = () => <TitledPage page="lockScreen" screen={<LockScreenForm />} />;
