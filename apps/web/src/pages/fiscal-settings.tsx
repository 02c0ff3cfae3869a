export { FiscalSettingsPage } from '../features/fiscal/fiscal-page';
