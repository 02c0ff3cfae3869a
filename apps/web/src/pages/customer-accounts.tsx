import { TitledPage } from '../components/page-title';
import { CustomerAccountsList } from '../features/current-accounts/party-accounts-list';
import { CustomerLedger } from '../features/current-accounts/party-ledger';

/** `/cc-customers` (commercial.read). */
export const CcCustomersPage = () => <TitledPage page="ccCustomers" screen={<CustomerAccountsList />} />;

/** `/cc-customers/:customerId`: one customer's ledger and statement. */
export const CcCustomerLedgerPage = () => <TitledPage page="ccCustomerLedger" screen={<CustomerLedger />} />;
