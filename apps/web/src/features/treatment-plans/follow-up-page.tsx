import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { PageTitle } from '../../components/page-title';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { useCurrencyFormat } from '../commercial/money-format';
import { type FollowUpRow, useFollowUp } from './api';

const pageSize = 25;

function useColumns(): Column<FollowUpRow>[] {
  const { t } = useTranslation('plans');
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  return [
    {
      key: 'patient',
      header: t('followUp.patient'),
      primary: true,
      cell: (row) => (
        <Link to={`/patients/${row.patientId}/mh?tab=plans`} className="fw-semibold">
          {row.patientName}
        </Link>
      ),
    },
    {
      key: 'phone',
      header: t('followUp.phone'),
      className: 'text-nowrap',
      cell: (row) => (row.phone ? <a href={`tel:${row.phone.replace(/[^\d+]/g, '')}`}>{row.phone}</a> : '—'),
    },
    { key: 'plan', header: t('followUp.plan'), cell: (row) => row.title },
    {
      key: 'pending',
      header: t('followUp.pendingAmount'),
      className: 'text-end text-nowrap fw-semibold',
      cell: (row) => money(row.pendingAmount),
    },
    {
      key: 'sessions',
      header: t('followUp.sessions'),
      className: 'text-nowrap',
      cell: (row) => t('followUp.sessionsText', { pending: row.pendingSessions, scheduled: row.scheduledSessions }),
    },
    {
      key: 'next',
      header: t('followUp.nextItem'),
      cell: (row) => (row.nextItem ? `${row.nextItem}${row.nextTooth === null ? '' : ` · ${row.nextTooth}`}` : '—'),
    },
    { key: 'lastVisit', header: t('followUp.lastVisit'), className: 'text-nowrap', cell: (row) => day(row.lastVisit) },
  ];
}

/** `/treatment-plans/follow-up` (issue 41; patients.read): accepted plans with work pending, the front desk's call list. */
export function PlanFollowUpPage() {
  const { t } = useTranslation(['plans', 'common']);
  const list = useListState();
  const query = useFollowUp(list.page, pageSize);
  const columns = useColumns();
  return (
    <>
      <PageTitle title={t('common:pages.planFollowUp')} />
      <p className="text-body-secondary">{t('followUp.intro')}</p>
      <section className="card" data-testid="plan-follow-up">
        <DataTable<FollowUpRow>
          className="table-hover"
          label={t('common:pages.planFollowUp')}
          emptyText={t('followUp.empty')}
          emptyTestId="plan-follow-up-empty"
          columns={columns}
          query={query}
          rowKey={(row) => row.planId}
          rowProps={() => ({ 'data-testid': 'plan-follow-up-row' })}
          pagination={{ ...pagesOf(list, pageSize), label: t('followUp.pagination') }}
        />
      </section>
    </>
  );
}
