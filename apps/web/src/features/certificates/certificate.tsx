import '../../lib/zod-setup';
import { type Language, languages } from '@odontia/shared/enums';
import type { AuthorizationTemplate } from '@odontia/shared/schemas/authorizations';
import {
  certificateTemplates,
  createHealthCertificateRequestSchema,
  type HealthCertificate,
  type HealthCertificateKind,
  healthCertificateKinds,
  updateHealthCertificateRequestSchema,
} from '@odontia/shared/schemas/health-certificates';
import { Copy } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { BoundFields, SelectField, TextField } from '../../components/bound-fields';
import { DateField } from '../../components/date-input';
import { FormField } from '../../components/form-field';
import { IconLink } from '../../components/icon-link';
import { PdfButton } from '../../components/pdf-button';
import { RecordForm } from '../../components/record-form';
import { useZodForm } from '../../lib/use-zod-form';
import { useClinicToday } from '../../session/clinic-time';
import { useTemplates } from '../authorizations/api';
import { clinicalApi, recordPaths, useRecord } from '../medical-history/api';
import {
  Fact,
  FormActions,
  RecordDateAndProfessional,
  TextFact,
  useCalendarDate,
  useProfessional,
} from '../medical-history/form-bits';
import {
  formBackPath,
  RecordCard,
  type RecordFormProps,
  type RecordViewProps,
  useRecordSave,
} from '../medical-history/record-screens';
import { usePatient } from '../patients/api';
import { VoidButton } from './void-button';

/**
 * A health certificate (issue 24): the form that issues it from one of the clinic's templates of its
 * kind (the first preselected; the product's text in the patient's document language when the clinic
 * has none; the server fills the placeholders), and its read view with the
 * PDF, the verification code, void and "issue again". Once issued only the internal notes change:
 * the edit form shows just them.
 */

/** `?replaces=<id>`: issuing again a voided certificate starts from its fields. */
function useReplaced(patientId: string) {
  const [params] = useSearchParams();
  const id = params.get('replaces') ?? '';
  const replaced = useRecord('certificate', patientId, id);
  return id ? replaced.data : undefined;
}

export function CertificateForm(props: RecordFormProps<'certificate'>) {
  const { record } = props;
  if (record) return <NotesForm {...props} record={record} />;
  return <IssueFormLoader {...props} />;
}

/** When the clinic's templates could not be read: the product's texts. */
const noTemplates: AuthorizationTemplate[] = [];

function IssueFormLoader(props: RecordFormProps<'certificate'>) {
  const patient = usePatient(props.patientId);
  const [params] = useSearchParams();
  const replaced = useReplaced(props.patientId);
  const templates = useTemplates({ active: true });
  if (!patient.data || (params.get('replaces') && !replaced) || templates.isPending) return null;
  const language = (languages as readonly string[]).includes(patient.data.language)
    ? (patient.data.language as Language)
    : 'es';
  return (
    <IssueForm
      {...props}
      language={language}
      replaced={replaced ?? null}
      templates={templates.data?.data ?? noTemplates}
    />
  );
}

