import {
  type AuthorizationTemplate,
  placeholdersOf,
  type TemplateKind,
  templateKinds,
} from '@odontia/shared/schemas/authorizations';
import { Pencil, Plus, Save } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteRowButton } from '../../components/confirm-delete';
import { FieldFeedback, FormAlert } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { PageTitle } from '../../components/page-title';
import { Spinner } from '../../components/spinner';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useFormErrors } from '../../lib/form-errors';
import { isApiError } from '../../lib/http';
import { placeStateErrors } from '../../lib/state-form-errors';
import { useDeleteTemplate, useSaveTemplate, useTemplates } from './api';
import { useDateTimeFormat } from './bits';
import './authorizations.css';
import { BusyIcon } from '../../components/busy-icon';
import { IconTextButton } from '../../components/icon-button';
import { SwitchField } from '../../components/switch-field';
import { ValueOptions } from '../../components/value-options';

/** The placeholders of the kind, what each one becomes, and a button that writes it where the cursor is. */
function PlaceholderHelp({ kind, onInsert }: { kind: TemplateKind; onInsert: (name: string) => void }) {
  const { t } = useTranslation('authorizations');
  const consent = kind === 'consent';
  return (
    <div className="border rounded p-3 bg-body-tertiary" data-testid="placeholder-help">
      <h3 className="h6 mb-1">{t('templates.placeholdersTitle')}</h3>
      <p className="small text-body-secondary mb-2">
        {consent ? t('templates.placeholdersIntro') : t('templates.certificatePlaceholdersIntro')}
      </p>
      <ul className="placeholder-list small">
        {placeholdersOf(kind).map((name) => (
          <li key={name}>
            <button
              type="button"
              className="btn btn-link btn-sm p-0 align-baseline"
              onClick={() => onInsert(name)}
              title={t('templates.insert', { name: `{{${name}}}`, interpolation: { escapeValue: false } })}
            >
              <code>{`{{${name}}}`}</code>
            </button>{' '}
            {consent ? t(`templates.placeholders.${name}`) : t(`templates.certificatePlaceholders.${name}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}

function TemplateForm({
  template,
  initialKind,
  onDone,
}: {
  template: AuthorizationTemplate | null;
  initialKind: TemplateKind;
  onDone: () => void;
}) {
  const { t } = useTranslation('authorizations');
  const id = useId();
  const save = useSaveTemplate(template?.id);
  const body = useRef<HTMLTextAreaElement>(null);
  const [values, setValues] = useState({
    kind: template?.kind ?? initialKind,
    title: template?.title ?? '',
    body: template?.body ?? '',
    active: template?.active ?? true,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState(false);
  const formErrors = useFormErrors<HTMLElement>();
  const insert = (name: string) => {
    const area = body.current;
    const token = `{{${name}}}`;
    const start = area?.selectionStart ?? values.body.length;
    const end = area?.selectionEnd ?? values.body.length;
    const next = values.body.slice(0, start) + token + values.body.slice(end);
    setValues({ ...values, body: next });
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + token.length, start + token.length);
    });
  };
  const submit = async () => {
    const local: Record<string, string> = {};
    if (!values.title.trim()) local.title = 'required';
    if (!values.body.trim()) local.body = 'required';
    setErrors(local);
    if (Object.keys(local).length) {
      formErrors.reveal();
      return;
    }
    try {
      const answer = await save.mutateAsync(template ? { ...values, version: template.version } : values);
      if (answer.code) toastSuccess(answer.code);
      onDone();
    } catch (error) {
      if (isApiError(error) && error.code === 'version_conflict') {
        const current = error.details?.current as AuthorizationTemplate | undefined;
        if (current)
          setValues({ kind: current.kind, title: current.title, body: current.body, active: current.active });
        setConflict(true);
        return;
      }
      if (!placeStateErrors(error, setErrors, formErrors.reveal)) toastApiError(error);
    }
  };
  return (
    <section ref={formErrors.ref} className="card mb-0" data-testid="template-form">
      <div className="card-body d-flex flex-column gap-3">
        <h2 className="h5 mb-0">{template ? t('templates.edit') : t('templates.new')}</h2>
        {conflict ? (
          <div className="alert alert-warning mb-0" role="alert">
            {t('templates.conflict')}
          </div>
        ) : null}
        <fieldset disabled={save.isPending} className="d-flex flex-column gap-3">
          <div>
            <label htmlFor={`${id}-kind`} className="form-label">
              {t('templates.kind')}
            </label>
            <select
              id={`${id}-kind`}
              className={`form-select${errors.kind ? ' is-invalid' : ''}`}
              value={values.kind}
              onChange={(event) => setValues({ ...values, kind: event.target.value as TemplateKind })}
              data-testid="template-kind"
            >
              <ValueOptions values={templateKinds} label={(kind) => t(`templates.kinds.${kind}`)} />
            </select>
            <FieldFeedback id={`${id}-kind-error`} message={fieldCodeText(errors.kind)} />
          </div>
          <div>
            <label htmlFor={`${id}-title`} className="form-label">
              {t('fields.title')}
              <span className="text-danger ms-1" aria-hidden="true">
                *
              </span>
            </label>
            <input
              id={`${id}-title`}
              className={`form-control${errors.title ? ' is-invalid' : ''}`}
              value={values.title}
              maxLength={200}
              onChange={(event) => setValues({ ...values, title: event.target.value })}
              data-testid="template-title"
            />
            <FieldFeedback id={`${id}-title-error`} message={fieldCodeText(errors.title)} />
          </div>
          <PlaceholderHelp kind={values.kind} onInsert={insert} />
          <div>
            <label htmlFor={`${id}-body`} className="form-label">
              {values.kind === 'consent' ? t('fields.body') : t('templates.certificateBody')}
              <span className="text-danger ms-1" aria-hidden="true">
                *
              </span>
            </label>
            <textarea
              ref={body}
              id={`${id}-body`}
              className={`form-control${errors.body ? ' is-invalid' : ''}`}
              rows={14}
              value={values.body}
              onChange={(event) => setValues({ ...values, body: event.target.value })}
              aria-describedby={errors.body ? `${id}-body-error` : undefined}
              data-testid="template-body"
            />
            <FieldFeedback id={`${id}-body-error`} message={fieldCodeText(errors.body)} />
          </div>
          <SwitchField
            id={`${id}-active`}
            label={t('templates.active')}
            input={{
              checked: values.active,
              onChange: (event) => setValues({ ...values, active: event.target.checked }),
            }}
            after={<div className="form-text">{t('templates.activeHint')}</div>}
          />
          <div className="d-flex flex-wrap gap-2 justify-content-end">
            <button type="button" className="btn btn-outline-secondary" onClick={onDone}>
              {t('common.cancel')}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => void submit()} data-testid="template-save">
              <BusyIcon busy={save.isPending} icon={Save} />
              {template ? t('common.save') : t('common.create')}
            </button>
          </div>
        </fieldset>
      </div>
    </section>
  );
}

function DeleteTemplate({ template }: { template: AuthorizationTemplate }) {
  const { t } = useTranslation('authorizations');
  const remove = useDeleteTemplate(template.id);
  return (
    <DeleteRowButton
      remove={remove}
      label={`${t('common.delete')}: ${template.title}`}
      title={t('templates.deleteTitle')}
    >
      <p>{t('templates.deleteText', { name: template.title })}</p>
      <p className="mb-0 fw-semibold text-danger-emphasis">{t('delete.permanent')}</p>
    </DeleteRowButton>
  );
}

/** `/settings/authorization-templates`: the clinic's consent and certificate templates (administrators), by kind. */
export function AuthorizationTemplatesPage() {
  const { t } = useTranslation(['authorizations', 'common']);
  const filterId = useId();
  const [kind, setKind] = useState<TemplateKind | ''>('');
  const templates = useTemplates(kind ? { kind } : {});
  const dateTime = useDateTimeFormat();
  const [editing, setEditing] = useState<AuthorizationTemplate | 'new' | null>(null);
  return (
    <div className="d-flex flex-column gap-3" data-testid="authorization-templates">
      <PageTitle title={t('common:pages.authorizationTemplates')} />
      <div className="d-flex flex-wrap align-items-center gap-2">
        <div className="me-auto">
          <h1 className="h3 mb-1">{t('templates.title')}</h1>
          <p className="text-body-secondary mb-0">{t('templates.intro')}</p>
        </div>
        {editing ? null : (
          <IconTextButton
            icon={Plus}
            className="btn btn-primary"
            onClick={() => setEditing('new')}
            testId="template-new"
            iconClassName="me-1"
          >
            {t('templates.new')}
          </IconTextButton>
        )}
      </div>
      {editing ? (
        <TemplateForm
          key={editing === 'new' ? 'new' : `${editing.id}-${editing.version}`}
          template={editing === 'new' ? null : editing}
          initialKind={kind || 'consent'}
          onDone={() => setEditing(null)}
        />
      ) : null}
      <div className="d-flex flex-wrap align-items-center gap-2">
        <label htmlFor={filterId} className="form-label mb-0">
          {t('templates.kind')}
        </label>
        <select
          id={filterId}
          className="form-select w-auto"
          value={kind}
          onChange={(event) => setKind(event.target.value as TemplateKind | '')}
          data-testid="template-kind-filter"
        >
          <option value="">{t('templates.allKinds')}</option>
          <ValueOptions values={templateKinds} label={(value) => t(`templates.kinds.${value}`)} />
        </select>
      </div>
      <section className="card mb-0">
        {templates.isPending ? (
          <div className="text-center py-4">
            <Spinner size={6} />
          </div>
        ) : templates.isError ? (
          <FormAlert testId="templates-error">{t('common.loadError')}</FormAlert>
        ) : templates.data.data.length === 0 ? (
          <p className="text-center text-body-secondary py-4 mb-0">{t('templates.empty')}</p>
        ) : (
          <ul className="list-group list-group-flush">
            {templates.data.data.map((template) => (
              <li
                key={template.id}
                className="list-group-item d-flex flex-wrap align-items-center gap-2"
                data-testid="template-row"
              >
                <div className="me-auto min-w-0">
                  <div className="fw-semibold">{template.title}</div>
                  <div className="small text-body-secondary">
                    {t('templates.updated')} {dateTime(template.updatedAt)}
                    {template.updatedByName ? ` · ${template.updatedByName}` : ''}
                  </div>
                </div>
                <span className="badge bg-body-secondary text-body border" data-testid="template-kind-badge">
                  {t(`templates.kinds.${template.kind}`)}
                </span>
                <span className={`badge ${template.active ? 'text-bg-success' : 'text-bg-secondary'}`}>
                  {template.active ? t('templates.active') : t('templates.inactive')}
                </span>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-primary"
                  onClick={() => setEditing(template)}
                  aria-label={`${t('common.edit')}: ${template.title}`}
                >
                  <Pencil size={14} aria-hidden="true" />
                </button>
                <DeleteTemplate template={template} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
