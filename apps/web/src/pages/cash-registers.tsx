import { TitledPage } from '../components/page-title';
import { CashPage } from '../features/cash-registers/cash-page';

/** `/cash` (commercial.read): the register of the front desk (issue 40). */
export const CashRegisterPage = () => <TitledPage page="cashRegister" screen={<CashPage />} />;

/** `/settings/cash-registers` (settings.manage): the clinic's registers and cash rule. */
export { CashRegistersSettingsPage } from '../features/cash-registers/registers-settings-page';
