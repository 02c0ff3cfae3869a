import { TitledPage } from '../components/page-title';
import { UsersTable } from '../features/users/users-table';

/** `/account/users` (administrators: `users.manage`). */
export const AccountUsersPage = () => <TitledPage page="accountUsers" screen={<UsersTable />} />;
