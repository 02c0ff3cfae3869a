import type { MessageTemplate } from '@odontia/shared/schemas/messages';
import { RotateCcw, Save } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FieldFeedback } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { fieldErrorsOf } from '../../lib/api-errors';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useSaveMessageTemplate } from './api';
import { insertPlaceholder } from './message-words';
import { TemplatePreview } from './template-preview';

/*
 * One template (a kind, a channel, a language): its text with the placeholders as chips that put
 * `{{name}}` at the caret, the live preview beside it, Save, and "Restore the original text"
 * (PUT with a null body) once the clinic has its own.
 */

export function TemplateEditor({ template }: { template: MessageTemplate }) {
  const { t } = useTranslation('messaging');
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const save = useSaveMessageTemplate();
  const sending = useRef(false);
  const [body, setBody] = useState(template.body);
  const [whatsappTemplate, setWhatsappTemplate] = useState(template.whatsappTemplate ?? '');
  const [errors, setErrors] = useState<{ body?: string; whatsappTemplate?: string }>({});
  const [busy, setBusy] = useState<'save' | 'restore' | null>(null);
  const dirty = body !== template.body || whatsappTemplate !== (template.whatsappTemplate ?? '');

  const insert = (name: string) => {
    const field = area.current;
    const next = insertPlaceholder(body, name, {
      start: field?.selectionStart ?? body.length,
      end: field?.selectionEnd ?? body.length,
    });
    setBody(next.text);
    requestAnimationFrame(() => {
      field?.focus();
      field?.setSelectionRange(next.caret, next.caret);
    });
  };

  const send = async (kind: 'save' | 'restore') => {
    // A double click sends one request.
    if (sending.current) return;
    if (kind === 'save' && !body.trim()) {
      setErrors({ body: fieldCodeText('required') });
      return;
    }
    sending.current = true;
    setBusy(kind);
    setErrors({});
    try {
      const answer = await save.mutateAsync({
        kind: template.kind,
        channel: template.channel,
        language: template.language,
        body: kind === 'save' ? body : null,
        whatsappTemplate: template.channel === 'whatsapp' && kind === 'save' ? whatsappTemplate : null,
      });
      toastSuccess(answer.code);
    } catch (error) {
      const fields = fieldErrorsOf(error).filter((field) => field.path === 'body' || field.path === 'whatsappTemplate');
      if (fields.length) {
        setErrors(Object.fromEntries(fields.map((field) => [field.path, fieldCodeText(field.code)])));
        area.current?.focus();
      } else toastApiError(error);
    } finally {
      sending.current = false;
      setBusy(null);
    }
  };

  return (
    <div className="row g-3" data-testid="template-editor" data-custom={template.custom}>
      <div className="col-lg-7 d-flex flex-column gap-2">
        <div className="d-flex flex-wrap align-items-center gap-2">
          <label htmlFor={`${id}-body`} className="form-label mb-0 me-auto">
            {t('templates.body')}
          </label>
          <span
            className={`badge ${template.custom ? 'text-bg-primary' : 'bg-body-secondary text-body'}`}
            data-testid="template-origin"
          >
            {t(template.custom ? 'templates.custom' : 'templates.builtIn')}
          </span>
        </div>
        <textarea
          ref={area}
          id={`${id}-body`}
          className={`form-control${errors.body ? ' is-invalid' : ''}`}
          rows={6}
          maxLength={1000}
          value={body}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={[errors.body ? `${id}-body-error` : '', `${id}-chips`].filter(Boolean).join(' ')}
          onChange={(event) => setBody(event.target.value)}
          data-testid="template-body"
        />
        <FieldFeedback id={`${id}-body-error`} message={errors.body} />
        <div>
          <p id={`${id}-chips`} className="small text-body-secondary mb-1">
            {t('templates.chipsHint')}
          </p>
          <div className="d-flex flex-wrap gap-1" data-testid="template-chips">
            {template.placeholders.map((name) => (
              <button
                key={name}
                type="button"
                className="btn btn-sm btn-outline-secondary font-monospace"
                title={t(`placeholders.${name}`)}
                onClick={() => insert(name)}
                data-testid={`template-chip-${name}`}
              >
                <span className="visually-hidden">{t('templates.insert')} </span>
                {`{{${name}}}`}
              </button>
            ))}
          </div>
        </div>
        {template.channel === 'whatsapp' ? (
          <div>
            <label htmlFor={`${id}-wa`} className="form-label">
              {t('templates.whatsappTemplate')}
            </label>
            <input
              id={`${id}-wa`}
              className={`form-control font-monospace${errors.whatsappTemplate ? ' is-invalid' : ''}`}
              value={whatsappTemplate}
              maxLength={512}
              autoComplete="off"
              aria-describedby={`${id}-wa-hint${errors.whatsappTemplate ? ` ${id}-wa-error` : ''}`}
              onChange={(event) => setWhatsappTemplate(event.target.value)}
              data-testid="template-whatsapp-name"
            />
            <FieldFeedback id={`${id}-wa-error`} message={errors.whatsappTemplate} />
            <div id={`${id}-wa-hint`} className="form-text">
              {t('templates.whatsappTemplateHint')}
            </div>
          </div>
        ) : null}
        <div className="d-flex flex-wrap gap-2 mt-1">
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy !== null || !dirty}
            onClick={() => void send('save')}
            data-testid="template-save"
          >
            <BusyIcon busy={busy === 'save'} icon={Save} />
            <span className="ms-1">{t('templates.save')}</span>
          </button>
          <button
            type="button"
            className="btn btn-outline-secondary"
            disabled={busy !== null || !template.custom}
            onClick={() => void send('restore')}
            data-testid="template-restore"
          >
            <BusyIcon busy={busy === 'restore'} icon={RotateCcw} />
            <span className="ms-1">{t('templates.restore')}</span>
          </button>
        </div>
      </div>
      <div className="col-lg-5">
        <TemplatePreview template={template} body={body} />
      </div>
    </div>
  );
}
