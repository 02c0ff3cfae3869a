import { DocumentList } from '../commercial/document-list';
import { saleSide } from './sale-side';

/** `/sales`: the clinic's sales with search, filters, sort and pages in the URL. */
export const SaleList = () => <DocumentList side={saleSide} />;
