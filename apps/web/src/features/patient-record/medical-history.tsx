import type { Patient } from '@odontia/shared/schemas/patients';
import {
  CalendarDays,
  Crown,
  FileBadge,
  FileSignature,
  History,
  type LucideIcon,
  MessageSquare,
  Paperclip,
  Pencil,
  Pill,
  Receipt,
  ShieldPlus,
} from 'lucide-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { IconLink } from '../../components/icon-link';
import { PageTitle } from '../../components/page-title';
import { PatientAppointmentsTab } from '../appointments/patient-appointments-tab';
import { AuthorizationsTab } from '../authorizations/tab';
import { CertificatesTab } from '../certificates/tab';
import { PatientBalanceBadge } from '../collections/patient-balance';
import { FilesTab } from '../files/files-tab';
import { PatientLabCasesTab } from '../lab-cases/lab-cases';
import { PatientMessagesTab } from '../messages/patient-messages-tab';
import { odontogramTab } from '../odontogram/tab';
import { patientPaths } from '../patients/api';
import { PatientStatusBadge } from '../patients/badges';
import { patientName, patientPhone, useDateFormat, useDateTimeFormat } from '../patients/format';
import { PatientAlertsBanner } from '../patients/patient-alerts-banner';
import { PatientChanges } from '../patients/patient-changes';
import { BackToPatients } from '../patients/patient-pages';
import { PatientPayerTab } from '../payers/patient-payer-tab';
import { perioTab } from '../perio/tab';
import { PrescriptionsTab } from '../prescriptions/tab';
import { PatientOpenRecalls } from '../recalls/recalls-page';
import { PatientBillingTab } from '../sales/patient-billing';
import { plansTab } from '../treatment-plans/tab';
import { clinicalTabs } from './clinical-tabs';

/**
 * The tabs of the medical history, in order. A clinical area joins the history with one entry
 * here (its key is the `?tab=` value and `patients:tabs.<key>`); only built areas are listed.
 */
export const medicalHistoryTabs: {
  key: string;
  /** A label of another namespace ('clinical:…'); else `patients:tabs.<key>`. */
  labelKey?: string;
  icon: LucideIcon;
  Component: ComponentType<{ patient: Patient }>;
}[] = [
  ...clinicalTabs,
  {
    key: 'appointments',
    labelKey: 'dashboard:appointments.tab',
    icon: CalendarDays,
    Component: PatientAppointmentsTab,
  },
  { key: 'messages', labelKey: 'messaging:tab', icon: MessageSquare, Component: PatientMessagesTab },
  odontogramTab,
  perioTab,
  plansTab,
  { key: 'prescriptions', labelKey: 'prescriptions:tab', icon: Pill, Component: PrescriptionsTab },
  { key: 'certificates', labelKey: 'certificates:tab', icon: FileBadge, Component: CertificatesTab },
  { key: 'authorizations', labelKey: 'authorizations:tab', icon: FileSignature, Component: AuthorizationsTab },
  // Issue 41: dental lab cases (crowns, dentures… made by a lab).
  { key: 'labCases', labelKey: 'labCases:tab', icon: Crown, Component: PatientLabCasesTab },
  { key: 'files', labelKey: 'files:tab', icon: Paperclip, Component: FilesTab },
  { key: 'billing', labelKey: 'budgets:billing.tab', icon: Receipt, Component: PatientBillingTab },
  // Issue 40: the patient's obra social (affiliations, invoicing split with the payer).
  { key: 'payer', labelKey: 'payers:tab', icon: ShieldPlus, Component: PatientPayerTab },
  { key: 'changes', icon: History, Component: ({ patient }) => <PatientChanges patientId={patient.id} /> },
];

function Fact({ label, value, testId }: { label: string; value: string | null; testId?: string }) {
  return (
    <div className="patient-fact">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value ?? <span className="text-body-secondary">—</span>}</dd>
    </div>
  );
}

