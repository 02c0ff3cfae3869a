import '../../lib/zod-setup';
import {
  type MessagingChannel,
  messagingChannelUpdateSchema,
  type ProviderChannel,
} from '@odontia/shared/schemas/messages';
import { useId, useRef, useState } from 'react';
import type { Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { BoundField, FieldGrid } from '../../components/bound-fields';
import { PasswordInput } from '../../components/password-input';
import { SettingsRecordForm, SettingsSection } from '../../components/settings-page-frame';
import { SwitchField } from '../../components/switch-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { useZodForm } from '../../lib/use-zod-form';
import { messagingKeys, useSaveMessagingChannel } from './api';
import { WebhookUrls } from './webhook-urls';

/*
 * An SMS (Twilio-shaped) or WhatsApp (Cloud API) account of the clinic (PUT
 * /api/settings/messaging/:channel). Its secrets are never shown: an empty field keeps the stored
 * one, which the field says. A stale save (another administrator saved first) reads the account
 * again and says so.
 */

type Values = z.input<typeof messagingChannelUpdateSchema>;

const defaultApiUrls: Record<ProviderChannel, string> = {
  sms: 'https://api.twilio.com',
  whatsapp: 'https://graph.facebook.com/v21.0',
};

function valuesOf(channel: ProviderChannel, data: MessagingChannel | null): Values {
  return {
    enabled: data?.enabled ?? true,
    apiUrl: data?.apiUrl ?? defaultApiUrls[channel],
    accountRef: data?.accountRef ?? '',
    sender: data?.sender ?? '',
    secret: '',
    webhookSecret: '',
    version: data?.version ?? null,
  };
}

function SecretField({
  form,
  name,
  label,
  saved,
  hint,
  testId,
}: {
  form: ReturnType<typeof useZodForm<typeof messagingChannelUpdateSchema>>;
  name: Path<Values>;
  label: string;
  saved: boolean;
  hint: string;
  testId: string;
}) {
  const { t } = useTranslation('messaging');
  return (
    <BoundField
      form={form}
      name={name}
      label={label}
      required={!saved && name === 'secret'}
      hint={saved ? t('settings.account.savedHint') : hint}
      className="col-md-6 mb-0"
    >
      {(control) => (
        <PasswordInput
          {...form.register(name)}
          {...control.props}
          invalid={Boolean(control.error)}
          autoComplete="new-password"
          placeholder={saved ? t('settings.account.saved') : ''}
          data-testid={testId}
        />
      )}
    </BoundField>
  );
}

function AccountForm({
  channel,
  data,
  conflict,
  onConflict,
  onSaved,
}: {
  channel: ProviderChannel;
  data: MessagingChannel | null;
  conflict: boolean;
  onConflict: () => Promise<void>;
  onSaved: () => void;
}) {
  const { t } = useTranslation('messaging');
  const id = useId();
  const save = useSaveMessagingChannel(channel);
  const form = useZodForm(messagingChannelUpdateSchema, valuesOf(channel, data));
  const sending = useRef(false);
  const field = (name: 'apiUrl' | 'accountRef' | 'sender') => ({
    name,
    label: t(`settings.account.${channel}.${name}`),
    hint: t(`settings.account.${channel}.${name}Hint`),
    required: true,
    className: 'col-md-6',
    testId: `${channel}-${name}`,
    ...(name === 'apiUrl' ? { type: 'url', inputMode: 'url' as const } : {}),
    ...(name === 'sender' ? { type: 'tel', inputMode: 'tel' as const, placeholder: '+34600000000' } : {}),
  });
  const onSubmit = form.submit(async (body) => {
    // A double click sends one request.
    if (sending.current) return;
    sending.current = true;
    try {
      const answer = await save.mutateAsync(body);
      onSaved();
      toastSuccess(answer.code ?? 'messaging_settings_updated');
    } catch (error) {
      if (isApiError(error) && error.code === 'version_conflict') {
        // Still "sending" until the saved account is in the form: a click on Save right after the
        // notice would otherwise send the stale version again and meet the same conflict.
        await onConflict();
        return;
      }
      const placed = form.formErrors.place(error, form.setError, {
        codeFields: { messaging_secret_required: 'secret' },
      });
      if (!placed) toastApiError(error);
    } finally {
      sending.current = false;
    }
  });
  return (
    <SettingsRecordForm
      ref={form.formErrors.ref}
      onSubmit={onSubmit}
      prefix={`${channel}-account`}
      busy={save.isPending}
      conflict={conflict ? t('settings.account.conflict') : null}
      saveLabel={t('settings.account.save', { channel: t(`channels.${channel}`) })}
      savedAt={null}
    >
      <SettingsSection
        title={t(`settings.sections.${channel}`)}
        intro={t(`settings.intros.${channel}`)}
        testId={`messaging-${channel}`}
      >
        <SwitchField
          id={`${id}-enabled`}
          label={t('settings.account.enabled', { channel: t(`channels.${channel}`) })}
          hint={t('settings.account.enabledHint')}
          input={form.register('enabled')}
          testId={`${channel}-enabled`}
        />
        <FieldGrid form={form} fields={[field('apiUrl'), field('accountRef'), field('sender')]} />
        <div className="row g-3">
          <SecretField
            form={form}
            name="secret"
            label={t(`settings.account.${channel}.secret`)}
            saved={data?.hasSecret ?? false}
            hint={t('settings.account.secretHint')}
            testId={`${channel}-secret`}
          />
          {channel === 'whatsapp' ? (
            <SecretField
              form={form}
              name="webhookSecret"
              label={t('settings.account.whatsapp.webhookSecret')}
              saved={data?.hasWebhookSecret ?? false}
              hint={t('settings.account.whatsapp.webhookSecretHint')}
              testId="whatsapp-webhookSecret"
            />
          ) : null}
        </div>
        <WebhookUrls channel={data} />
      </SettingsSection>
    </SettingsRecordForm>
  );
}

/** One provider account's section; a save or a stale save reads it again (the form starts afresh). */
export function ChannelAccount({ channel, data }: { channel: ProviderChannel; data: MessagingChannel | null }) {
  const [conflict, setConflict] = useState(false);
  return (
    <AccountForm
      key={data?.version ?? 'new'}
      channel={channel}
      data={data}
      conflict={conflict}
      onSaved={() => setConflict(false)}
      onConflict={async () => {
        // The notice says the form holds what is saved: it shows once the account is read again.
        await queryClient.invalidateQueries({ queryKey: messagingKeys.settings });
        setConflict(true);
      }}
    />
  );
}
