import type { Currency } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import { instalmentViews, paymentPlanStatuses } from '@odontia/shared/schemas/payment-plans';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { ListFilter } from '../../components/filter-select';
import { PageTitle } from '../../components/page-title';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useCurrencyFormat } from '../commercial/money-format';
import { type PaymentPlanRow, type PlanInstalmentRow, usePaymentPlans, usePlanInstalments } from './api';
import { PlanCard } from './plan-panel';
import { InstalmentBadge } from './plan-parts';

const pageSize = 25;

function useInstalmentColumns(): Column<PlanInstalmentRow>[] {
  const { t } = useTranslation('paymentPlans');
  const day = useCalendarDateFormat();
  const money = useCurrencyFormat();
  return [
    { key: 'dueOn', header: t('fields.dueOn'), className: 'text-nowrap', cell: (row) => day(row.dueOn) },
    {
      key: 'customer',
      header: t('fields.customer'),
      primary: true,
      cell: (row) =>
        row.patientId ? (
          <Link to={`/patients/${row.patientId}/mh`} className="fw-semibold">
            {row.customerName}
          </Link>
        ) : (
          <span className="fw-semibold">{row.customerName}</span>
        ),
    },
    {
      key: 'document',
      header: t('fields.document'),
      cell: (row) => <Link to={`/sales/view/${row.documentId}`}>{row.documentNumber ?? '—'}</Link>,
    },
    {
      key: 'instalment',
      header: t('fields.instalment'),
      className: 'text-nowrap',
      cell: (row) => t('instalmentOf', { number: row.number, count: row.instalmentCount }),
    },
    {
      key: 'amount',
      header: t('fields.amount'),
      className: 'text-end text-nowrap',
      cell: (row) => money(row.amount, row.currency as Currency),
    },
    {
      key: 'owed',
      header: t('fields.owed'),
      className: 'text-end text-nowrap fw-semibold',
      cell: (row) => money(subtract(row.amount, row.paid), row.currency as Currency),
    },
    { key: 'state', header: t('fields.state'), cell: (row) => <InstalmentBadge state={row.state} /> },
  ];
}

/** a − b of two decimal strings with two decimals, exact (integers of cents). */
function subtract(a: string, b: string): string {
  const cents = (value: string) => BigInt(value.replace('.', ''));
  const difference = cents(a) - cents(b);
  const negative = difference < 0n;
  const digits = (negative ? -difference : difference).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** `/payment-plans` (issue 40): the instalments overdue, due soon or open, and the plans. */
export function PaymentPlansPage() {
  const { t } = useTranslation(['paymentPlans', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const list = useListState({ filters: ['view', 'status'] });
  const view = (instalmentViews as readonly string[]).includes(list.filters.view)
    ? (list.filters.view as (typeof instalmentViews)[number])
    : 'overdue';
  const status = (paymentPlanStatuses as readonly string[]).includes(list.filters.status)
    ? (list.filters.status as (typeof paymentPlanStatuses)[number])
    : 'active';
  const instalments = usePlanInstalments({ view, page: list.page, pageSize });
  const plans = usePaymentPlans({ status, pageSize: 10 });
  const columns = useInstalmentColumns();
  return (
    <>
      <PageTitle title={t('common:pages.paymentPlans')} />
      <p className="text-body-secondary">{t('list.intro')}</p>
      <section className="card mb-4" data-testid="plan-instalments" aria-labelledby="plan-instalments-title">
        <div className="card-body border-bottom list-filters">
          <h2 className="h6 mb-0 me-auto align-self-center" id="plan-instalments-title">
            {t('list.instalments')}
          </h2>
          <ListFilter
            list={list}
            name="view"
            label={t('fields.view')}
            testId="plan-instalments-view"
            shownWhenEmpty="overdue"
            options={instalmentViews.map((value) => ({ value, label: t(`views.${value}`) }))}
          />
        </div>
        <DataTable<PlanInstalmentRow>
          className="table-hover"
          label={t('list.instalments')}
          emptyText={t(`list.empty.${view}`)}
          emptyTestId="plan-instalments-empty"
          columns={columns}
          query={instalments}
          rowKey={(row) => row.id}
          rowProps={(row) => ({ 'data-testid': 'plan-instalment-row', 'data-state': row.state })}
          pagination={{ ...pagesOf(list, pageSize), label: t('list.pagination'), testId: 'plan-instalments-range' }}
        />
      </section>
      <section data-testid="plans" aria-labelledby="plans-title">
        <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
          <h2 className="h5 mb-0 me-auto" id="plans-title">
            {t('list.plans')}
          </h2>
          <ListFilter
            list={list}
            name="status"
            label={t('fields.status')}
            testId="plans-status"
            shownWhenEmpty="active"
            options={paymentPlanStatuses.map((value) => ({ value, label: t(`statuses.${value}`) }))}
          />
        </div>
        {plans.data && plans.data.data.length === 0 ? (
          <p className="text-body-secondary" data-testid="plans-empty">
            {t('list.noPlans')}
          </p>
        ) : null}
        {(plans.data?.data ?? []).map((plan: PaymentPlanRow) => (
          <PlanCard key={plan.id} plan={plan} canWrite={canWrite} showDocument />
        ))}
        {plans.data && plans.data.total > plans.data.data.length ? (
          <p className="small text-body-secondary">
            {t('list.more', { count: plans.data.total - plans.data.data.length })}
          </p>
        ) : null}
      </section>
    </>
  );
}
