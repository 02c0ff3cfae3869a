import type { MessageTemplate } from '@odontia/shared/schemas/messages';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useTemplatePreview } from './api';

/** How long the text must rest before it is previewed: one request when the typing pauses, not one a key. */
export const previewDelayMs = 500;

/**
 * The text a template gives with sample values (POST /api/settings/message-templates/preview),
 * with its length and, for SMS, the parts it is billed as. The box keeps its size while the next
 * preview loads, so the page does not jump as one types.
 */
export function TemplatePreview({ template, body }: { template: MessageTemplate; body: string }) {
  const { t } = useTranslation('messaging');
  const resting = useDebouncedValue(body, previewDelayMs);
  const preview = useTemplatePreview(
    resting.trim()
      ? { kind: template.kind, channel: template.channel, language: template.language, body: resting }
      : null,
  );
  const data = resting.trim() ? preview.data : undefined;
  const unknown = data?.unknownPlaceholders ?? [];
  return (
    <section className="template-preview" aria-labelledby="template-preview-title" data-testid="template-preview">
      <h3 id="template-preview-title" className="h6">
        {t('templates.preview')}
      </h3>
      <div
        className="template-preview-bubble"
        aria-busy={preview.isFetching}
        data-testid="template-preview-text"
        data-state={preview.isFetching ? 'loading' : 'ready'}
      >
        {data ? data.text : <span className="text-body-secondary">{t('templates.previewEmpty')}</span>}
      </div>
      <p className="small text-body-secondary mt-2 mb-0" role="status" data-testid="template-preview-counts">
        {data
          ? template.channel === 'sms'
            ? t('templates.countsSms', { characters: data.characters, segments: data.segments })
            : t('templates.counts', { characters: data.characters })
          : '\u00a0'}
      </p>
      {unknown.length > 0 ? (
        <p className="small text-danger-emphasis mb-0" data-testid="template-preview-unknown">
          {t('templates.unknownPlaceholders', { names: unknown.map((name) => `{{${name}}}`).join(', ') })}
        </p>
      ) : null}
    </section>
  );
}
