/** Professional settlements (issue 40): `/settlements`. */
export { SettlementsPage } from '../features/settlements/settlements-page';
