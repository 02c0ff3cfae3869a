import '../lib/zod-setup';

/** `/settings/messages` (issue 38; settings.manage): channels, quiet hours, accounts and templates. */
export { MessagingSettingsPage } from '../features/messages/messaging-settings-page';
