import { recallViews } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import { CalendarCheck, PhoneCall, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { ListFilter } from '../../components/filter-select';
import { IconButton } from '../../components/icon-button';
import { PageTitle } from '../../components/page-title';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useTreatments } from '../agenda/api';
import { useProfessionals } from '../users/professionals';
import { type RecallRow, useRecalls } from './api';
import { RecallStepDialog, type RecallStepKind } from './recall-step-dialog';
import './recalls.css';

const pageSize = 25;
const viewBadges: Record<RecallRow['view'], string> = {
  open: 'text-bg-secondary',
  due: 'text-bg-info',
  overdue: 'text-bg-danger',
  contacted: 'text-bg-warning',
  booked: 'text-bg-success',
  closed: 'text-bg-secondary',
};

/** A recall's state as a badge (its view: overdue when open and past its day). */
export function RecallBadge({ recall }: { recall: RecallRow }) {
  const { t } = useTranslation('recalls');
  return (
    <span className={`badge ${viewBadges[recall.view]}`} data-testid="recall-status">
      {t(`views.${recall.view}`)}
    </span>
  );
}

/** The step buttons of an open recall (appointments.write). */
export function RecallActions({ recall, onStep }: { recall: RecallRow; onStep: (kind: RecallStepKind) => void }) {
  const { t } = useTranslation('recalls');
  if (recall.status === 'booked' || recall.status === 'closed') return null;
  const label = (kind: RecallStepKind) => t(`steps.${kind}.button`, { patient: recall.patientName });
  return (
    <div className="d-inline-flex gap-1">
      <IconButton icon={PhoneCall} label={label('attempt')} onClick={() => onStep('attempt')} testId="recall-attempt" />
      <IconButton icon={CalendarCheck} label={label('book')} onClick={() => onStep('book')} testId="recall-book" />
      <IconButton icon={XCircle} label={label('close')} onClick={() => onStep('close')} testId="recall-close" />
    </div>
  );
}

function useColumns(canWrite: boolean, onStep: (recall: RecallRow, kind: RecallStepKind) => void) {
  const { t } = useTranslation('recalls');
  const day = useCalendarDateFormat();
  const columns: Column<RecallRow>[] = [
    {
      key: 'dueOn',
      header: t('fields.dueOn'),
      sortable: true,
      className: 'recall-due text-nowrap',
      cell: (row) => day(row.dueOn),
    },
    {
      key: 'patient',
      header: t('fields.patient'),
      primary: true,
      className: 'recall-patient',
      cell: (row) => (
        <>
          <Link to={`/patients/${row.patientId}/mh`} className="fw-semibold">
            {row.patientName}
          </Link>
          {row.patientPhone ? <div className="small text-body-secondary">{row.patientPhone}</div> : null}
        </>
      ),
    },
    {
      key: 'treatment',
      header: t('fields.treatment'),
      className: 'recall-treatment',
      cell: (row) => (
        <>
          {row.treatmentName}
          {row.reason ? <div className="small text-body-secondary">{row.reason}</div> : null}
        </>
      ),
    },
    {
      key: 'professional',
      header: t('fields.professional'),
      className: 'recall-professional',
      cell: (row) => row.professionalName,
    },
    {
      key: 'status',
      header: t('fields.status'),
      className: 'recall-status',
      cell: (row) => (
        <>
          <RecallBadge recall={row} />
          {row.closedReason ? (
            <div className="small text-body-secondary">{t(`closeReasons.${row.closedReason}`)}</div>
          ) : null}
        </>
      ),
    },
    {
      key: 'attempts',
      header: t('fields.attempts'),
      className: 'recall-attempts text-end',
      cell: (row) => row.attemptCount,
    },
  ];
  return canWrite
    ? [
        ...columns,
        {
          key: 'actions',
          header: <span className="visually-hidden">{t('list.actions')}</span>,
          className: 'recall-actions text-end text-nowrap',
          cell: (row: RecallRow) => <RecallActions recall={row} onStep={(kind) => onStep(row, kind)} />,
        },
      ]
    : columns;
}

