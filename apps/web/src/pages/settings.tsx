export { SettingsPage } from '../features/settings/settings-page';