function IssueForm(
  props: RecordFormProps<'certificate'> & {
    language: Language;
    replaced: HealthCertificate | null;
    templates: AuthorizationTemplate[];
  },
) {
  const { patientId, language, replaced, templates } = props;
  const { t } = useTranslation('certificates');
  const templateFieldId = useId();
  const templatesOf = (kind: HealthCertificateKind) => templates.filter((template) => template.kind === kind);
  /** The text a kind starts from: the clinic's first template of it, else the product's. */
  const startText = (kind: HealthCertificateKind) => templatesOf(kind)[0]?.body ?? certificateTemplates[language][kind];
  const [templateId, setTemplateId] = useState(templatesOf(replaced?.kind ?? 'attendance')[0]?.id ?? '');
  const professional = useProfessional(replaced);
  const today = useClinicToday();
  const form = useZodForm(
    updateHealthCertificateRequestSchema,
    {
      kind: replaced?.kind ?? 'attendance',
      date: replaced?.date ?? today,
      professionalId: replaced?.professionalId ?? professional.id,
      addressee: replaced?.addressee ?? '',
      visitTime: replaced?.visitTime ?? '',
      restFrom: replaced?.restFrom ?? today,
      restTo: replaced?.restTo ?? today,
      diagnosis: replaced?.diagnosis ?? '',
      showDiagnosis: replaced?.showDiagnosis ?? false,
      activity: replaced?.activity ?? '',
      // Issued again: the fields of the voided one, the template's text filled anew (its dates may be what was wrong).
      text: startText(replaced?.kind ?? 'attendance'),
      notes: '',
      replacesId: replaced?.id ?? null,
      version: 1,
    },
    { validateWith: createHealthCertificateRequestSchema },
  );
  const save = useRecordSave('certificate', props, form.formErrors);
  const onSubmit = form.submit((values) => {
    const { version: _version, ...body } = values;
    // Only the fields of its kind are sent.
    const kind = body.kind;
    return save(
      {
        ...body,
        visitTime: kind === 'attendance' ? body.visitTime : null,
        restFrom: kind === 'rest' ? body.restFrom : null,
        restTo: kind === 'rest' ? body.restTo : null,
        activity: kind === 'fitness' ? body.activity : null,
      },
      form.setError,
    );
  });
  const kind = form.watch('kind');
  const { isSubmitting } = form.formState;
  // Another kind: its first template, unless the text was written by hand.
  const { getValues, setValue } = form;
  useEffect(() => {
    const current = getValues('text');
    const first = templates.find((template) => template.kind === kind);
    const next = first?.body ?? certificateTemplates[language][kind];
    const untouched = [...templates.map((template) => template.body), ...Object.values(certificateTemplates[language])];
    setTemplateId((chosen) =>
      templates.some((row) => row.id === chosen && row.kind === kind) ? chosen : (first?.id ?? ''),
    );
    if (current !== next && (untouched.includes(current) || !current.trim())) {
      setValue('text', next, { shouldDirty: true });
    }
  }, [kind, language, templates, getValues, setValue]);
  const chooseTemplate = (id: string) => {
    const chosen = templates.find((template) => template.id === id);
    setTemplateId(id);
    if (chosen) setValue('text', chosen.body, { shouldDirty: true });
  };
  const ofKind = templatesOf(kind);
  return (
    <RecordForm ref={form.formErrors.ref} onSubmit={onSubmit} testId="certificate-form">
      <fieldset disabled={isSubmitting} className="card mb-0">
        <div className="card-body">
          {replaced ? (
            <div className="alert alert-info" data-testid="certificate-replaces">
              {t('form.replaces', { code: replaced.verificationCode })}
            </div>
          ) : null}
          <div className="row g-3">
            <div className="col-sm-6 col-lg-3">
              <SelectField
                form={form}
                name="kind"
                label={t('fields.kind')}
                required
                options={healthCertificateKinds.map((value) => ({ value, label: t(`kinds.${value}`) }))}
                data-testid="certificate-kind"
              />
            </div>
            <RecordDateAndProfessional form={form} professional={professional} professionalColumn="col-lg-6" />
            <div className="col-lg-6">
              <TextField form={form} name="addressee" label={t('fields.addressee')} hint={t('form.addresseeHint')} />
            </div>
            {kind === 'attendance' ? (
              <div className="col-sm-6 col-lg-3">
                <TextField form={form} name="visitTime" label={t('fields.visitTime')} type="time" />
              </div>
            ) : null}
            {kind === 'rest' ? (
              <>
                <div className="col-sm-6 col-lg-3">
                  <DateField form={form} name="restFrom" label={t('fields.restFrom')} required />
                </div>
                <div className="col-sm-6 col-lg-3">
                  <DateField form={form} name="restTo" label={t('fields.restTo')} required />
                </div>
              </>
            ) : null}
            {kind === 'fitness' ? (
              <div className="col-lg-6">
                <TextField form={form} name="activity" label={t('fields.activity')} required />
              </div>
            ) : null}
            <div className="col-lg-8">
              <TextField form={form} name="diagnosis" label={t('fields.diagnosis')} />
            </div>
            <div className="col-lg-4 d-flex align-items-end">
              <div className="form-check mb-2">
                <input
                  id="certificate-show-diagnosis"
                  type="checkbox"
                  className="form-check-input"
                  {...form.register('showDiagnosis')}
                  data-testid="certificate-show-diagnosis"
                />
                <label htmlFor="certificate-show-diagnosis" className="form-check-label">
                  {t('fields.showDiagnosis')}
                </label>
              </div>
            </div>
            {ofKind.length > 0 ? (
              <FormField
                id={templateFieldId}
                label={t('form.template')}
                hint={t('form.templateHint')}
                className="col-lg-6"
              >
                <select
                  id={templateFieldId}
                  className="form-select"
                  value={templateId}
                  onChange={(event) => chooseTemplate(event.target.value)}
                  aria-describedby={`${templateFieldId}-hint`}
                  data-testid="certificate-template"
                >
                  {ofKind.map((template) => (
                    <option key={template.id} value={template.id}>
                      {template.title}
                    </option>
                  ))}
                </select>
              </FormField>
            ) : null}
            <BoundFields
              form={form}
              fields={[
                {
                  name: 'text',
                  label: t('fields.text'),
                  hint: t('form.textHint'),
                  rows: 9,
                  required: true,
                  testId: 'certificate-text',
                  className: 'col-12',
                },
                { name: 'notes', label: t('fields.notes'), hint: t('form.notesHint'), rows: 2, className: 'col-12' },
              ]}
            />
          </div>
        </div>
      </fieldset>
      <FormActions
        backTo={formBackPath('certificate', patientId, null)}
        editing={false}
        submitting={isSubmitting}
        disabled={isSubmitting}
      />
    </RecordForm>
  );
}

