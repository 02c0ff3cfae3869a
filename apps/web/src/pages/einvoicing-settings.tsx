/** `/settings/einvoicing` (issue 39; settings.manage): regime, environment, certificate, points of sale, series and queue. */
export { EinvoicingSettingsPage } from '../features/einvoicing/einvoicing-settings-page';
