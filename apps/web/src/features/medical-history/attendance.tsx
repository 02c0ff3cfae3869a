import '../../lib/zod-setup';
import { can } from '@odontia/shared/permissions';
import type { Attendance } from '@odontia/shared/schemas/attendances';
import { createAddendumRequestSchema } from '@odontia/shared/schemas/attendances';
import { CalendarPlus, FilePlus2, Lock } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { describedField, FormField, inputClass } from '../../components/form-field';
import { IconLink } from '../../components/icon-link';
import { RecordForm } from '../../components/record-form';
import { toastSuccess } from '../../lib/api-toast';
import { useZodForm } from '../../lib/use-zod-form';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { calendarPath } from '../appointments/api';
import { useMoneyFormat } from '../inventory/format';
import { useAllergyCheck, useAllergyText } from '../patients/allergy-warning';
import { InvoiceAttendanceButton } from '../sales/patient-billing';
import { recordPaths, useAddAddendum } from './api';
import { Fact, TextFact, toastSaveError, useCalendarDate } from './form-bits';
import { RecordCard, type RecordViewProps } from './record-screens';

/** A finished attendance's edit route: it can no longer be edited (null: the form). */
export function attendanceLocked(record: Attendance, patientId: string) {
  if (!record.finished) return null;
  return <AttendanceLocked patientId={patientId} id={record.id} />;
}

function AttendanceLocked({ patientId, id }: { patientId: string; id: string }) {
  const { t } = useTranslation('clinical');
  return (
    <div
      className="alert alert-info mb-0 d-flex flex-wrap align-items-center gap-2"
      role="status"
      data-testid="attendance-locked"
    >
      <Lock size={16} aria-hidden="true" />
      <span className="me-auto">{t('attendance.finishedLocked')}</span>
      <Link to={recordPaths.show('attendance', patientId, id)} className="btn btn-sm btn-outline-primary">
        {t('attendance.openRecord')}
      </Link>
    </div>
  );
}

function AddendumForm({ patientId, id }: { patientId: string; id: string }) {
  const { t } = useTranslation('clinical');
  const fieldId = useId();
  const add = useAddAddendum(patientId, id);
  const form = useZodForm(createAddendumRequestSchema, { text: '' });
  const { formErrors } = form;
  const onSubmit = form.submit(async (values) => {
    try {
      const answer = await add.mutateAsync(values.text);
      if (answer.code) toastSuccess(answer.code);
      form.reset({ text: '' });
    } catch (error) {
      if (!formErrors.place(error, form.setError)) toastSaveError(error);
    }
  });
  const message = form.formState.errors.text?.message;
  const isSubmitting = form.formState.isSubmitting;
  return (
    <RecordForm ref={formErrors.ref} onSubmit={onSubmit} testId="addendum-form" className="mt-3">
      <FormField id={fieldId} label={t('attendance.addendumLabel')} error={message} hint={t('attendance.addendumHint')}>
        <textarea
          {...form.register('text')}
          {...describedField(fieldId, message, true)}
          className={inputClass(message)}
          rows={3}
        />
      </FormField>
      <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="addendum-save">
        <BusyIcon busy={isSubmitting} icon={FilePlus2} />
        {t('attendance.addAddendum')}
      </button>
    </RecordForm>
  );
}