/** After issue: the internal notes, and nothing printed. */
function NotesForm(props: RecordFormProps<'certificate'> & { record: HealthCertificate }) {
  const { patientId, record } = props;
  const { t } = useTranslation('certificates');
  const { professionalName: _n, professionalLicense: _l, professionalSpecialty: _s, ...fields } = record;
  const form = useZodForm(updateHealthCertificateRequestSchema, {
    kind: fields.kind,
    date: fields.date,
    professionalId: fields.professionalId,
    addressee: fields.addressee ?? '',
    visitTime: fields.visitTime ?? '',
    restFrom: fields.restFrom ?? '',
    restTo: fields.restTo ?? '',
    diagnosis: fields.diagnosis ?? '',
    showDiagnosis: fields.showDiagnosis,
    activity: fields.activity ?? '',
    text: fields.text,
    notes: fields.notes ?? '',
    replacesId: fields.replacesId,
    version: fields.version,
  });
  const save = useRecordSave('certificate', props, form.formErrors);
  const onSubmit = form.submit((values) => save(values, form.setError));
  const { isSubmitting, isDirty } = form.formState;
  return (
    <RecordForm ref={form.formErrors.ref} onSubmit={onSubmit} testId="certificate-form">
      <fieldset disabled={isSubmitting} className="card mb-0">
        <div className="card-body d-flex flex-column gap-3">
          <div className="alert alert-secondary mb-0">{t('form.issuedNotice')}</div>
          <TextField form={form} name="notes" label={t('fields.notes')} hint={t('form.notesHint')} rows={4} />
        </div>
      </fieldset>
      <FormActions
        backTo={formBackPath('certificate', patientId, record)}
        editing
        submitting={isSubmitting}
        disabled={isSubmitting || !isDirty}
      />
    </RecordForm>
  );
}