/** Name, age, sex, ID number, record numbers and contact of the patient, with the edit button. */
export function PatientHeader({ patient, canWrite }: { patient: Patient; canWrite: boolean }) {
  const { t } = useTranslation('patients');
  const date = useDateFormat();
  const dateTime = useDateTimeFormat();
  return (
    <section className="card patient-header" data-testid="patient-header">
      <div className="card-body d-flex flex-column gap-3">
        <div className="d-flex flex-wrap align-items-start gap-3">
          <div className="me-auto min-w-0">
            <h1 className="h3 mb-1" data-testid="patient-name">
              {patientName(patient)}
            </h1>
            {/* The badges on a line of their own: the balance, which arrives after the page, joins the
                status there instead of wrapping under a long name and pushing the history down. */}
            <div className="d-flex flex-wrap align-items-center gap-2">
              <PatientStatusBadge active={patient.active} />
              {patient.deceasedOn ? (
                <span className="badge bg-body-secondary text-body" data-testid="patient-deceased">
                  {t('history.deceased', { date: date(patient.deceasedOn) })}
                </span>
              ) : null}
              <PatientBalanceBadge patientId={patient.id} />
            </div>
            <div className="text-body-secondary patient-summary mt-1" data-testid="patient-summary">
              <span>{t('list.years', { count: patient.age })}</span>
              <span>{t(`sexes.${patient.sex}`)}</span>
              <span>
                {t('fields.skuPatient')} {patient.skuPatient}
              </span>
            </div>
          </div>
          {canWrite ? (
            <IconLink
              to={patientPaths.edit(patient.id)}
              className="btn btn-outline-primary"
              icon={Pencil}
              testId="patient-edit-link"
            >
              {t('history.edit')}
            </IconLink>
          ) : null}
        </div>
        <dl className="patient-facts mb-0">
          <Fact label={t('fields.birthdate')} value={date(patient.birthdate)} />
          <Fact label={t('fields.ssnShort')} value={patient.ssn} testId="patient-ssn" />
          <Fact label={t('fields.medicalHistory')} value={patient.medicalHistory} />
          <Fact label={t('fields.phone')} value={patientPhone(patient)} testId="patient-phone" />
          <Fact label={t('fields.email')} value={patient.email} testId="patient-email" />
        </dl>
        <PatientAlertsBanner patient={patient} showEmpty />
        <p className="small text-body-secondary mb-0" data-testid="patient-audit">
          {t('history.created', {
            who: patient.createdByName ?? t('changes.unknownUser'),
            when: dateTime(patient.createdAt),
          })}
          {patient.updatedAt !== patient.createdAt
            ? ` · ${t('history.updated', {
                who: patient.updatedByName ?? t('changes.unknownUser'),
                when: dateTime(patient.updatedAt),
              })}`
            : null}
        </p>
      </div>
    </section>
  );
}

/** `/patients/:patientId/mh`: the patient's header and alerts, then the tabs of their history. */
export function MedicalHistory({ patient, canWrite }: { patient: Patient; canWrite: boolean }) {
  const { t } = useTranslation(['patients', 'common']);
  const [params, setParams] = useSearchParams();
  const first = medicalHistoryTabs[0];
  const current = medicalHistoryTabs.find((tab) => tab.key === params.get('tab')) ?? first;
  if (!current) return null;
  const Current = current.Component;
  return (
    <>
      <PageTitle title={`${patientName(patient)} · ${t('common:pages.medicalHistory')}`} />
      <div className="patients-page d-flex flex-column gap-4" data-testid="medical-history">
        <div>
          <BackToPatients />
          <PatientHeader patient={patient} canWrite={canWrite} />
        </div>
        <PatientOpenRecalls patientId={patient.id} />
        <section className="card">
          <div className="card-header pb-0 border-bottom-0">
            <div className="nav nav-tabs card-header-tabs mh-tabs" role="tablist">
              {medicalHistoryTabs.map((tab) => {
                const Icon = tab.icon;
                const selected = tab.key === current.key;
                return (
                  <button
                    key={tab.key}
                    type="button"
                    role="tab"
                    id={`mh-tab-${tab.key}`}
                    aria-selected={selected}
                    aria-controls={`mh-panel-${tab.key}`}
                    className={`nav-link d-flex align-items-center gap-2${selected ? ' active' : ''}`}
                    // Staying where the eye is: a tab below the fold opens in place, the page does not jump to the top.
                    onClick={() =>
                      setParams(tab === first ? {} : { tab: tab.key }, { replace: true, preventScrollReset: true })
                    }
                  >
                    <Icon size={16} aria-hidden="true" />
                    {t(tab.labelKey ?? `tabs.${tab.key}`)}
                  </button>
                );
              })}
            </div>
          </div>
          <div
            className="mh-panel"
            role="tabpanel"
            id={`mh-panel-${current.key}`}
            aria-labelledby={`mh-tab-${current.key}`}
          >
            <Current patient={patient} />
          </div>
        </section>
      </div>
    </>
  );
}
