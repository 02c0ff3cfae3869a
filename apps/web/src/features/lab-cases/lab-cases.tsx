import { type LabCaseStep, labCaseStatuses, labCaseTransitions } from '@odontia/shared/schemas/lab-cases';
import type { Patient } from '@odontia/shared/schemas/patients';
import {
  AlertTriangle,
  Ban,
  CheckCircle2,
  ClipboardCheck,
  type LucideIcon,
  PackageCheck,
  Pencil,
  Plus,
  Send,
  Undo2,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { ListFilter } from '../../components/filter-select';
import { IconButton } from '../../components/icon-button';
import { PageTitle } from '../../components/page-title';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useCalendarDateFormat, useInstantFormat } from '../../session/clinic-time';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import { type LabCaseRow, useLabCases, useLabs } from './api';
import { LabCaseFormDialog, LabCaseHistory, LabCaseStepDialog, useCaseName } from './lab-case-dialogs';

const pageSize = 25;

const statusBadges: Record<LabCaseRow['status'], string> = {
  draft: 'text-bg-secondary',
  sent: 'text-bg-info',
  received: 'text-bg-primary',
  checked: 'text-bg-primary',
  returned: 'text-bg-warning',
  seated: 'text-bg-success',
  cancelled: 'text-bg-secondary',
};

const stepIcons: Record<LabCaseStep, LucideIcon> = {
  send: Send,
  receive: PackageCheck,
  check: ClipboardCheck,
  return: Undo2,
  seat: CheckCircle2,
  cancel: Ban,
};

/** The case's state, and "at risk" (overdue, or not back in time for its seating appointment). */
export function LabCaseBadges({ row }: { row: LabCaseRow }) {
  const { t } = useTranslation('labCases');
  return (
    <span className="d-inline-flex flex-wrap gap-1">
      <span className={`badge ${statusBadges[row.status]}`} data-testid="lab-case-status">
        {t(`statuses.${row.status}`)}
      </span>
      {row.atRisk ? (
        <span
          className="badge text-bg-danger d-inline-flex align-items-center gap-1"
          data-testid="lab-case-at-risk"
          title={row.seatingWarning ? t('seatingWarning') : t('overdueHint')}
        >
          <AlertTriangle size={12} aria-hidden="true" />
          {t('atRisk')}
          <span className="visually-hidden">: {row.seatingWarning ? t('seatingWarning') : t('overdueHint')}</span>
        </span>
      ) : null}
    </span>
  );
}

type Dialog = { kind: 'edit'; row: LabCaseRow } | { kind: 'step'; row: LabCaseRow; step: LabCaseStep };

/** The steps the case's state allows, and its edit while open. */
function LabCaseActions({ row, onOpen }: { row: LabCaseRow; onOpen: (dialog: Dialog) => void }) {
  const { t } = useTranslation('labCases');
  const caseName = useCaseName();
  const steps = labCaseTransitions[row.status];
  const name = `${caseName(row)} · ${row.patientName}`;
  return (
    <span className="d-inline-flex flex-wrap gap-1">
      {steps.map((step) => (
        <IconButton
          key={step}
          icon={stepIcons[step]}
          label={t(`steps.${step}.button`, { name })}
          className={`btn btn-sm ${step === 'cancel' ? 'btn-outline-danger' : 'btn-outline-primary'}`}
          onClick={() => onOpen({ kind: 'step', row, step })}
          testId={`lab-case-${step}`}
        />
      ))}
      {steps.length > 0 ? (
        <IconButton
          icon={Pencil}
          label={t('editButton', { name })}
          onClick={() => onOpen({ kind: 'edit', row })}
          testId="lab-case-edit"
        />
      ) : null}
    </span>
  );
}

function LabCaseDialogs({ dialog, onDone }: { dialog: Dialog | null; onDone: () => void }) {
  if (!dialog) return null;
  if (dialog.kind === 'edit')
    return <LabCaseFormDialog patientId={dialog.row.patientId} row={dialog.row} onDone={onDone} />;
  return <LabCaseStepDialog row={dialog.row} step={dialog.step} onDone={onDone} />;
}

/** The dates that say where a case is: sent, due (overdue marked), received, seated. */
function CaseDates({ row }: { row: LabCaseRow }) {
  const { t } = useTranslation('labCases');
  const day = useCalendarDateFormat();
  const parts: string[] = [];
  if (row.sentOn) parts.push(`${t('fields.sentOn')}: ${day(row.sentOn)}`);
  if (row.receivedOn) parts.push(`${t('fields.receivedOn')}: ${day(row.receivedOn)}`);
  if (row.seatedOn) parts.push(`${t('fields.seatedOn')}: ${day(row.seatedOn)}`);
  return parts.length ? <div className="small text-body-secondary">{parts.join(' · ')}</div> : null;
}

