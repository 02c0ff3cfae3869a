import { languages } from '@odontia/shared/enums';
import { providerChannels, type TemplateKind, templateKinds } from '@odontia/shared/schemas/messages';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form-feedback';
import { SettingsSection } from '../../components/settings-page-frame';
import { Spinner } from '../../components/spinner';
import { languageNames } from '../../lib/i18n';
import { useSessionUser } from '../../session/session';
import { useMessageTemplates } from './api';
import { TemplateEditor } from './template-editor';

/*
 * The templates of the messages the clinic words itself (a reminder, a waiting-list offer, a
 * recall), one per SMS or WhatsApp and language: pick one, edit it beside its preview.
 */

type Selection = {
  kind: TemplateKind;
  channel: (typeof providerChannels)[number];
  language: (typeof languages)[number];
};

function Picker({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  testId: string;
}) {
  const id = useId();
  return (
    <div className="col-md-4">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <select
        id={id}
        className="form-select"
        value={value}
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

export function TemplatesSection() {
  const { t } = useTranslation('messaging');
  const clinicLanguage = useSessionUser()?.account.defaultLanguage ?? 'es';
  const templates = useMessageTemplates();
  const [selection, setSelection] = useState<Selection>({
    kind: 'appointment_reminder',
    channel: 'whatsapp',
    language: clinicLanguage,
  });
  const template = templates.data?.data.find(
    (row) => row.kind === selection.kind && row.channel === selection.channel && row.language === selection.language,
  );
  return (
    <SettingsSection
      title={t('settings.sections.templates')}
      intro={t('settings.intros.templates')}
      testId="messaging-templates"
    >
      <div className="row g-3">
        <Picker
          label={t('templates.kind')}
          value={selection.kind}
          options={templateKinds.map((value) => ({ value, label: t(`kinds.${value}`) }))}
          onChange={(kind) => setSelection({ ...selection, kind: kind as Selection['kind'] })}
          testId="template-kind"
        />
        <Picker
          label={t('templates.channel')}
          value={selection.channel}
          options={providerChannels.map((value) => ({ value, label: t(`channels.${value}`) }))}
          onChange={(channel) => setSelection({ ...selection, channel: channel as Selection['channel'] })}
          testId="template-channel"
        />
        <Picker
          label={t('templates.language')}
          value={selection.language}
          options={languages.map((value) => ({ value, label: languageNames[value] }))}
          onChange={(language) => setSelection({ ...selection, language: language as Selection['language'] })}
          testId="template-language"
        />
      </div>
      {templates.isPending ? (
        <div className="template-editor-loading text-center py-4">
          <Spinner />
        </div>
      ) : templates.isError || !template ? (
        <FormAlert>{t('loadError')}</FormAlert>
      ) : (
        <TemplateEditor
          key={`${template.kind}/${template.channel}/${template.language}/${template.custom}/${template.body}`}
          template={template}
        />
      )}
    </SettingsSection>
  );
}
