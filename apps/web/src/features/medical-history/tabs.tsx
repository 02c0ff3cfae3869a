import { clinicToday } from '@odontia/shared/clinic-time';
import type { AttendanceSummary } from '@odontia/shared/schemas/attendances';
import type { Diagnosis } from '@odontia/shared/schemas/diagnoses';
import type { Laboratory } from '@odontia/shared/schemas/laboratories';
import type { Patient } from '@odontia/shared/schemas/patients';
import {
  ClipboardList,
  FileSignature,
  FlaskConical,
  ListTree,
  type LucideIcon,
  Pill,
  Plus,
  Stethoscope,
} from 'lucide-react';
import { type ComponentType, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PaginationFooter } from '../../components/pagination-footer';
import { TableBodyState } from '../../components/table-body-state';
import { useClinicTimeZone, useDateTimeFormat, useInstantFormat } from '../auth/clinic-time';
import { authorizationPaths, useAuthorizations } from '../authorizations/api';
import { type RecordKind, recordPaths, useRecordList } from './api';
import { useCanWriteClinical } from './clinical-frame';
import { useCalendarDate } from './form-bits';
import { statusClass } from './laboratory';

const pageSize = 10;

function TabToolbar({ kind, patientId, count }: { kind: RecordKind; patientId: string; count?: number }) {
  const { t } = useTranslation('clinical');
  const canWrite = useCanWriteClinical();
  return (
    <div className="mh-toolbar">
      <span className="text-body-secondary small me-auto">
        {count === undefined ? null : t('tabs.count', { count })}
      </span>
      {canWrite ? (
        <Link to={recordPaths.create(kind, patientId)} className="btn btn-primary btn-sm" data-testid={`new-${kind}`}>
          <Plus size={16} aria-hidden="true" className="me-1" />
          {t(`tabs.new.${kind}`)}
        </Link>
      ) : null}
    </div>
  );
}

/** One list tab: the newest first, paginated on the server. */
function RecordTable<K extends RecordKind>({
  kind,
  patientId,
  headers,
  row,
}: {
  kind: K;
  patientId: string;
  headers: string[];
  row: (
    record: K extends 'attendance' ? AttendanceSummary : K extends 'diagnosis' ? Diagnosis : Laboratory,
  ) => ReactNode;
}) {
  const { t } = useTranslation('clinical');
  const [page, setPage] = useState(1);
  const query = useRecordList(kind, patientId, page, pageSize);
  const rows = (query.data?.data ?? []) as never[];
  return (
    <div data-testid={`tab-${kind}`}>
      <TabToolbar kind={kind} patientId={patientId} count={query.data?.total} />
      <div className="table-responsive">
        <table className="table table-hover align-middle mb-0 data-table mh-table" aria-busy={query.isFetching}>
          <thead>
            <tr>
              {headers.map((header) => (
                <th scope="col" key={header}>
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <TableBodyState
              query={query}
              columns={headers.length}
              isEmpty={rows.length === 0}
              emptyText={t(`tabs.empty.${kind}`)}
              emptyTestId={`empty-${kind}`}
              errorText={t('common.loadError')}
              retryText={t('common.retry')}
              compact
            >
              {rows.map((record) => row(record))}
            </TableBodyState>
          </tbody>
        </table>
      </div>
      {(query.data?.total ?? 0) > pageSize ? (
        <PaginationFooter
          page={page}
          pageSize={pageSize}
          total={query.data?.total ?? 0}
          onPage={setPage}
          label={t(`tabs.pages.${kind}`)}
        />
      ) : null}
    </div>
  );
}

function RecordLink({
  kind,
  patientId,
  id,
  children,
}: {
  kind: RecordKind;
  patientId: string;
  id: string;
  children: ReactNode;
}) {
  return (
    <Link to={recordPaths.show(kind, patientId, id)} className="fw-semibold record-link" data-testid={`${kind}-link`}>
      {children}
    </Link>
  );
}

export function DiagnosesTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('clinical');
  const date = useCalendarDate();
  return (
    <RecordTable
      kind="diagnosis"
      patientId={patient.id}
      headers={[
        t('fields.date'),
        t('fields.text'),
        t('fields.icd10Code'),
        t('fields.teeth'),
        t('fields.status'),
        t('fields.professional'),
      ]}
      row={(record: Diagnosis) => (
        <tr key={record.id} data-testid="diagnosis-row">
          <td className="text-nowrap">{date(record.date)}</td>
          <td className="mh-text-cell">
            <RecordLink kind="diagnosis" patientId={patient.id} id={record.id}>
              {record.text}
            </RecordLink>
          </td>
          <td>{record.icd10Code ?? '—'}</td>
          <td>{record.teeth.length ? record.teeth.join(', ') : '—'}</td>
          <td>
            <span className={`badge ${record.status === 'active' ? 'text-bg-warning' : 'text-bg-success'}`}>
              {t(`statuses.${record.status}`)}
            </span>
          </td>
          <td className="text-nowrap">{record.professionalName}</td>
        </tr>
      )}
    />
  );
}

export function LaboratoryTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('clinical');
  const date = useCalendarDate();
  return (
    <RecordTable
      kind="laboratory"
      patientId={patient.id}
      headers={[
        t('fields.orderDate'),
        t('fields.laboratoryName'),
        t('fields.studies'),
        t('fields.status'),
        t('fields.resultDate'),
      ]}
      row={(record: Laboratory) => (
        <tr key={record.id} data-testid="laboratory-row">
          <td className="text-nowrap">{date(record.orderDate)}</td>
          <td>
            <RecordLink kind="laboratory" patientId={patient.id} id={record.id}>
              {record.laboratoryName}
            </RecordLink>
          </td>
          <td className="mh-text-cell">{record.studies.map((study) => t(`attendanceTypes.${study}`)).join(', ')}</td>
          <td>
            <span className={`badge ${statusClass(record.status)}`}>{t(`laboratory.statuses.${record.status}`)}</span>
          </td>
          <td className="text-nowrap">{record.resultDate ? date(record.resultDate) : '—'}</td>
        </tr>
      )}
    />
  );
}

export function AttendancesTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('clinical');
  const dateTime = useDateTimeFormat();
  return (
    <RecordTable
      kind="attendance"
      patientId={patient.id}
      headers={[
        t('fields.date'),
        t('fields.titleResume'),
        t('fields.attendanceType'),
        t('fields.professional'),
        t('fields.status'),
      ]}
      row={(record: AttendanceSummary) => (
        <tr key={record.id} data-testid="attendance-row">
          <td className="text-nowrap">{dateTime(record.date)}</td>
          <td className="mh-text-cell">
            <RecordLink kind="attendance" patientId={patient.id} id={record.id}>
              {record.titleResume}
            </RecordLink>
          </td>
          <td>{t(`attendanceTypes.${record.attendanceType}`)}</td>
          <td className="text-nowrap">{record.professionalName}</td>
          <td>
            <span className={`badge ${record.finished ? 'text-bg-secondary' : 'text-bg-primary'}`}>
              {t(record.finished ? 'attendance.finished' : 'attendance.open')}
            </span>
          </td>
        </tr>
      )}
    />
  );
}