/** `/recalls` (issue 38): the recalls by due date, filtered by state, professional and treatment. */
export function RecallsPage() {
  const { t } = useTranslation(['recalls', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'appointments.write') : false;
  const list = useListState({ sort: 'dueOn', filters: ['view', 'professional', 'treatment'] });
  const [step, setStep] = useState<{ recall: RecallRow; kind: RecallStepKind } | null>(null);
  const professionals = useProfessionals();
  const treatments = useTreatments();
  const view = (recallViews as readonly string[]).includes(list.filters.view)
    ? (list.filters.view as RecallRow['view'])
    : 'open';
  const query = useRecalls({
    view,
    page: list.page,
    pageSize,
    sort: list.sort === '-dueOn' ? '-dueOn' : 'dueOn',
    ...(list.filters.professional ? { professionalId: list.filters.professional } : {}),
    ...(list.filters.treatment ? { treatmentId: list.filters.treatment } : {}),
  });
  const columns = useColumns(canWrite, (recall, kind) => setStep({ recall, kind }));
  return (
    <>
      <PageTitle title={t('common:pages.recalls')} />
      <p className="text-body-secondary">{t('list.intro')}</p>
      <section className="card" data-testid="recalls">
        <div className="card-body border-bottom list-filters">
          <ListFilter
            list={list}
            name="view"
            label={t('fields.view')}
            testId="recalls-view"
            shownWhenEmpty="open"
            options={recallViews.map((value) => ({ value, label: t(`views.${value}`) }))}
          />
          <ListFilter
            list={list}
            name="professional"
            label={t('fields.professional')}
            testId="recalls-professional"
            all={t('list.everyProfessional')}
            options={(professionals.data ?? []).map((person) => ({ value: person.id, label: person.completeName }))}
          />
          <ListFilter
            list={list}
            name="treatment"
            label={t('fields.treatment')}
            testId="recalls-treatment"
            all={t('list.everyTreatment')}
            options={(treatments.data ?? [])
              .filter((treatment) => treatment.recallInterval !== null)
              .map((treatment) => ({ value: treatment.id, label: treatment.name }))}
          />
        </div>
        <DataTable<RecallRow>
          className="table-hover recalls-table"
          label={t('list.caption')}
          emptyText={t('list.empty')}
          emptyTestId="recalls-empty"
          columns={columns}
          query={query}
          rowKey={(row) => row.id}
          rowProps={(row) => ({ 'data-testid': 'recall-row', 'data-status': row.view })}
          sort={{ value: list.sort, onSort: list.setSort }}
          pagination={{
            ...pagesOf(list, pageSize),
            label: t('list.pagination'),
            testId: 'recalls-range',
          }}
        />
      </section>
      {step ? <RecallStepDialog kind={step.kind} recall={step.recall} onDone={() => setStep(null)} /> : null}
    </>
  );
}

/** On the patient's page: their open recalls, with the same steps. */
export function PatientOpenRecalls({ patientId }: { patientId: string }) {
  const { t } = useTranslation('recalls');
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'appointments.write') : false;
  const recalls = useRecalls({ patientId, view: 'open', pageSize: 20 });
  const day = useCalendarDateFormat();
  const [step, setStep] = useState<{ recall: RecallRow; kind: RecallStepKind } | null>(null);
  const rows = recalls.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="card" aria-labelledby="patient-recalls-title" data-testid="patient-recalls">
      <div className="card-body">
        <h2 id="patient-recalls-title" className="h6 card-title">
          {t('patient.title')}
        </h2>
        <ul className="list-unstyled mb-0">
          {rows.map((recall) => (
            <li key={recall.id} className="d-flex flex-wrap align-items-center gap-2 py-1" data-testid="patient-recall">
              <span className="text-nowrap">{day(recall.dueOn)}</span>
              <span className="fw-semibold">{recall.treatmentName}</span>
              {recall.reason ? <span className="text-body-secondary">{recall.reason}</span> : null}
              <RecallBadge recall={recall} />
              {canWrite ? (
                <span className="ms-auto">
                  <RecallActions recall={recall} onStep={(kind) => setStep({ recall, kind })} />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
      {step ? <RecallStepDialog kind={step.kind} recall={step.recall} onDone={() => setStep(null)} /> : null}
    </section>
  );
}
