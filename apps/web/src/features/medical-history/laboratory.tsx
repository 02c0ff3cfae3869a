import '../../lib/zod-setup';
import { attendanceGroupOf, type LaboratoryStudy, laboratoryStatuses, laboratoryStudies } from '@odontia/shared/enums';
import {
  createLaboratoryRequestSchema,
  type UpdateLaboratoryRequest,
  updateLaboratoryRequestSchema,
} from '@odontia/shared/schemas/laboratories';
import { FileUp } from 'lucide-react';
import { useId, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BoundFields, fieldError, TextField } from '../../components/bound-fields';
import { DateField } from '../../components/date-input';
import { FieldFeedback } from '../../components/form-feedback';
import { FieldLabel, fieldCodeText } from '../../components/form-field';
import { IconTextButton } from '../../components/icon-button';
import { PdfButton } from '../../components/pdf-button';
import { useZodForm } from '../../lib/use-zod-form';
import { useClinicToday } from '../../session/clinic-time';
import { useRecordFiles, useUploadLimits } from '../files/api';
import { FileLink, useOpenFile } from '../files/record-files';
import { UploadDialog } from '../files/upload-dialog';
import { clinicalApi } from './api';
import {
  Fact,
  RecordDateAndProfessional,
  RecordFormCard,
  TextFact,
  useCalendarDate,
  useProfessional,
} from './form-bits';
import { formBackPath, RecordCard, type RecordFormProps, type RecordViewProps, useRecordSave } from './record-screens';
import { laboratoryStatusClass, type RecordOf } from './records';

/** The studies as the order groups them: laboratory, then imaging. */
export const studyGroups: { key: 'laboratory' | 'imaging'; studies: LaboratoryStudy[] }[] = [
  { key: 'laboratory', studies: laboratoryStudies.filter((study) => attendanceGroupOf[study] === 'laboratory') },
  { key: 'imaging', studies: laboratoryStudies.filter((study) => attendanceGroupOf[study] !== 'laboratory') },
];

/** Checkbox groups give `false` when none is ticked: the schema wants a list. */
const normalise = (value: UpdateLaboratoryRequest): UpdateLaboratoryRequest => {
  const values = { ...value };
  const studies: unknown = values.studies;
  if (!Array.isArray(studies)) values.studies = studies ? [studies as LaboratoryStudy] : [];
  // The result belongs to a received result only (the fields are hidden otherwise).
  if (values.status !== 'result_received') {
    values.resultDate = '';
    values.result = '';
  }
  return values;
};

export function LaboratoryForm(props: RecordFormProps<'laboratory'>) {
  const { patientId, record } = props;
  const { t } = useTranslation('clinical');
  const id = useId();
  const professional = useProfessional(record);
  const today = useClinicToday();
  const editing = record !== null;
  const form = useZodForm(
    updateLaboratoryRequestSchema,
    {
      orderDate: record?.orderDate.slice(0, 10) ?? today,
      professionalId: record?.professionalId ?? professional.id,
      laboratoryName: record?.laboratoryName ?? '',
      studies: record?.studies ?? [],
      instructions: record?.instructions ?? '',
      notes: record?.notes ?? '',
      status: record?.status ?? 'ordered',
      // Today on the clinic's clock when the result is marked received (cleared while it is not).
      resultDate: record?.resultDate?.slice(0, 10) ?? today,
      result: record?.result ?? '',
      version: record?.version ?? 1,
    },
    { prepare: normalise, validateWith: editing ? undefined : createLaboratoryRequestSchema },
  );
  const save = useRecordSave('laboratory', props, form.formErrors);
  const onSubmit = form.submit((values) => save(values, form.setError));
  const { isSubmitting, isDirty } = form.formState;
  const received = useWatch({ control: form.control, name: 'status' }) === 'result_received';
  const fieldId = (name: string) => `${id}-${name}`;
  const studiesMessage = fieldError(form, 'studies');
  return (
    <RecordFormCard
      ref={form.formErrors.ref}
      onSubmit={onSubmit}
      testId="laboratory-form"
      backTo={formBackPath('laboratory', patientId, record)}
      editing={editing}
      isSubmitting={isSubmitting}
      isDirty={isDirty}
    >
      <RecordDateAndProfessional
        form={form}
        dateName="orderDate"
        professional={professional}
        professionalColumn="col-sm-6 col-lg-4"
      />
      <div className="col-lg-5">
        <TextField form={form} name="laboratoryName" label={t('fields.laboratoryName')} required />
      </div>
      <div className="col-12">
        <fieldset aria-describedby={studiesMessage ? `${fieldId('studies')}-error` : undefined}>
          <legend className="form-label fs-6 mb-1">
            <FieldLabel text={t('fields.studies')} required />
          </legend>
          <div className="study-groups">
            {studyGroups.map((group) => (
              <div key={group.key} className="study-group" data-testid={`studies-${group.key}`}>
                <div className="small fw-semibold text-body-secondary mb-1">{t(`laboratory.groups.${group.key}`)}</div>
                {group.studies.map((study) => (
                  <div className="form-check" key={study}>
                    <input
                      {...form.register('studies')}
                      type="checkbox"
                      value={study}
                      id={fieldId(`study-${study}`)}
                      className={`form-check-input${studiesMessage ? ' is-invalid' : ''}`}
                    />
                    <label className="form-check-label" htmlFor={fieldId(`study-${study}`)}>
                      {t(`attendanceTypes.${study}`)}
                    </label>
                  </div>
                ))}
              </div>
            ))}
          </div>
          <FieldFeedback id={`${fieldId('studies')}-error`} message={fieldCodeText(studiesMessage)} />
        </fieldset>
      </div>
      <BoundFields
        form={form}
        fields={[
          {
            name: 'instructions',
            label: t('fields.instructions'),
            hint: t('laboratory.instructionsHint'),
            rows: 3,
            className: 'col-lg-6',
          },
          { name: 'notes', label: t('fields.notes'), hint: t('laboratory.notesHint'), rows: 3, className: 'col-lg-6' },
          {
            name: 'status',
            label: t('fields.status'),
            options: laboratoryStatuses.map((value) => ({ value, label: t(`laboratory.statuses.${value}`) })),
            className: 'col-sm-6 col-lg-4',
          },
        ]}
      />
      {received ? (
        <>
          <div className="col-sm-6 col-lg-4">
            <DateField form={form} name="resultDate" label={t('fields.resultDate')} required />
          </div>
          <div className="col-12">
            <TextField form={form} name="result" label={t('fields.result')} rows={5} />
          </div>
        </>
      ) : null}
    </RecordFormCard>
  );
}

