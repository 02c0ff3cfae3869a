import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { CustomerAccountsList } from '../features/current-accounts/party-accounts-list';
import { CustomerLedger } from '../features/current-accounts/party-ledger';

/** `/cc-customers` (commercial.read). */
export function CcCustomersPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.ccCustomers')} />
      <CustomerAccountsList />
    </>
  );
}

/** `/cc-customers/:customerId`: one customer's ledger and statement. */
export function CcCustomerLedgerPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.ccCustomerLedger')} />
      <CustomerLedger />
    </>
  );
}
