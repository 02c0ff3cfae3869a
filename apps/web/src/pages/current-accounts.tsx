import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { AccountsList } from '../features/current-accounts/party-accounts-list';
import { ProviderLedger } from '../features/current-accounts/party-ledger';

/** `/cc-providers` (commercial.read). */
export function CcProvidersPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.ccProviders')} />
      <AccountsList />
    </>
  );
}

/** `/cc-providers/:providerId`: one provider's ledger. */
export function CcProviderLedgerPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.ccProviderLedger')} />
      <ProviderLedger />
    </>
  );
}