/** The result's text and, beside it, the order's result files (type lab_result), opened where they are. */
function ResultWithFiles({ patientId, record }: { patientId: string; record: RecordOf['laboratory'] }) {
  const files = useRecordFiles(patientId, { kind: 'laboratory', id: record.id }).data?.data ?? [];
  const results = files.filter((file) => file.fileType === 'lab_result');
  const { open, viewer } = useOpenFile(patientId);
  if (!record.result && results.length === 0) return <span className="text-body-secondary">—</span>;
  return (
    <span className="d-flex flex-wrap gap-3 align-items-start">
      {record.result ? <span className="text-prewrap flex-grow-1">{record.result}</span> : null}
      {results.length > 0 ? (
        <span className="d-flex flex-column align-items-start" data-testid="record-result-files">
          {results.map((file) => (
            <FileLink key={file.id} file={file} onOpen={open} />
          ))}
        </span>
      ) : null}
      {viewer}
    </span>
  );
}

/** "Recibir resultado": the laboratory's PDF uploaded and the order marked received, in one step. */
function ReceiveResultButton({ patientId, record }: { patientId: string; record: RecordOf['laboratory'] }) {
  const { t } = useTranslation('files');
  const limits = useUploadLimits();
  const [show, setShow] = useState(false);
  if (!limits.data) return null;
  return (
    <>
      <IconTextButton
        icon={FileUp}
        className="btn btn-primary btn-sm"
        onClick={() => setShow(true)}
        testId="receive-result"
        iconClassName="me-1"
      >
        {t('receive.open')}
      </IconTextButton>
      <UploadDialog
        key={record.version}
        patientId={patientId}
        limits={limits.data}
        show={show}
        onHide={() => setShow(false)}
        receive={record}
      />
    </>
  );
}

export function LaboratoryView(props: RecordViewProps<'laboratory'>) {
  const { patientId, record, canWrite } = props;
  const { t } = useTranslation('clinical');
  const date = useCalendarDate();
  return (
    <RecordCard
      {...props}
      kind="laboratory"
      description={record.laboratoryName}
      status={
        <span className={`badge ${laboratoryStatusClass(record.status)}`} data-testid="record-status">
          {t(`laboratory.statuses.${record.status}`)}
        </span>
      }
      actions={
        <>
          {canWrite && record.status !== 'result_received' ? (
            <ReceiveResultButton patientId={patientId} record={record} />
          ) : null}
          <PdfButton
            load={() => clinicalApi.orderPdf(patientId, record.id)}
            fallbackName="orden-laboratorio.pdf"
            label={t('laboratory.print')}
            testId="print-order"
          />
        </>
      }
    >
      <dl className="clinical-facts mb-0">
        <Fact label={t('fields.orderDate')} testId="record-date">
          {date(record.orderDate)}
        </Fact>
        <Fact label={t('fields.professional')}>{record.professionalName}</Fact>
        <Fact label={t('fields.laboratoryName')} testId="record-laboratory">
          {record.laboratoryName}
        </Fact>
        <Fact label={t('fields.studies')} wide testId="record-studies">
          {record.studies.map((study) => t(`attendanceTypes.${study}`)).join(', ')}
        </Fact>
        <TextFact label={t('fields.instructions')} text={record.instructions} />
        <TextFact label={t('fields.notes')} text={record.notes} />
        <Fact label={t('fields.resultDate')} testId="record-result-date">
          {date(record.resultDate)}
        </Fact>
        <Fact label={t('fields.result')} wide testId="record-result">
          <ResultWithFiles patientId={patientId} record={record} />
        </Fact>
      </dl>
    </RecordCard>
  );
}
