import { providerChannels } from '@odontia/shared/schemas/messages';
import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SettingsPageFrame } from '../../components/settings-page-frame';
import { useMessagingSettings } from './api';
import { ChannelAccount } from './channel-account-form';
import { ReminderChannelsForm } from './reminder-channels-form';
import { TemplatesSection } from './templates-section';
import './messages.css';

/**
 * `/settings/messages` (issue 38; settings.manage): how messages reach the clinic's patients —
 * the reminder channels in order and the quiet hours, the SMS and WhatsApp accounts with the
 * addresses to paste in the provider's console, and the templates with their preview.
 */
export function MessagingSettingsPage() {
  const { t } = useTranslation(['messaging', 'common']);
  const settings = useMessagingSettings();
  return (
    <>
      <Link to="/settings" className="d-inline-flex align-items-center gap-1 mb-2 small">
        <ArrowLeft size={14} aria-hidden="true" />
        {t('settings.back')}
      </Link>
      <SettingsPageFrame
        title={t('common:pages.messagingSettings')}
        intro={t('settings.intro')}
        testId="messaging-settings-page"
        query={settings}
        loadError={t('loadError')}
        loaded={({ data }) => (
          <>
            <ReminderChannelsForm key={JSON.stringify([data.reminderChannels, data.quietHours])} data={data} />
            {providerChannels.map((channel) => (
              <ChannelAccount
                key={channel}
                channel={channel}
                data={data.channels.find((row) => row.channel === channel) ?? null}
              />
            ))}
            <TemplatesSection />
          </>
        )}
      />
    </>
  );
}
