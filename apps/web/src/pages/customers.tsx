/** The customers of the clinic (issue 18): `/customers`. */
export { CustomersPage } from '../features/customers/customers-page';
