import { type MessagingSettings, messageChannels } from '@odontia/shared/schemas/messages';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsRecordForm, SettingsSection } from '../../components/settings-page-frame';
import { SwitchField } from '../../components/switch-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { queryClient } from '../../lib/query-client';
import { useSaveMessagingSettings } from './api';
import { ChannelOrder, type ChannelOrderValues } from './channel-order';
import { minutesOfTime, timeOfMinutes } from './message-words';

/*
 * The settings' first form (PUT /api/settings/messaging): which channels a reminder tries, in
 * order (the first one the patient can get and said yes to is used), and the quiet hours when no
 * message leaves (one queued then waits for their end).
 */

type Values = ChannelOrderValues & { quiet: boolean; start: string; end: string };

function valuesOf(data: MessagingSettings): Values {
  const used = new Set(data.reminderChannels);
  return {
    order: [...data.reminderChannels, ...messageChannels.filter((channel) => !used.has(channel))],
    used,
    quiet: data.quietHours !== null,
    start: timeOfMinutes(data.quietHours?.start ?? 21 * 60),
    end: timeOfMinutes(data.quietHours?.end ?? 9 * 60),
  };
}

/** The times of a day every quarter of an hour (and the saved one, when it is not on a quarter). */
function timeOptions(language: string, saved: string): { value: string; label: string }[] {
  const format = new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
  const minutes = Array.from({ length: 96 }, (_, index) => index * 15);
  const own = minutesOfTime(saved);
  if (own !== null && !minutes.includes(own)) minutes.push(own);
  return minutes
    .sort((a, b) => a - b)
    .map((minute) => ({
      value: timeOfMinutes(minute),
      label: format.format(new Date(Date.UTC(2000, 0, 1, 0, minute))),
    }));
}

/** A time of day as the interface language writes it (21:00, 9:00 PM), chosen from a list. */
function TimeSelect({
  id,
  label,
  value,
  disabled,
  onChange,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  disabled: boolean;
  onChange: (value: string) => void;
  testId: string;
}) {
  const { i18n } = useTranslation();
  const options = useMemo(
    () => timeOptions(i18n.resolvedLanguage ?? i18n.language, value),
    [i18n.resolvedLanguage, i18n.language, value],
  );
  return (
    <div className="col-6 col-md-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <select
        id={id}
        className="form-select"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ReminderChannelsForm({ data }: { data: MessagingSettings }) {
  const { t } = useTranslation('messaging');
  const id = useId();
  const ref = useRef<HTMLFormElement>(null);
  const save = useSaveMessagingSettings();
  const sending = useRef(false);
  const [values, setValues] = useState(() => valuesOf(data));
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A double click sends one request.
    if (sending.current) return;
    const reminderChannels = values.order.filter((channel) => values.used.has(channel));
    const start = minutesOfTime(values.start);
    const end = minutesOfTime(values.end);
    setError(reminderChannels.length === 0 ? t('settings.order.none') : null);
    if (reminderChannels.length === 0) return;
    sending.current = true;
    try {
      const answer = await save.mutateAsync({
        reminderChannels,
        quietHours: values.quiet && start !== null && end !== null ? { start, end } : null,
      });
      setValues(valuesOf(answer.data));
      toastSuccess(answer.code ?? 'messaging_settings_updated');
      // The clinic's version moved: the other settings read it again.
      void queryClient.invalidateQueries({ queryKey: ['settings'] });
    } catch (error) {
      toastApiError(error);
    } finally {
      sending.current = false;
    }
  };

  return (
    <SettingsRecordForm
      ref={ref}
      onSubmit={submit}
      prefix="reminder-channels"
      busy={save.isPending}
      conflict={null}
      saveLabel={t('settings.save')}
      savedAt={null}
    >
      <SettingsSection title={t('settings.sections.order')} intro={t('settings.intros.order')} testId="messaging-order">
        <ChannelOrder values={values} onChange={setValues} />
        <div role="alert">{error ? <div className="invalid-feedback d-block">{error}</div> : null}</div>
        <div className="row g-3 align-items-start">
          <div className="col-md-6">
            <SwitchField
              id={`${id}-quiet`}
              label={t('settings.quiet.enabled')}
              hint={t('settings.quiet.hint')}
              className="mt-md-4"
              input={{
                checked: values.quiet,
                onChange: (event) => setValues({ ...values, quiet: event.target.checked }),
              }}
              testId="quiet-hours-enabled"
            />
          </div>
          <TimeSelect
            id={`${id}-start`}
            label={t('settings.quiet.start')}
            value={values.start}
            disabled={!values.quiet}
            onChange={(start) => setValues({ ...values, start })}
            testId="quiet-hours-start"
          />
          <TimeSelect
            id={`${id}-end`}
            label={t('settings.quiet.end')}
            value={values.end}
            disabled={!values.quiet}
            onChange={(end) => setValues({ ...values, end })}
            testId="quiet-hours-end"
          />
        </div>
      </SettingsSection>
    </SettingsRecordForm>
  );
}
