import type { Currency } from '@odontia/shared/enums';
import type { BudgetProgress } from '@odontia/shared/schemas/budgets';
import Big from 'big.js';
import { CalendarRange, HandCoins, XCircle } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { useCurrencyFormat } from '../commercial/money-format';
import { type PaymentPlanRow, usePaymentPlans } from './api';
import { CancelPlanDialog, CollectPlanDialog, PlanDialog } from './plan-dialog';
import { PlanStatusBadge, ScheduleTable } from './plan-parts';

/** One plan: its figures, its schedule with each instalment's state, and cancelling it. */
export function PlanCard({
  plan,
  canWrite,
  showDocument = false,
}: {
  plan: PaymentPlanRow;
  canWrite: boolean;
  showDocument?: boolean;
}) {
  const { t } = useTranslation('paymentPlans');
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const [cancelling, setCancelling] = useState(false);
  const [collecting, setCollecting] = useState(false);
  const titleId = `plan-${plan.id}`;
  const collectable = canWrite && plan.status === 'active' && plan.documentType === 'budget';
  return (
    <section className="card mb-3" aria-labelledby={titleId} data-testid="plan-card" data-status={plan.status}>
      <div className="card-header d-flex flex-wrap align-items-center gap-2">
        <h2 className="h6 mb-0 me-auto" id={titleId}>
          {t(`card.title.${plan.frequency}`, { count: plan.instalmentCount })}
          {showDocument && plan.documentNumber ? (
            <>
              {' · '}
              <Link to={`/sales/view/${plan.documentId}`}>{plan.documentNumber}</Link>
            </>
          ) : null}
        </h2>
        <PlanStatusBadge status={plan.status} />
        {collectable ? (
          <button
            type="button"
            className="btn btn-outline-primary btn-sm"
            onClick={() => setCollecting(true)}
            data-testid="plan-collect"
          >
            <HandCoins size={16} aria-hidden="true" className="me-1" />
            {t('collect.button')}
          </button>
        ) : null}
        {canWrite && plan.status === 'active' ? (
          <button
            type="button"
            className="btn btn-outline-danger btn-sm"
            onClick={() => setCancelling(true)}
            data-testid="plan-cancel"
          >
            <XCircle size={16} aria-hidden="true" className="me-1" />
            {t('cancel.button')}
          </button>
        ) : null}
      </div>
      <div className="card-body">
        <dl className="row small mb-3">
          <dt className="col-sm-3">{t('fields.total')}</dt>
          <dd className="col-sm-3" data-testid="plan-total">
            {money(plan.total, plan.currency)}
            {Number(plan.interest) > 0 ? (
              <span className="text-body-secondary">
                {' '}
                {t('card.ofInterest', { interest: money(plan.interest, plan.currency) })}
              </span>
            ) : null}
          </dd>
          <dt className="col-sm-3">{t('fields.pending')}</dt>
          <dd className="col-sm-3" data-testid="plan-pending">
            {money(plan.pending, plan.currency)}
          </dd>
          {plan.annualRate ? (
            <>
              <dt className="col-sm-3">{t('fields.annualRate')}</dt>
              <dd className="col-sm-3">{t('card.rate', { rate: plan.annualRate })}</dd>
            </>
          ) : null}
          {plan.interestDocumentId ? (
            <>
              <dt className="col-sm-3">{t('fields.interestDocument')}</dt>
              <dd className="col-sm-3">
                <Link to={`/sales/view/${plan.interestDocumentId}`}>{plan.interestDocumentNumber ?? '—'}</Link>
              </dd>
            </>
          ) : null}
          {plan.status === 'cancelled' ? (
            <>
              <dt className="col-sm-3">{t('fields.cancelledAt')}</dt>
              <dd className="col-sm-9">
                {day(plan.cancelledAt?.slice(0, 10))} · {plan.cancelReason}
              </dd>
            </>
          ) : null}
        </dl>
        <ScheduleTable
          instalments={plan.instalments}
          currency={plan.currency as Currency}
          caption={t('card.caption')}
          testId="plan-schedule"
        />
      </div>
      {plan.documentType === 'budget' ? (
        <p className="card-footer small text-body-secondary mb-0">{t('card.budgetMoney')}</p>
      ) : null}
      {cancelling ? <CancelPlanDialog plan={plan} onClose={() => setCancelling(false)} /> : null}
      {collecting ? <CollectPlanDialog plan={plan} onClose={() => setCollecting(false)} /> : null}
    </section>
  );
}