type TimelineKind = RecordKind | 'authorization';

interface TimelineEntry {
  kind: TimelineKind;
  id: string;
  href: string;
  /** For the order: the day, then when it was recorded. */
  sortKey: string;
  when: string;
  title: string;
  detail: string;
}

const kindIcons: Record<TimelineKind, LucideIcon> = {
  attendance: Stethoscope,
  diagnosis: ClipboardList,
  laboratory: FlaskConical,
  prescription: Pill,
  authorization: FileSignature,
};

/**
 * The first page of the dated records merged, newest first, each entry opening its record:
 * attendances, diagnoses, laboratory orders, prescriptions and treatment authorizations. The
 * odontogram (one entry per mark) and the files keep their own tabs and timelines.
 */
export function TimelineTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('clinical');
  const date = useCalendarDate();
  const time = useInstantFormat('time');
  const timeZone = useClinicTimeZone();
  /** The clinic's calendar day of an instant ('YYYY-MM-DD'). */
  const localDay = (iso: string) => clinicToday(timeZone, new Date(iso));
  const attendances = useRecordList('attendance', patient.id, 1, 20);
  const diagnoses = useRecordList('diagnosis', patient.id, 1, 20);
  const laboratories = useRecordList('laboratory', patient.id, 1, 20);
  const prescriptions = useRecordList('prescription', patient.id, 1, 20);
  const authorizations = useAuthorizations(patient.id, 1, 20);
  const queries = [attendances, diagnoses, laboratories, prescriptions, authorizations];
  const linkOf = (kind: RecordKind, id: string) => recordPaths.show(kind, patient.id, id);
  const entries: TimelineEntry[] = [
    ...(attendances.data?.data ?? []).map((record) => ({
      kind: 'attendance' as const,
      id: record.id,
      href: linkOf('attendance', record.id),
      sortKey: `${localDay(record.date)}|${record.createdAt}`,
      when: `${date(localDay(record.date))}, ${time(record.date)}`,
      title: record.titleResume,
      detail: `${t(`attendanceTypes.${record.attendanceType}`)} · ${record.professionalName}`,
    })),
    ...(diagnoses.data?.data ?? []).map((record) => ({
      kind: 'diagnosis' as const,
      id: record.id,
      href: linkOf('diagnosis', record.id),
      sortKey: `${record.date.slice(0, 10)}|${record.createdAt}`,
      when: date(record.date),
      title: record.text,
      detail: [record.icd10Code, t(`statuses.${record.status}`), record.professionalName].filter(Boolean).join(' · '),
    })),
    ...(laboratories.data?.data ?? []).map((record) => ({
      kind: 'laboratory' as const,
      id: record.id,
      href: linkOf('laboratory', record.id),
      sortKey: `${record.orderDate.slice(0, 10)}|${record.createdAt}`,
      when: date(record.orderDate),
      title: `${record.laboratoryName}: ${record.studies.map((study) => t(`attendanceTypes.${study}`)).join(', ')}`,
      detail: `${t(`laboratory.statuses.${record.status}`)} · ${record.professionalName}`,
    })),
    ...(prescriptions.data?.data ?? []).map((record) => ({
      kind: 'prescription' as const,
      id: record.id,
      href: linkOf('prescription', record.id),
      sortKey: `${record.date.slice(0, 10)}|${record.createdAt}`,
      when: date(record.date),
      title: record.lines.map((line) => line.medicine).join(', '),
      detail: [record.diagnosis, record.verificationCode, record.professionalName].filter(Boolean).join(' · '),
    })),
    ...(authorizations.data?.data ?? []).map((record) => ({
      kind: 'authorization' as const,
      id: record.id,
      href: authorizationPaths.show(patient.id, record.id),
      sortKey: `${record.date.slice(0, 10)}|${record.createdAt}`,
      when: date(record.date),
      title: record.title,
      detail: `${t(`authorizations:statuses.${record.status}`)} · ${record.professionalName}`,
    })),
  ].sort((a, b) => (a.sortKey < b.sortKey ? 1 : a.sortKey > b.sortKey ? -1 : 0));
  const pending = queries.some((query) => query.isPending);
  const failed = queries.find((query) => query.isError);
  const more = queries.some((query) => (query.data?.total ?? 0) > 20);
  return (
    <div className="mh-timeline-wrap" data-testid="tab-timeline">
      {pending ? (
        <div className="text-center py-4">
          <span className="spinner-border text-primary" role="status">
            <span className="visually-hidden">{t('common.loading')}</span>
          </span>
        </div>
      ) : failed ? (
        <div className="text-center py-4 text-danger" role="alert">
          {t('common.loadError')}
          <button
            type="button"
            className="btn btn-link"
            onClick={() => queries.forEach((query) => void query.refetch())}
          >
            {t('common.retry')}
          </button>
        </div>
      ) : entries.length === 0 ? (
        <p className="text-center py-4 text-body-secondary mb-0" data-testid="empty-timeline">
          {t('timeline.empty')}
        </p>
      ) : (
        <ol className="mh-timeline">
          {entries.map((entry) => {
            const Icon = kindIcons[entry.kind];
            return (
              <li
                key={`${entry.kind}-${entry.id}`}
                className={`mh-timeline-entry mh-kind-${entry.kind}`}
                data-testid="timeline-entry"
                data-kind={entry.kind}
              >
                <span className="mh-timeline-icon" aria-hidden="true">
                  <Icon size={16} />
                </span>
                <div className="min-w-0">
                  <div className="small text-body-secondary">
                    {entry.when} · {t(`timeline.kinds.${entry.kind}`)}
                  </div>
                  <Link to={entry.href} className="fw-semibold record-link">
                    {entry.title}
                  </Link>
                  <div className="small text-body-secondary">{entry.detail}</div>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {more ? <p className="small text-body-secondary mb-0 px-3 pb-3">{t('timeline.more')}</p> : null}
    </div>
  );
}

/**
 * The history tabs this feature adds, in the order of the issue (the first one opens by default):
 * key = the `?tab=` value, label = `clinical:tabs.labels.<key>`.
 */
export const clinicalTabs: {
  key: string;
  labelKey: string;
  icon: LucideIcon;
  Component: ComponentType<{ patient: Patient }>;
}[] = [
  { key: 'attendances', labelKey: 'clinical:tabs.labels.attendances', icon: Stethoscope, Component: AttendancesTab },
  { key: 'diagnoses', labelKey: 'clinical:tabs.labels.diagnoses', icon: ClipboardList, Component: DiagnosesTab },
  { key: 'laboratory', labelKey: 'clinical:tabs.labels.laboratory', icon: FlaskConical, Component: LaboratoryTab },
  { key: 'timeline', labelKey: 'clinical:tabs.labels.timeline', icon: ListTree, Component: TimelineTab },
];
