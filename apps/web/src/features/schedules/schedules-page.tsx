import { can } from '@odontia/shared/permissions';
import type { ReminderSettings, Schedule } from '@odontia/shared/schemas/schedules';
import { Copy, Save } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FieldFeedback, FormAlert } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { PageTitle } from '../../components/page-title';
import { Spinner } from '../../components/spinner';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useFormErrors } from '../../lib/form-errors';
import { fieldErrorsOf } from '../auth/api-errors';
import { useDateTimeFormat } from '../auth/clinic-time';
import { useSessionUser } from '../auth/session';
import { useReminderSettings, useSaveReminderSettings, useSchedules } from './api';
import { ChairsSection, ExceptionsSection, TreatmentsSection } from './records';
import { rowsOf, WeekEditor } from './week-editor';
import './schedules.css';

/*
 * /schedules (issue 16, spec §3 "Schedule"): the clinic's opening hours, each professional's
 * attendance schedule, the dated exceptions, chairs, treatments and e-mail reminders. Levels
 * without settings.manage read it all; with appointments.write they still add exceptions.
 */

function SavedBy({ schedule }: { schedule: Schedule }) {
  const { t } = useTranslation('schedules');
  const dateTime = useDateTimeFormat();
  if (!schedule.updatedAt) return null;
  return (
    <p className="small text-body-secondary mb-0">
      {t('week.savedAt', { when: dateTime(schedule.updatedAt), who: schedule.updatedByName ?? '' })}
    </p>
  );
}

