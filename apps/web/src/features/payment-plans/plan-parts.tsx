import type { Currency } from '@odontia/shared/enums';
import type { ScheduledInstalment } from '@odontia/shared/payment-plans';
import type { Instalment, PaymentPlanStatus } from '@odontia/shared/schemas/payment-plans';
import { useTranslation } from 'react-i18next';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { useCurrencyFormat } from '../commercial/money-format';

const stateBadges: Record<Instalment['state'], string> = {
  pending: 'text-bg-secondary',
  partly_paid: 'text-bg-info',
  paid: 'text-bg-success',
  overdue: 'text-bg-danger',
};
const statusBadges: Record<PaymentPlanStatus, string> = {
  active: 'text-bg-primary',
  completed: 'text-bg-success',
  cancelled: 'text-bg-secondary',
};

export function InstalmentBadge({ state }: { state: Instalment['state'] }) {
  const { t } = useTranslation('paymentPlans');
  return (
    <span className={`badge ${stateBadges[state]}`} data-testid="instalment-state" data-state={state}>
      {t(`states.${state}`)}
    </span>
  );
}

export function PlanStatusBadge({ status }: { status: PaymentPlanStatus }) {
  const { t } = useTranslation('paymentPlans');
  return (
    <span className={`badge ${statusBadges[status]}`} data-testid="plan-status" data-status={status}>
      {t(`statuses.${status}`)}
    </span>
  );
}

type Row = (ScheduledInstalment & { paid?: undefined; state?: undefined }) | (Instalment & { balance?: string });

/**
 * A plan's schedule: each instalment's number ("Cuota 2 de 6"), due date, principal, interest and
 * amount; with what is paid and the state once the plan exists (the preview has neither).
 */
export function ScheduleTable({
  instalments,
  currency,
  caption,
  testId,
}: {
  instalments: Row[];
  currency: Currency;
  caption: string;
  testId: string;
}) {
  const { t } = useTranslation('paymentPlans');
  const day = useCalendarDateFormat();
  const money = useCurrencyFormat();
  const stored = instalments.some((row) => row.state !== undefined);
  const withInterest = instalments.some((row) => Number(row.interest) > 0);
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle mb-0" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('fields.instalment')}</th>
            <th scope="col">{t('fields.dueOn')}</th>
            {withInterest ? (
              <>
                <th scope="col" className="text-end">
                  {t('fields.principal')}
                </th>
                <th scope="col" className="text-end">
                  {t('fields.interest')}
                </th>
              </>
            ) : null}
            <th scope="col" className="text-end">
              {t('fields.amount')}
            </th>
            {stored ? <th scope="col">{t('fields.state')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {instalments.map((row) => (
            <tr key={row.number} data-testid="instalment-row" data-state={row.state ?? 'preview'}>
              <td className="text-nowrap">{t('numberOf', { number: row.number, count: instalments.length })}</td>
              <td className="text-nowrap">{day(row.dueOn)}</td>
              {withInterest ? (
                <>
                  <td className="text-end text-nowrap">{money(row.principal, currency)}</td>
                  <td className="text-end text-nowrap">{money(row.interest, currency)}</td>
                </>
              ) : null}
              <td className="text-end text-nowrap fw-semibold" data-testid="instalment-amount">
                {money(row.amount, currency)}
              </td>
              {stored ? (
                <td>
                  {row.state ? <InstalmentBadge state={row.state} /> : null}
                  {row.state === 'partly_paid' || row.state === 'overdue' ? (
                    <div className="small text-body-secondary text-nowrap" data-testid="instalment-paid">
                      {t('paidSoFar', { amount: money(row.paid ?? '0', currency) })}
                    </div>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