/** What the sale's screen hands the panel. */
export interface PlanPanelSale {
  id: string;
  number: string | null;
  status: string;
  documentType: string;
  openAmount: string;
  currency: Currency;
}

/**
 * The payment plans of an issued invoice or debit note — or of an accepted budget (issue 40: what it
 * still has to invoice, interest-free) — on its screen: the active one (and those cancelled before
 * it), and the "Plan de pago" action while it owes something and has none.
 */
export function PlanPanel({
  sale,
  canWrite,
  budgetProgress,
}: {
  sale: PlanPanelSale;
  canWrite: boolean;
  /** An issued budget's answer and lines (the sale's screen reads them for its budget panel too). */
  budgetProgress?: BudgetProgress | undefined;
}) {
  const { t } = useTranslation('paymentPlans');
  const [creating, setCreating] = useState(false);
  const budget = sale.documentType === 'budget' && sale.status === 'issued';
  const financeable =
    budget || (sale.status === 'issued' && (sale.documentType === 'invoice' || sale.documentType === 'debit_note'));
  const plans = usePaymentPlans({ documentId: sale.id, pageSize: 100 }, financeable);
  if (!financeable) return null;
  const accepted = budgetProgress?.decision?.decision === 'accepted';
  const owed = budget
    ? (budgetProgress?.lines ?? [])
        .filter((line) => !line.invoiced)
        .reduce((sum, line) => sum.plus(line.total), new Big(0))
        .toFixed(2)
    : sale.openAmount;
  const rows = plans.data?.data ?? [];
  const hasActive = rows.some((plan) => plan.status === 'active');
  const canCreate = canWrite && !hasActive && plans.isSuccess && (!budget || accepted) && new Big(owed).gt(0);
  if (rows.length === 0 && !canCreate) return null;
  return (
    <div className="mt-3" data-testid="plan-panel">
      {canCreate ? (
        <div className="d-flex align-items-center gap-2 mb-3">
          <button
            type="button"
            className="btn btn-outline-primary"
            onClick={() => setCreating(true)}
            data-testid="plan-create"
          >
            <CalendarRange size={16} aria-hidden="true" className="me-1" />
            {t('create.button')}
          </button>
          <span className="small text-body-secondary">
            {t(budget ? 'create.budgetButtonHint' : 'create.buttonHint')}
          </span>
        </div>
      ) : null}
      {rows.map((plan) => (
        <PlanCard key={plan.id} plan={plan} canWrite={canWrite} />
      ))}
      {creating ? (
        <PlanDialog
          document={{ id: sale.id, number: sale.number, openAmount: owed, currency: sale.currency, budget }}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </div>
  );
}

/** The customer's active plans, under their current account: each instalment as a due item with its state. */
export function CustomerPlans({ customerId, canWrite }: { customerId: string; canWrite: boolean }) {
  const { t } = useTranslation('paymentPlans');
  const plans = usePaymentPlans({ customerId, status: 'active', pageSize: 100 }, Boolean(customerId));
  const rows = plans.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="customer-plans-title" data-testid="customer-plans">
      <h2 className="h5" id="customer-plans-title">
        {t('list.plans')}
      </h2>
      {rows.map((plan) => (
        <PlanCard key={plan.id} plan={plan} canWrite={canWrite} showDocument />
      ))}
    </section>
  );
}
