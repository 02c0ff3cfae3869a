import { DocumentList } from '../commercial/document-list';
import { purchaseSide } from './purchase-side';

/** `/purchases`: the clinic's purchases with search, filters, sort and pages in the URL. */
export const PurchaseList = () => <DocumentList side={purchaseSide} />;
