/** The waiting list (issue 38): `/waiting-list`. */
export { WaitingListPage } from '../features/waiting-list/waiting-list-page';
