import '../lib/zod-setup';

export { ImportRunPage as DataImportRunPage } from '../features/imports/import-run-page';
/** `/account/import` and `/account/import/:importId` (issue 42; data.import): Administración › Importar datos. */
export { ImportsPage as DataImportPage } from '../features/imports/imports-page';