function ProfessionalWeek({
  clinic,
  professionals,
  canEdit,
}: {
  clinic: Schedule;
  professionals: Schedule[];
  canEdit: boolean;
}) {
  const { t } = useTranslation('schedules');
  const selectId = useId();
  const [selected, setSelected] = useState(professionals[0]?.professionalId ?? '');
  const [copied, setCopied] = useState(0);
  const schedule = professionals.find((row) => row.professionalId === selected);
  const follows = schedule ? schedule.ranges.length === 0 : false;
  return (
    <section className="card mb-0" aria-labelledby="professional-week-title" data-testid="professional-week">
      <div className="card-body d-flex flex-column gap-2">
        <div>
          <h2 id="professional-week-title" className="h5 mb-0">
            {t('professionals.title')}
          </h2>
          <p className="small text-body-secondary mb-0">{t('professionals.intro')}</p>
        </div>
        {professionals.length === 0 ? (
          <p className="text-body-secondary mb-0">{t('professionals.empty')}</p>
        ) : (
          <>
            <div className="d-flex flex-wrap align-items-end gap-2">
              <div className="schedules-professional-select">
                <label htmlFor={selectId} className="form-label mb-1">
                  {t('professionals.pick')}
                </label>
                <select
                  id={selectId}
                  className="form-select"
                  value={selected}
                  onChange={(event) => {
                    setSelected(event.target.value);
                    setCopied(0);
                  }}
                  data-testid="professional-select"
                >
                  {professionals.map((row) => (
                    <option key={row.professionalId} value={row.professionalId ?? ''}>
                      {row.professionalName}
                    </option>
                  ))}
                </select>
              </div>
              {canEdit && clinic.ranges.length > 0 ? (
                <button
                  type="button"
                  className="btn btn-outline-secondary"
                  onClick={() => setCopied((count) => count + 1)}
                  data-testid="copy-clinic"
                >
                  <Copy size={16} aria-hidden="true" className="me-1" />
                  {t('professionals.copyClinic')}
                </button>
              ) : null}
            </div>
            {follows && copied === 0 ? (
              <FormAlert variant="info" testId="follows-clinic">
                {t('professionals.followsClinic')}
              </FormAlert>
            ) : null}
            {schedule ? (
              <>
                <SavedBy schedule={schedule} />
                <WeekEditor
                  key={`${schedule.professionalId}-${schedule.version}-${copied}`}
                  schedule={schedule}
                  canEdit={canEdit}
                  testId="professional-week-editor"
                  {...(copied > 0 ? { initialRows: rowsOf(clinic) } : {})}
                  emptyDay={follows && copied === 0 ? t('professionals.clinicHours') : undefined}
                  onSaved={() => setCopied(0)}
                />
              </>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}

const leadChoices = [2, 12, 24, 48, 72];

function RemindersSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('schedules');
  const settings = useReminderSettings();
  if (settings.isPending) return <Spinner size={6} />;
  if (settings.isError) return <FormAlert>{t('loadError')}</FormAlert>;
  return <RemindersForm key={JSON.stringify(settings.data.data)} settings={settings.data.data} canEdit={canEdit} />;
}

function RemindersForm({ settings, canEdit }: { settings: ReminderSettings; canEdit: boolean }) {
  const { t } = useTranslation('schedules');
  const id = useId();
  const save = useSaveReminderSettings();
  const hours = settings.reminderLeadMinutes / 60;
  const [values, setValues] = useState({
    remindersEnabled: settings.remindersEnabled,
    lead: leadChoices.includes(hours) ? String(hours) : 'custom',
    customHours: String(hours),
    address: settings.address ?? '',
    phone: settings.phone ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const formErrors = useFormErrors<HTMLFormElement>();
  const set = (change: Partial<typeof values>) => setValues((current) => ({ ...current, ...change }));
  const submit = async () => {
    const leadHours = Number(values.lead === 'custom' ? values.customHours.replace(',', '.') : values.lead);
    const minutes = Math.round(leadHours * 60);
    if (!Number.isFinite(minutes) || minutes < 60 || minutes > 7 * 24 * 60) {
      setErrors({ reminderLeadMinutes: 'invalid_value' });
      formErrors.reveal();
      return;
    }
    setErrors({});
    try {
      const answer = await save.mutateAsync({
        remindersEnabled: values.remindersEnabled,
        reminderLeadMinutes: minutes,
        address: values.address,
        phone: values.phone,
      });
      toastSuccess(answer.code);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length) {
        setErrors(Object.fromEntries(fields.map((field) => [field.path, field.code])));
        formErrors.reveal();
      } else toastApiError(error);
    }
  };
  const leadError = errors.reminderLeadMinutes;
  return (
    <form
      ref={formErrors.ref}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      data-testid="reminders-form"
    >
      <fieldset disabled={!canEdit || save.isPending} className="row g-3">
        <legend className="visually-hidden">{t('reminders.title')}</legend>
        <div className="col-12">
          <div className="form-check form-switch">
            <input
              id={`${id}-enabled`}
              type="checkbox"
              className="form-check-input"
              checked={values.remindersEnabled}
              onChange={(event) => set({ remindersEnabled: event.target.checked })}
              data-testid="reminders-enabled"
            />
            <label htmlFor={`${id}-enabled`} className="form-check-label">
              {t('reminders.enabled')}
            </label>
          </div>
        </div>
        <div className="col-sm-6">
          <label htmlFor={`${id}-lead`} className="form-label">
            {t('reminders.lead')}
          </label>
          <select
            id={`${id}-lead`}
            className="form-select"
            value={values.lead}
            onChange={(event) => set({ lead: event.target.value })}
            data-testid="reminders-lead"
          >
            {leadChoices.map((choice) => (
              <option key={choice} value={String(choice)}>
                {t('reminders.hoursBefore', { count: choice })}
              </option>
            ))}
            <option value="custom">{t('reminders.custom')}</option>
          </select>
        </div>
        <div className="col-sm-6">
          {values.lead === 'custom' ? (
            <>
              <label htmlFor={`${id}-hours`} className="form-label">
                {t('reminders.customHours')}
              </label>
              <input
                id={`${id}-hours`}
                type="number"
                min={1}
                max={168}
                className={`form-control${leadError ? ' is-invalid' : ''}`}
                value={values.customHours}
                onChange={(event) => set({ customHours: event.target.value })}
                aria-invalid={leadError ? true : undefined}
                aria-describedby={leadError ? `${id}-hours-error` : `${id}-hours-hint`}
                data-testid="reminders-hours"
              />
              <div id={`${id}-hours-hint`} className="form-text">
                {t('reminders.customHint')}
              </div>
              <FieldFeedback id={`${id}-hours-error`} message={fieldCodeText(leadError)} />
            </>
          ) : null}
        </div>
        <div className="col-md-8">
          <label htmlFor={`${id}-address`} className="form-label">
            {t('reminders.address')}
          </label>
          <input
            id={`${id}-address`}
            className={`form-control${errors.address ? ' is-invalid' : ''}`}
            value={values.address}
            maxLength={300}
            onChange={(event) => set({ address: event.target.value })}
            data-testid="reminders-address"
          />
          <FieldFeedback id={`${id}-address-error`} message={fieldCodeText(errors.address)} />
        </div>
        <div className="col-md-4">
          <label htmlFor={`${id}-phone`} className="form-label">
            {t('reminders.phone')}
          </label>
          <input
            id={`${id}-phone`}
            type="tel"
            className={`form-control${errors.phone ? ' is-invalid' : ''}`}
            value={values.phone}
            maxLength={40}
            onChange={(event) => set({ phone: event.target.value })}
            data-testid="reminders-phone"
          />
          <FieldFeedback id={`${id}-phone-error`} message={fieldCodeText(errors.phone)} />
        </div>
        <div className="col-12">
          <p className="small text-body-secondary mb-0">{t('reminders.hint')}</p>
        </div>
        {canEdit ? (
          <div className="col-12 d-flex justify-content-end">
            <button type="submit" className="btn btn-primary" data-testid="reminders-save">
              <BusyIcon busy={save.isPending} icon={Save} />
              {t('actions.save')}
            </button>
          </div>
        ) : null}
      </fieldset>
    </form>
  );
}

export function SchedulesPage() {
  const { t } = useTranslation(['schedules', 'common']);
  const user = useSessionUser();
  const canSettings = user ? can(user.level, 'settings.manage') : false;
  const canBook = user ? can(user.level, 'appointments.write') : false;
  const schedules = useSchedules();
  const professionals =
    schedules.data?.professionals.map((row) => ({ id: row.professionalId ?? '', name: row.professionalName ?? '' })) ??
    [];
  return (
    <div className="d-flex flex-column gap-3 schedules-page" data-testid="schedules-page">
      <PageTitle title={t('common:pages.schedules')} />
      <div>
        <h1 className="h3 mb-1">{t('title')}</h1>
        <p className="text-body-secondary mb-0">{t('intro')}</p>
      </div>
      {canSettings ? null : (
        <FormAlert variant="info" testId="schedules-read-only">
          {canBook ? t('readOnlyBook') : t('readOnly')}
        </FormAlert>
      )}
      {schedules.isPending ? (
        <div className="text-center py-4">
          <Spinner size={6} />
        </div>
      ) : schedules.isError ? (
        <FormAlert testId="schedules-error">{t('loadError')}</FormAlert>
      ) : (
        <>
          <section className="card mb-0" aria-labelledby="clinic-week-title" data-testid="clinic-week">
            <div className="card-body d-flex flex-column gap-2">
              <div>
                <h2 id="clinic-week-title" className="h5 mb-0">
                  {t('clinic.title')}
                </h2>
                <p className="small text-body-secondary mb-0">{t('clinic.intro')}</p>
                <SavedBy schedule={schedules.data.clinic} />
              </div>
              <WeekEditor
                key={`clinic-${schedules.data.clinic.version}`}
                schedule={schedules.data.clinic}
                canEdit={canSettings}
                testId="clinic-week-editor"
              />
            </div>
          </section>
          <ProfessionalWeek
            clinic={schedules.data.clinic}
            professionals={schedules.data.professionals}
            canEdit={canSettings}
          />
        </>
      )}
      <ExceptionsSection canWrite={canBook} professionals={professionals} />
      <div className="row g-3">
        <div className="col-lg-6">
          <ChairsSection canWrite={canSettings} />
        </div>
        <div className="col-lg-6">
          <TreatmentsSection canWrite={canSettings} />
        </div>
      </div>
      <section className="card mb-0" aria-labelledby="reminders-title" data-testid="reminders-section">
        <div className="card-body d-flex flex-column gap-2">
          <div>
            <h2 id="reminders-title" className="h5 mb-0">
              {t('reminders.title')}
            </h2>
            <p className="small text-body-secondary mb-0">{t('reminders.intro')}</p>
          </div>
          <RemindersSection canEdit={canSettings} />
        </div>
      </section>
    </div>
  );
}
