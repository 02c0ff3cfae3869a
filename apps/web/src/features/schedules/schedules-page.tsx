import { can } from '@odontia/shared/permissions';
import type { Schedule } from '@odontia/shared/schemas/schedules';
import { Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../components/form-feedback';
import { PageTitle } from '../../components/page-title';
import { Spinner } from '../../components/spinner';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useReminderSettings, useSchedules } from './api';
import { ChairsSection, ExceptionsSection, TreatmentsSection } from './records';
import { ScheduleSection } from './schedule-section';
import { rowsOf, WeekEditor } from './week-editor';
import './schedules.css';
import { IconTextButton } from '../../components/icon-button';

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
    <ScheduleSection title={t('professionals.title')} intro={t('professionals.intro')} testId="professional-week">
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
              <IconTextButton
                icon={Copy}
                className="btn btn-outline-secondary"
                onClick={() => setCopied((count) => count + 1)}
                testId="copy-clinic"
                iconClassName="me-1"
              >
                {t('professionals.copyClinic')}
              </IconTextButton>
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
    </ScheduleSection>
  );
}

/**
 * The reminders as they are: the one editor of when they leave is /settings (issue 19), of the
 * address and phone they print the fiscal data; an administrator gets a link to each.
 */
function RemindersSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('schedules');
  const settings = useReminderSettings();
  if (settings.isPending) return <Spinner size={6} />;
  if (settings.isError) return <FormAlert>{t('loadError')}</FormAlert>;
  const { remindersEnabled, reminderLeadMinutes, address, phone } = settings.data.data;
  const contact = [address, phone].filter(Boolean).join(' · ');
  return (
    <div className="d-flex flex-column gap-2" data-testid="reminders-summary">
      <p className="mb-0">
        {remindersEnabled
          ? t('reminders.summaryOn', { count: Math.round((reminderLeadMinutes / 60) * 10) / 10 })
          : t('reminders.summaryOff')}
      </p>
      <p className="small text-body-secondary mb-0">
        {contact ? t('reminders.contact', { contact }) : t('reminders.noContact')}
      </p>
      {canEdit ? (
        <div className="d-flex flex-wrap gap-3 small">
          <Link to="/settings" data-testid="reminders-settings-link">
            {t('reminders.change')}
          </Link>
          <Link to="/settings/fiscal">{t('reminders.changeContact')}</Link>
        </div>
      ) : null}
    </div>
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
          <ScheduleSection
            title={t('clinic.title')}
            intro={t('clinic.intro')}
            testId="clinic-week"
            note={<SavedBy schedule={schedules.data.clinic} />}
          >
            <WeekEditor
              key={`clinic-${schedules.data.clinic.version}`}
              schedule={schedules.data.clinic}
              canEdit={canSettings}
              testId="clinic-week-editor"
            />
          </ScheduleSection>
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
      <ScheduleSection title={t('reminders.title')} intro={t('reminders.intro')} testId="reminders-section">
        <RemindersSection canEdit={canSettings} />
      </ScheduleSection>
    </div>
  );
}
