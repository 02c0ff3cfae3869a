import { TitledPage } from '../components/page-title';
import { Dashboard } from '../features/dashboard/dashboard';

/** `/dashboard`: today's agenda, the next free slots, items to reorder and the patients seen recently. */
export const DashboardPage = () => <TitledPage page="dashboard" screen={<Dashboard />} />;
