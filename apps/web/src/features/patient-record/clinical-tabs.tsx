import { clinicToday } from '@odontia/shared/clinic-time';
import type { Patient } from '@odontia/shared/schemas/patients';
import { ClipboardList, FileSignature, FlaskConical, ListTree, type LucideIcon, Plus, Stethoscope } from 'lucide-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useClinicTimeZone, useDateTimeFormat, useInstantFormat } from '../../session/clinic-time';
import { authorizationPaths, useAuthorizations } from '../authorizations/api';
import { type RecordKind, type RowOf, recordPaths, useRecordList } from '../medical-history/api';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import { useCalendarDate } from '../medical-history/form-bits';
import { RecordLink } from '../medical-history/record-list-tab';
import { diagnosisStatusClass, laboratoryStatusClass, recordKinds } from '../medical-history/records';

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

/** One list tab: the newest first, paginated on the server; its page is kept in the URL. */
function RecordTable<K extends 'diagnosis' | 'laboratory' | 'attendance'>({
  kind,
  patientId,
  columns,
}: {
  kind: K;
  patientId: string;
  columns: Column<RowOf[K]>[];
}) {
  const { t } = useTranslation('clinical');
  const list = useListState();
  const query = useRecordList(kind, patientId, list.page, pageSize);
  return (
    <div data-testid={`tab-${kind}`}>
      <TabToolbar kind={kind} patientId={patientId} count={query.data?.total} />
      <DataTable<RowOf[K]>
        label={t(`tabs.labels.${recordKinds[kind].tab}`)}
        query={query}
        columns={columns}
        rowKey={(record) => record.id}
        rowProps={() => ({ 'data-testid': `${kind}-row` })}
        className="table-hover mh-table"
        compact
        emptyText={t(`tabs.empty.${kind}`)}
        emptyTestId={`empty-${kind}`}
        errorText={t('common.loadError')}
        retryText={t('common.retry')}
        pagination={{
          ...pagesOf(list, pageSize),
          label: t(`tabs.pages.${kind}`),
          onlyWhenNeeded: true,
        }}
      />
    </div>
  );
}

export function DiagnosesTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('clinical');
  const date = useCalendarDate();
  return (
    <RecordTable
      kind="diagnosis"
      patientId={patient.id}
      columns={[
        { key: 'date', header: t('fields.date'), className: 'text-nowrap', cell: (record) => date(record.date) },
        {
          key: 'text',
          header: t('fields.text'),
          className: 'mh-text-cell',
          primary: true,
          cell: (record) => (
            <RecordLink kind="diagnosis" patientId={patient.id} id={record.id}>
              {record.text}
            </RecordLink>
          ),
        },
        { key: 'icd10Code', header: t('fields.icd10Code'), cell: (record) => record.icd10Code ?? '—' },
        {
          key: 'teeth',
          header: t('fields.teeth'),
          cell: (record) => (record.teeth.length ? record.teeth.join(', ') : '—'),
        },
        {
          key: 'status',
          header: t('fields.status'),
          cell: (record) => (
            <span className={`badge ${diagnosisStatusClass(record.status)}`}>{t(`statuses.${record.status}`)}</span>
          ),
        },
        {
          key: 'professional',
          header: t('fields.professional'),
          className: 'text-nowrap',
          cell: (record) => record.professionalName,
        },
      ]}
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
      columns={[
        {
          key: 'orderDate',
          header: t('fields.orderDate'),
          className: 'text-nowrap',
          cell: (record) => date(record.orderDate),
        },
        {
          key: 'laboratoryName',
          header: t('fields.laboratoryName'),
          primary: true,
          cell: (record) => (
            <RecordLink kind="laboratory" patientId={patient.id} id={record.id}>
              {record.laboratoryName}
            </RecordLink>
          ),
        },
        {
          key: 'studies',
          header: t('fields.studies'),
          className: 'mh-text-cell',
          cell: (record) => record.studies.map((study) => t(`attendanceTypes.${study}`)).join(', '),
        },
        {
          key: 'status',
          header: t('fields.status'),
          cell: (record) => (
            <span className={`badge ${laboratoryStatusClass(record.status)}`}>
              {t(`laboratory.statuses.${record.status}`)}
            </span>
          ),
        },
        {
          key: 'resultDate',
          header: t('fields.resultDate'),
          className: 'text-nowrap',
          cell: (record) => (record.resultDate ? date(record.resultDate) : '—'),
        },
      ]}
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
      columns={[
        { key: 'date', header: t('fields.date'), className: 'text-nowrap', cell: (record) => dateTime(record.date) },
        {
          key: 'titleResume',
          header: t('fields.titleResume'),
          className: 'mh-text-cell',
          primary: true,
          cell: (record) => (
            <RecordLink kind="attendance" patientId={patient.id} id={record.id}>
              {record.titleResume}
            </RecordLink>
          ),
        },
        {
          key: 'attendanceType',
          header: t('fields.attendanceType'),
          cell: (record) => t(`attendanceTypes.${record.attendanceType}`),
        },
        {
          key: 'professional',
          header: t('fields.professional'),
          className: 'text-nowrap',
          cell: (record) => record.professionalName,
        },
        {
          key: 'status',
          header: t('fields.status'),
          cell: (record) => (
            <span className={`badge ${record.finished ? 'text-bg-secondary' : 'text-bg-primary'}`}>
              {t(record.finished ? 'attendance.finished' : 'attendance.open')}
            </span>
          ),
        },
      ]}
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
  ...Object.fromEntries(Object.entries(recordKinds).map(([kind, info]) => [kind, info.icon])),
  authorization: FileSignature,
} as Record<TimelineKind, LucideIcon>;

/**
 * The first page of the dated records merged, newest first, each entry opening its record:
 * attendances, diagnoses, laboratory orders, prescriptions, health certificates and treatment authorizations. The
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
  const certificates = useRecordList('certificate', patient.id, 1, 20);
  const authorizations = useAuthorizations(patient.id, 1, 20);
  const queries = [attendances, diagnoses, laboratories, prescriptions, certificates, authorizations];
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
    ...(certificates.data?.data ?? []).map((record) => ({
      kind: 'certificate' as const,
      id: record.id,
      href: linkOf('certificate', record.id),
      sortKey: `${record.date.slice(0, 10)}|${record.createdAt}`,
      when: date(record.date),
      title: t(`certificates:kinds.${record.kind}`),
      detail: [
        record.voidedAt ? t('certificates:status.voided') : null,
        record.verificationCode,
        record.professionalName,
      ]
        .filter(Boolean)
        .join(' · '),
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