/** How the history of changes names a certificate's fields, kinds and its void. */
function useCertificateChanges() {
  const { t } = useTranslation('certificates');
  const fields = ['kind', 'date', 'addressee', 'visitTime', 'restFrom', 'restTo', 'diagnosis', 'showDiagnosis'];
  return {
    fieldLabels: {
      ...Object.fromEntries([...fields, 'activity', 'text', 'notes', 'voidReason'].map((f) => [f, t(`fields.${f}`)])),
      voided: t('status.voided'),
    },
    valueLabels: { kind: Object.fromEntries(healthCertificateKinds.map((kind) => [kind, t(`kinds.${kind}`)])) },
    actionLabel: (action: string) => (action === 'health_certificate_voided' ? t('void.action') : undefined),
  };
}

export function CertificateView(props: RecordViewProps<'certificate'>) {
  const { patientId, record, canWrite } = props;
  const { t } = useTranslation('certificates');
  const date = useCalendarDate();
  const changes = useCertificateChanges();
  const voided = record.voidedAt !== null;
  return (
    <RecordCard
      {...props}
      changes={changes}
      kind="certificate"
      description={`${t(`kinds.${record.kind}`)} · ${date(record.date)} · ${record.verificationCode}`}
      status={
        <>
          <span className={`badge ${voided ? 'text-bg-danger' : 'text-bg-success'}`} data-testid="record-status">
            {t(voided ? 'status.voided' : 'status.issued')}
          </span>
          <span className="small text-body-secondary">{t('fields.verificationCode')}</span>
          <code className="fs-6 fw-semibold text-body" data-testid="verification-code">
            {record.verificationCode}
          </code>
        </>
      }
      actions={
        <>
          <PdfButton
            load={() => clinicalApi.certificatePdf(patientId, record.id)}
            fallbackName="certificado.pdf"
            label={t('print')}
            testId="print-certificate"
          />
          {canWrite && !voided ? <VoidButton patientId={patientId} record={record} /> : null}
          {canWrite && voided ? (
            <IconLink
              to={`${recordPaths.create('certificate', patientId)}?replaces=${record.id}`}
              className="btn btn-outline-primary"
              icon={Copy}
              testId="reissue-certificate"
            >
              {t('reissue')}
            </IconLink>
          ) : null}
        </>
      }
    >
      {voided ? (
        <div className="alert alert-danger mb-0" data-testid="certificate-voided">
          {t('void.notice', { reason: record.voidReason })}
        </div>
      ) : null}
      <dl className="clinical-facts mb-0">
        <Fact label={t('fields.kind')} testId="record-kind">
          {t(`kinds.${record.kind}`)}
        </Fact>
        <Fact label={t('fields.date')} testId="record-date">
          {date(record.date)}
        </Fact>
        <Fact label={t('fields.professional')}>
          {[record.professionalName, record.professionalSpecialty, record.professionalLicense]
            .filter(Boolean)
            .join(' · ')}
        </Fact>
        <Fact label={t('fields.addressee')}>{record.addressee}</Fact>
        {record.kind === 'rest' ? (
          <Fact label={t('fields.rest')} testId="record-rest">
            {`${date(record.restFrom)} – ${date(record.restTo)}`}
          </Fact>
        ) : null}
        <Fact label={t('fields.diagnosis')}>
          {record.diagnosis
            ? `${record.diagnosis} (${t(record.showDiagnosis ? 'form.diagnosisShown' : 'form.diagnosisWithheld')})`
            : null}
        </Fact>
        <Fact label={t('fields.text')} wide testId="record-text">
          <span className="text-prewrap">{record.text}</span>
        </Fact>
        <TextFact label={t('fields.notes')} text={record.notes} />
        {record.replacesId ? (
          <Fact label={t('fields.replaces')}>
            <Link to={recordPaths.show('certificate', patientId, record.replacesId)}>{t('openReplaced')}</Link>
          </Fact>
        ) : null}
      </dl>
    </RecordCard>
  );
}
