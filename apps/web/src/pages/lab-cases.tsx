import '../lib/zod-setup';

/** `/lab-cases` (issue 41; patients.read, steps clinical.write): the open dental lab cases by due date. */
export { LabCasesPage } from '../features/lab-cases/lab-cases';
