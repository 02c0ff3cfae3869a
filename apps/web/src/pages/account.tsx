export { AccountPage } from '../features/account/account-page';
