export { SchedulesPage } from '../features/schedules/schedules-page';
