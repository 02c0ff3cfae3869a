/** The price list (issue 18): `/price-list`. */
export { PriceListPage } from '../features/price-list/price-list-page';
