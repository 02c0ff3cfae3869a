/** The providers' screens (issue 17): `/providers`, `/providers/create`, `/providers/edit/:providerId`. */
export { ProviderCreatePage, ProviderEditPage, ProvidersPage } from '../features/providers/provider-pages';
