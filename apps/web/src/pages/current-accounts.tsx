import { TitledPage } from '../components/page-title';
import { AccountsList } from '../features/current-accounts/party-accounts-list';
import { ProviderLedger } from '../features/current-accounts/party-ledger';

/** `/cc-providers` (commercial.read). */
export const CcProvidersPage = () => <TitledPage page="ccProviders" screen={<AccountsList />} />;

/** `/cc-providers/:providerId`: one provider's ledger. */
export const CcProviderLedgerPage = () => <TitledPage page="ccProviderLedger" screen={<ProviderLedger />} />;