function useColumns(canWrite: boolean, onOpen: (dialog: Dialog) => void, withPatient: boolean) {
  const { t } = useTranslation('labCases');
  const day = useCalendarDateFormat();
  const when = useInstantFormat();
  const caseName = useCaseName();
  const columns: Column<LabCaseRow>[] = [
    {
      key: 'dueOn',
      header: t('fields.dueOn'),
      className: 'text-nowrap',
      cell: (row) => (
        <span className={row.overdue ? 'text-danger-emphasis fw-semibold' : undefined}>
          {row.dueOn ? day(row.dueOn) : '—'}
          {row.overdue ? <span className="visually-hidden"> ({t('overdue')})</span> : null}
        </span>
      ),
    },
    ...(withPatient
      ? [
          {
            key: 'patient',
            header: t('fields.patient'),
            primary: true,
            cell: (row: LabCaseRow) => (
              <Link to={`/patients/${row.patientId}/mh?tab=labCases`} className="fw-semibold">
                {row.patientName}
              </Link>
            ),
          },
        ]
      : []),
    {
      key: 'work',
      header: t('fields.work'),
      primary: !withPatient,
      cell: (row) => (
        <>
          <span className="fw-semibold">{caseName(row)}</span>
          {row.shade || row.material ? (
            <div className="small text-body-secondary">{[row.shade, row.material].filter(Boolean).join(' · ')}</div>
          ) : null}
          {row.treatmentPlanItemLabel ? (
            <div className="small text-body-secondary" data-testid="lab-case-plan-item-label">
              {t('fromPlan')}: {row.treatmentPlanItemLabel}
            </div>
          ) : null}
          <CaseDates row={row} />
        </>
      ),
    },
    { key: 'lab', header: t('fields.lab'), cell: (row) => row.providerName },
    {
      key: 'appointment',
      header: t('fields.appointment'),
      className: 'text-nowrap',
      cell: (row) => (row.appointmentStartsAt ? when(row.appointmentStartsAt) : '—'),
    },
    { key: 'status', header: t('fields.status'), cell: (row) => <LabCaseBadges row={row} /> },
  ];
  return canWrite
    ? [
        ...columns,
        {
          key: 'actions',
          header: <span className="visually-hidden">{t('actions')}</span>,
          className: 'text-end',
          cell: (row: LabCaseRow) => <LabCaseActions row={row} onOpen={onOpen} />,
        },
      ]
    : columns;
}

/** `/lab-cases` (issue 41): the open cases by due date, filtered by state, lab and overdue; at-risk ones marked. */
export function LabCasesPage() {
  const { t } = useTranslation(['labCases', 'common']);
  const canWrite = useCanWriteClinical();
  const list = useListState({ filters: ['status', 'lab', 'overdue'] });
  const labs = useLabs();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const status = (labCaseStatuses as readonly string[]).includes(list.filters.status)
    ? (list.filters.status as LabCaseRow['status'])
    : undefined;
  const query = useLabCases({
    page: list.page,
    pageSize,
    ...(status ? { status } : {}),
    ...(list.filters.lab ? { providerId: list.filters.lab } : {}),
    ...(list.filters.overdue === 'true' ? { overdue: 'true' as const } : {}),
  });
  const columns = useColumns(canWrite, setDialog, true);
  return (
    <>
      <PageTitle title={t('common:pages.labCases')} />
      <p className="text-body-secondary">{t('intro')}</p>
      <section className="card" data-testid="lab-cases">
        <div className="card-body border-bottom list-filters">
          <ListFilter
            list={list}
            name="status"
            label={t('fields.status')}
            testId="lab-cases-status"
            all={t('openCases')}
            options={labCaseStatuses.map((value) => ({ value, label: t(`statuses.${value}`) }))}
          />
          <ListFilter
            list={list}
            name="lab"
            label={t('fields.lab')}
            testId="lab-cases-lab"
            all={t('everyLab')}
            options={(labs.data?.data ?? []).map((lab) => ({ value: lab.id, label: lab.fantasyName }))}
          />
          <ListFilter
            list={list}
            name="overdue"
            label={t('fields.overdue')}
            testId="lab-cases-overdue"
            all={t('everyDue')}
            options={[{ value: 'true', label: t('overdueOnly') }]}
          />
        </div>
        <DataTable<LabCaseRow>
          className="table-hover"
          label={t('caption')}
          emptyText={t('emptyOpen')}
          emptyTestId="lab-cases-empty"
          columns={columns}
          query={query}
          rowKey={(row) => row.id}
          rowProps={(row) => ({ 'data-testid': 'lab-case-row', 'data-status': row.status })}
          pagination={{ ...pagesOf(list, pageSize), label: t('pagination'), testId: 'lab-cases-range' }}
        />
      </section>
      <LabCaseDialogs dialog={dialog} onDone={() => setDialog(null)} />
    </>
  );
}

