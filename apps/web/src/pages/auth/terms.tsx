import { TitledPage } from '../../components/page-title';
import { TermsOfUse } from '../../features/auth/terms-of-use';

export const TermsPage = () => <TitledPage page="terms" screen={<TermsOfUse />} />;
