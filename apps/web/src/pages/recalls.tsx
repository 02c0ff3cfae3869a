import '../lib/zod-setup';

/** `/recalls` (issue 38; patients.read, steps appointments.write): the recall list. */
export { RecallsPage } from '../features/recalls/recalls-page';
