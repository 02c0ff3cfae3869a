/** Third-party payers (issue 40): `/payers` and `/payer-presentations`. */
export { PayersPage } from '../features/payers/payers-page';
export { PayerPresentationsPage } from '../features/payers/presentations-page';