export function AttendanceView(props: RecordViewProps<'attendance'>) {
  const { patientId, record, canWrite } = props;
  const { t } = useTranslation('clinical');
  const { t: tDashboard } = useTranslation('dashboard');
  const { t: tPrice } = useTranslation('priceList');
  const user = useSessionUser();
  const canBook = user ? can(user.level, 'appointments.write') : false;
  const date = useCalendarDate();
  const dateTime = useDateTimeFormat();
  const money = useMoneyFormat();
  const items = (list: Attendance['supplies']) =>
    list.length ? list.map((item) => `${item.name} × ${item.quantity}`).join(', ') : null;
  const allergyOf = useAllergyCheck(patientId);
  const allergyText = useAllergyText();
  const medicineAllergies = record.medications.flatMap((item) => {
    const match = allergyOf(item.name);
    return match ? [{ name: item.name, text: allergyText(match, 'short') }] : [];
  });
  return (
    <RecordCard
      {...props}
      kind="attendance"
      description={record.finished ? null : record.titleResume}
      deleteExtra={record.supplies.length || record.medications.length ? t('attendance.deleteStock') : undefined}
      names={Object.fromEntries([...record.supplies, ...record.medications].map((item) => [item.itemId, item.name]))}
      status={
        <>
          <span
            className={`badge ${record.finished ? 'text-bg-secondary' : 'text-bg-primary'}`}
            data-testid="record-status"
          >
            {t(record.finished ? 'attendance.finished' : 'attendance.open')}
          </span>
          <span className="badge text-bg-light border">{t(`attendanceGroups.${record.attendanceGroup}`)}</span>
        </>
      }
      after={
        record.finished ? (
          <section className="card mb-0" data-testid="addenda">
            <div className="card-header">
              <h2 className="card-title h6 mb-0">{t('attendance.addenda')}</h2>
            </div>
            <div className="card-body">
              {record.addenda.length === 0 ? (
                <p className="text-body-secondary mb-0">{t('attendance.noAddenda')}</p>
              ) : (
                <ol className="list-unstyled addenda-list mb-0">
                  {record.addenda.map((addendum) => (
                    <li key={addendum.id} className="addendum" data-testid="addendum">
                      <div className="small text-body-secondary">
                        {t('attendance.addendumBy', {
                          who: addendum.userName ?? t('common.system'),
                          when: dateTime(addendum.createdAt),
                        })}
                      </div>
                      <div className="text-prewrap">{addendum.text}</div>
                    </li>
                  ))}
                </ol>
              )}
              {canWrite ? <AddendumForm patientId={patientId} id={record.id} /> : null}
            </div>
          </section>
        ) : null
      }
    >
      <dl className="clinical-facts mb-0">
        <Fact label={t('fields.date')} testId="record-date">
          {dateTime(record.date)}
        </Fact>
        <Fact label={t('fields.attendanceType')} testId="record-type">
          {t(`attendanceTypes.${record.attendanceType}`)}
        </Fact>
        <Fact label={t('fields.specialization')}>{record.specialization}</Fact>
        <Fact label={t('fields.professional')}>{record.professionalName}</Fact>
        <Fact label={t('fields.titleResume')} wide testId="record-title-resume">
          {record.titleResume}
        </Fact>
        <TextFact label={t('fields.resume')} text={record.resume} />
        <TextFact label={t('fields.detail')} text={record.detail} />
        <Fact label={t('fields.resultDate')}>{date(record.resultDate)}</Fact>
        <Fact label={t('fields.nextAppointment')}>
          {record.nextAppointment ? (
            <span className="d-inline-flex flex-wrap align-items-center gap-2">
              {date(record.nextAppointment)}
              {canBook ? (
                <IconLink
                  to={calendarPath({
                    date: record.nextAppointment.slice(0, 10),
                    patientId,
                    professionalId: record.professionalId,
                  })}
                  className="btn btn-outline-primary btn-sm"
                  icon={CalendarPlus}
                  small
                  testId="book-next-appointment"
                >
                  {tDashboard('attendance.bookNext')}
                </IconLink>
              ) : null}
            </span>
          ) : null}
        </Fact>
        <TextFact label={t('fields.result')} text={record.result} />
        <Fact label={t('fields.supplies')} wide testId="record-supplies">
          {items(record.supplies)}
        </Fact>
        <Fact label={t('fields.medications')} wide testId="record-medications">
          {items(record.medications)}
          {medicineAllergies.map((allergy) => (
            <span key={allergy.name} className="badge text-bg-danger ms-2" data-testid="record-medication-allergy">
              {allergy.name}: {allergy.text}
            </span>
          ))}
        </Fact>
      </dl>
      <div>
        <h2 className="h6">{t('attendance.sections.billing')}</h2>
        <div className="table-responsive">
          <table className="table table-sm mb-0 billing-table">
            <thead>
              <tr>
                <th scope="col">{t('fields.description')}</th>
                <th scope="col" className="text-end">
                  {t('fields.quantity')}
                </th>
                <th scope="col" className="text-end">
                  {t('fields.price')}
                </th>
                <th scope="col" className="text-end">
                  {t('fields.total')}
                </th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>
                  {t('fields.attendanceFee')}
                  {record.feeInvoiced ? (
                    <span className="d-block small text-body-secondary">{tPrice('attendanceLines.invoiced')}</span>
                  ) : null}
                </td>
                <td />
                <td />
                <td className="text-end">{money(record.attendanceFee)}</td>
              </tr>
              {record.lines.map((line) => (
                <tr key={line.id} data-testid="attendance-line">
                  <td>
                    {line.description}
                    {line.treatmentCode || line.tooth || line.invoiced ? (
                      <span className="d-block small text-body-secondary">
                        {[
                          line.treatmentCode,
                          line.tooth ? tPrice('attendanceLines.toothShort', { tooth: line.tooth }) : null,
                          line.budgetLineId ? tPrice('attendanceLines.fromBudget') : null,
                          line.invoiced ? tPrice('attendanceLines.invoiced') : null,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </span>
                    ) : null}
                  </td>
                  <td className="text-end">{line.quantity}</td>
                  <td className="text-end">{money(line.price)}</td>
                  <td className="text-end">{money(line.total)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  {t('fields.totalBillable')}
                  {record.billable ? null : ` (${t('fields.billable').toLowerCase()}: ${t('common.no').toLowerCase()})`}
                </th>
                <td className="text-end fw-semibold" data-testid="record-total">
                  {money(record.totalBillable)}
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
        {record.billable && Number.parseFloat(record.totalBillable) > 0 ? (
          <div className="d-flex justify-content-end mt-2">
            <InvoiceAttendanceButton patientId={patientId} attendanceId={record.id} />
          </div>
        ) : null}
      </div>
    </RecordCard>
  );
}
