import '../../lib/zod-setup';
import { normalizeDecimal } from '@odontia/shared/decimal-input';
import { currencyIsoCodes } from '@odontia/shared/enums';
import {
  type AuthorizationDetail,
  createAuthorizationRequestSchema,
  fillPlaceholders,
  formatMoney,
  updateAuthorizationRequestSchema,
  writtenDate,
} from '@odontia/shared/schemas/authorizations';
import type { Patient } from '@odontia/shared/schemas/patients';
import { useId, useState } from 'react';
import { type FieldValues, type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { BoundFields, TextField } from '../../components/bound-fields';
import { describedField, FieldLabel, FormField } from '../../components/form-field';
import { toastSuccess } from '../../lib/api-toast';
import { formResolver, useFormErrors } from '../../lib/form-errors';
import { queryClient } from '../../lib/query-client';
import { useClinicToday } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import {
  ConflictAlert,
  isVersionConflict,
  RecordDateAndProfessional,
  RecordFormCard,
  toastSaveError,
  useProfessional,
} from '../medical-history/form-bits';
import { useProfessionals } from '../users/professionals';
import { authorizationKey, authorizationPaths, useSaveAuthorization, useTemplates } from './api';

interface Values {
  templateId: string;
  title: string;
  date: string;
  professionalId: string;
  treatment: string;
  risks: string;
  alternatives: string;
  costEstimate: string;
  body: string;
  version: number;
}

function valuesOf(record: AuthorizationDetail | null, professionalId: string, today: string): Values {
  return {
    templateId: record?.templateId ?? '',
    title: record?.title ?? '',
    date: record?.date ?? today,
    professionalId: record?.professionalId ?? professionalId,
    treatment: record?.treatment ?? '',
    risks: record?.risks ?? '',
    alternatives: record?.alternatives ?? '',
    costEstimate: record?.costEstimate ?? '',
    body: record?.body ?? '',
    version: record?.version ?? 1,
  };
}

/** The preview of the text: the same filling the server does, with the data the browser has. */
function usePreview(patient: Patient, initialProfessional: { id: string; name: string }) {
  const user = useSessionUser();
  const { i18n } = useTranslation();
  const professionals = useProfessionals();
  const currency = user?.settings.systemCurrency ?? 'us_dollar';
  return (body: string, values: Values) => {
    const professionalName =
      professionals.data?.find((row) => row.id === values.professionalId)?.completeName ??
      (values.professionalId === initialProfessional.id ? initialProfessional.name : '…');
    let cost = '—';
    try {
      const amount = normalizeDecimal(values.costEstimate) ?? '';
      if (/^\d{1,12}(\.\d{1,2})?$/.test(amount)) cost = formatMoney(amount, currency, i18n.language);
    } catch {
      cost = values.costEstimate;
    }
    return fillPlaceholders(body, {
      patient: `${patient.firstName} ${patient.lastName}`,
      idNumber: patient.ssn ?? '—',
      treatment: values.treatment.trim() || '…',
      risks: values.risks.trim() || '—',
      alternatives: values.alternatives.trim() || '—',
      cost,
      professional: professionalName,
      date: /^\d{4}-\d{2}-\d{2}$/.test(values.date) ? writtenDate(values.date) : values.date,
      clinic: user?.account.clinicName ?? '',
    });
  };
}

export function AuthorizationForm({
  patient,
  record,
  onConflict,
}: {
  patient: Patient;
  record: AuthorizationDetail | null;
  onConflict?: (current: AuthorizationDetail | null) => void;
}) {
  const { t } = useTranslation('authorizations');
  const id = useId();
  const navigate = useNavigate();
  const user = useSessionUser();
  const professional = useProfessional(record);
  const today = useClinicToday();
  const editing = record !== null;
  const save = useSaveAuthorization(patient.id, record?.id);
  const templates = useTemplates({ active: true, kind: 'consent' });
  const preview = usePreview(patient, professional);
  const schema = (editing
    ? updateAuthorizationRequestSchema
    : createAuthorizationRequestSchema) as unknown as z.ZodType<FieldValues, FieldValues>;
  const zod = formResolver(schema) as unknown as Resolver<Values>;
  const resolver: Resolver<Values> = async (values, context, options) => {
    const result = await zod(values, context, options);
    if (!editing && !values.templateId) {
      return { values: {}, errors: { ...result.errors, templateId: { type: 'required', message: 'required' } } };
    }
    return result;
  };
  const formErrors = useFormErrors();
  const form = useForm<Values>({ resolver, defaultValues: valuesOf(record, professional.id, today) });
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = form;
  const values = useWatch({ control }) as Values;
  const template = templates.data?.data.find((row) => row.id === values.templateId);

  const onSubmit = handleSubmit(async (input) => {
    const { title, date, professionalId, treatment, risks, alternatives, costEstimate } = input;
    const shared = { title, date, professionalId, treatment, risks, alternatives, costEstimate };
    const body = editing
      ? { ...shared, body: input.body, version: input.version }
      : { templateId: input.templateId, ...shared };
    try {
      const answer = await save.mutateAsync(body);
      if (answer.code) toastSuccess(answer.code);
      void navigate(authorizationPaths.show(patient.id, answer.data.id), { replace: editing });
    } catch (error) {
      if (isVersionConflict(error) && onConflict) {
        onConflict((error.details?.current as AuthorizationDetail | undefined) ?? null);
        return;
      }
      if (!formErrors.place(error, setError)) toastSaveError(error);
    }
  }, formErrors.onInvalid);

  const fieldId = (name: string) => `${id}-${name}`;
  const currency = currencyIsoCodes[user?.settings.systemCurrency ?? 'us_dollar'];
  const noTemplates = !editing && templates.isSuccess && templates.data.data.length === 0;
  const previewText = editing ? null : template ? preview(template.body, values) : null;
  return (
    <RecordFormCard
      ref={formErrors.ref}
      onSubmit={onSubmit}
      testId="authorization-form"
      backTo={editing && record ? authorizationPaths.show(patient.id, record.id) : authorizationPaths.tab(patient.id)}
      editing={editing}
      isSubmitting={isSubmitting}
      isDirty={isDirty}
    >
      {editing ? null : (
        <div className="col-lg-6">
          <FormField
            id={fieldId('templateId')}
            label={<FieldLabel text={t('fields.template')} required />}
            error={errors.templateId?.message}
            hint={noTemplates ? undefined : t('form.templateHint')}
            className="mb-0"
          >
            <select
              {...register('templateId')}
              {...describedField(fieldId('templateId'), errors.templateId?.message, !noTemplates)}
              className={`form-select${errors.templateId?.message ? ' is-invalid' : ''}`}
              data-testid="template-select"
            >
              <option value="">{t('form.chooseTemplate')}</option>
              {(templates.data?.data ?? []).map((row) => (
                <option key={row.id} value={row.id}>
                  {row.title}
                </option>
              ))}
            </select>
          </FormField>
          {noTemplates ? (
            <div className="alert alert-warning mt-2 mb-0 small" role="status" data-testid="no-templates">
              {t('form.noTemplates')}
            </div>
          ) : null}
        </div>
      )}
      <div className={editing ? 'col-lg-6' : 'col-lg-6'}>
        <TextField
          form={form}
          name="title"
          label={t('fields.title')}
          required={editing}
          hint={editing ? undefined : t('form.titleHint')}
          placeholder={template?.title}
          maxLength={200}
          data-testid="authorization-title"
        />
      </div>
      <RecordDateAndProfessional form={form} professional={professional} professionalColumn="col-sm-6 col-lg-5" />
      <BoundFields
        form={form}
        fields={[
          {
            name: 'costEstimate',
            label: t('fields.costEstimate', { currency }),
            hint: t('form.costHint'),
            inputMode: 'decimal',
            testId: 'authorization-cost',
            className: 'col-sm-6 col-lg-4',
          },
          {
            name: 'treatment',
            label: t('fields.treatment'),
            required: true,
            hint: t('form.treatmentHint'),
            maxLength: 500,
            testId: 'authorization-treatment',
            className: 'col-12',
          },
          { name: 'risks', label: t('fields.risks'), rows: 3, testId: 'authorization-risks', className: 'col-lg-6' },
          {
            name: 'alternatives',
            label: t('fields.alternatives'),
            rows: 3,
            testId: 'authorization-alternatives',
            className: 'col-lg-6',
          },
        ]}
      />
      {editing ? (
        <div className="col-12">
          <TextField
            form={form}
            name="body"
            label={t('fields.body')}
            required
            hint={t('form.bodyHint', { interpolation: { escapeValue: false }, treatment: '{{treatment}}' })}
            rows={14}
            data-testid="authorization-body"
          />
        </div>
      ) : previewText !== null ? (
        <div className="col-12">
          <h2 className="h6 mb-1">{t('form.preview')}</h2>
          <p className="small text-body-secondary mb-2">{t('form.previewHint')}</p>
          <pre className="authorization-text" data-testid="authorization-preview">
            {previewText}
          </pre>
        </div>
      ) : null}
    </RecordFormCard>
  );
}

/** The edit form, with the "someone saved first" notice; a signed authorization is shown as such. */
export function EditAuthorizationForm({ patient, record }: { patient: Patient; record: AuthorizationDetail }) {
  const { t } = useTranslation('authorizations');
  const [conflict, setConflict] = useState<{ current: AuthorizationDetail | null } | null>(null);
  if (record.status === 'signed') {
    return (
      <div className="alert alert-info mb-0" role="status" data-testid="authorization-signed-notice">
        {t('view.signedNotice')}{' '}
        <Link to={authorizationPaths.show(patient.id, record.id)} className="alert-link">
          {t('common.back')}
        </Link>
      </div>
    );
  }
  return (
    <>
      {conflict ? <ConflictAlert current={conflict.current} /> : null}
      <AuthorizationForm
        key={record.version}
        patient={patient}
        record={record}
        onConflict={(current) => {
          setConflict({ current });
          if (current) queryClient.setQueryData(authorizationKey(patient.id, record.id), current);
          else void queryClient.invalidateQueries({ queryKey: authorizationKey(patient.id, record.id) });
        }}
      />
    </>
  );
}