/** The patient's "Laboratorio" tab: every case of theirs, newest first, with its steps and history. */
export function PatientLabCasesTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('labCases');
  const canWrite = useCanWriteClinical();
  const list = useListState();
  const pageSizeOfTab = 10;
  const query = useLabCases({ patientId: patient.id, page: list.page, pageSize: pageSizeOfTab });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [creating, setCreating] = useState(false);
  const [history, setHistory] = useState<string | null>(null);
  const base = useColumns(canWrite, setDialog, false);
  const columns: Column<LabCaseRow>[] = [
    ...base,
    {
      key: 'history',
      header: <span className="visually-hidden">{t('history')}</span>,
      className: 'text-end',
      cell: (row) => (
        <button
          type="button"
          className="btn btn-sm btn-link"
          aria-expanded={history === row.id}
          onClick={() => setHistory(history === row.id ? null : row.id)}
          data-testid="lab-case-history"
        >
          {t('history')}
        </button>
      ),
    },
  ];
  const shown = (query.data?.data ?? []).find((row) => row.id === history);
  return (
    <div data-testid="tab-labCases">
      <div className="mh-toolbar">
        <span className="text-body-secondary small me-auto">
          {query.data ? t('count', { count: query.data.total }) : null}
        </span>
        {canWrite ? (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => setCreating(true)}
            data-testid="new-lab-case"
          >
            <Plus size={16} aria-hidden="true" className="me-1" />
            {t('new')}
          </button>
        ) : null}
      </div>
      <DataTable<LabCaseRow>
        className="table-hover mh-table"
        label={t('tabCaption')}
        emptyText={t('empty')}
        emptyTestId="empty-lab-cases"
        columns={columns}
        query={query}
        compact
        rowKey={(row) => row.id}
        rowProps={(row) => ({ 'data-testid': 'lab-case-row', 'data-status': row.status })}
        pagination={{ ...pagesOf(list, pageSizeOfTab), label: t('pagination'), onlyWhenNeeded: true }}
      />
      {shown ? (
        <section className="card mt-3" aria-labelledby="lab-case-history-title">
          <div className="card-body">
            <h3 id="lab-case-history-title" className="h6">
              {t('historyOf', { name: `${t(`workTypes.${shown.workType}`)} ${shown.teeth.join(', ')}` })}
            </h3>
            {shown.returnReason ? (
              <p className="small mb-2">
                {t('remakes', { count: shown.remakeCount })} · {shown.returnReason}
              </p>
            ) : null}
            <LabCaseHistory id={shown.id} />
          </div>
        </section>
      ) : null}
      {creating ? <LabCaseFormDialog patientId={patient.id} row={null} onDone={() => setCreating(false)} /> : null}
      <LabCaseDialogs dialog={dialog} onDone={() => setDialog(null)} />
    </div>
  );
}

/** In an appointment's details: the lab cases to seat at it, and the warning when one is not back in time. */
export function AppointmentLabCases({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation('labCases');
  const cases = useLabCases({ appointmentId, pageSize: 20 });
  const caseName = useCaseName();
  const day = useCalendarDateFormat();
  const rows = (cases.data?.data ?? []).filter((row) => row.status !== 'cancelled');
  if (rows.length === 0) return null;
  return (
    <section className="mt-3" aria-labelledby={`appointment-lab-${appointmentId}`} data-testid="appointment-lab-cases">
      <h3 id={`appointment-lab-${appointmentId}`} className="h6">
        {t('appointmentCases')}
      </h3>
      <ul className="list-unstyled mb-0">
        {rows.map((row) => (
          <li key={row.id} className="d-flex flex-wrap align-items-center gap-2 py-1">
            <span className="fw-semibold">{caseName(row)}</span>
            <span className="text-body-secondary">{row.providerName}</span>
            {row.dueOn ? (
              <span className="text-body-secondary">
                {t('fields.dueOn')}: {day(row.dueOn)}
              </span>
            ) : null}
            <LabCaseBadges row={row} />
            {row.seatingWarning ? (
              <span className="text-danger-emphasis small w-100" role="status" data-testid="appointment-lab-warning">
                <AlertTriangle size={14} aria-hidden="true" className="me-1" />
                {t('seatingWarning')}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** On a purchase: the lab cases it invoices (the link is made from the case). */
export function PurchaseLabCases({ purchaseId }: { purchaseId: string }) {
  const { t } = useTranslation('labCases');
  const cases = useLabCases({ purchaseId, pageSize: 50 });
  const caseName = useCaseName();
  const rows = cases.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="card mt-3" aria-labelledby="purchase-lab-cases-title" data-testid="purchase-lab-cases">
      <div className="card-body">
        <h2 id="purchase-lab-cases-title" className="h6 card-title">
          {t('purchaseCases')}
        </h2>
        <ul className="list-unstyled mb-0">
          {rows.map((row) => (
            <li key={row.id} className="d-flex flex-wrap align-items-center gap-2 py-1">
              <Link to={`/patients/${row.patientId}/mh?tab=labCases`}>{row.patientName}</Link>
              <span>{caseName(row)}</span>
              <LabCaseBadges row={row} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
