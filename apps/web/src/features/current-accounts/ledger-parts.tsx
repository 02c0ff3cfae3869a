import '../../lib/zod-setup';
import type { CustomerLedger, ProviderLedger } from '@odontia/shared/schemas/current-accounts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { CaptionedTable } from '../../components/captioned-table';
import { DateInput } from '../../components/date-input';
import { useCalendarDateFormat, useClinicToday } from '../../session/clinic-time';
import { useCurrencyFormat } from '../commercial/money-format';
import { BalanceFigures } from './account-figures';

/** A provider's or a customer's ledger: the same account figures and entries. */
type Ledger = ProviderLedger | CustomerLedger;

const isDay = (value: string | null) => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The ledger's dates, in the URL (`?startDate=&endDate=`): the current year by default. */
export function useLedgerRange() {
  const today = useClinicToday();
  const [params, setParams] = useSearchParams();
  const startDate = isDay(params.get('startDate')) ? (params.get('startDate') as string) : `${today.slice(0, 4)}-01-01`;
  const endDate = isDay(params.get('endDate')) ? (params.get('endDate') as string) : today;
  // What the fields show: the URL's day, an emptied field as empty (the default then applies, the
  // field does not refill under the user's keys), the default when the URL has none.
  const shown = {
    startDate: params.get('startDate') === '' ? '' : startDate,
    endDate: params.get('endDate') === '' ? '' : endDate,
  };
  // Only a whole day, or an emptied field, reaches the URL: not a date half typed.
  const setDate = (name: 'startDate' | 'endDate', value: string) => {
    if (value !== '' && !isDay(value)) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(name, value);
        return next;
      },
      { replace: true },
    );
  };
  return { startDate, endDate, shown, setDate, invalid: startDate > endDate };
}

/** Balance, overdue, the aging buckets and what is on account. */
export function LedgerSummary({ ledger }: { ledger: Ledger }) {
  const { t } = useTranslation(['currentAccounts', 'common']);
  return (
    <div className="card-body border-bottom" data-testid="ledger-summary">
      <h3 className="h6 mb-2">{t('ledger.summary')}</h3>
      <BalanceFigures figures={ledger.account} currency={ledger.account.currency} testIdPrefix="ledger" />
    </div>
  );
}

const rangeDates = [
  { field: 'startDate', suffix: 'start', label: 'ledger.startDate' },
  { field: 'endDate', suffix: 'end', label: 'ledger.endDate' },
] as const;

/** The two dates of the ledger, and a word when they are the wrong way round. */
export function LedgerRangeFields({ range }: { range: ReturnType<typeof useLedgerRange> }) {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const id = useId();
  const { shown, setDate, invalid } = range;
  return (
    <div className="card-body d-flex flex-wrap gap-3 align-items-end">
      {rangeDates.map(({ field, suffix, label }) => (
        <div key={field}>
          <label className="form-label small mb-1" htmlFor={`${id}-${suffix}`}>
            {t(label)}
          </label>
          <DateInput
            id={`${id}-${suffix}`}
            name={field}
            className="form-control form-control-sm"
            value={shown[field]}
            onChange={(event) => setDate(field, event.target.value)}
          />
        </div>
      ))}
      {invalid ? <p className="text-danger-emphasis small mb-0">{t('ledger.invalidRange')}</p> : null}
    </div>
  );
}

/** Opening balance, the entries with their running balance, and the totals; a movement links to its view. */
export function LedgerTable({
  ledger,
  movementPath,
}: {
  ledger: Ledger | undefined;
  /** `/payments/view/<id>`, `/collections/view/<id>`. */
  movementPath: (paymentId: string) => string;
}) {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const currency = ledger?.account.currency;
  return (
    <CaptionedTable
      wrapperClassName="table-responsive px-2"
      className="table table-sm align-middle mb-0 ledger-table"
      testId="ledger-table"
      caption={t('ledger.caption')}
      head={[
        { label: t('ledger.date') },
        { label: t('ledger.reference') },
        { label: t('ledger.description'), className: 'd-none d-md-table-cell' },
        { label: t('ledger.dueDate'), className: 'd-none d-md-table-cell' },
        { label: t('ledger.debit'), className: 'text-end' },
        { label: t('ledger.credit'), className: 'text-end' },
        { label: t('ledger.balance'), className: 'text-end' },
      ]}
    >
      <tbody>
        {ledger ? (
          <>
            <tr className="table-active" data-testid="ledger-opening">
              <td>{day(ledger.startDate)}</td>
              <th scope="row" colSpan={3} className="fw-semibold">
                {t('ledger.opening')}
              </th>
              <td />
              <td />
              <td className="text-end fw-semibold text-nowrap">{money(ledger.openingBalance, currency)}</td>
            </tr>
            {ledger.entries.length === 0 ? (
              <tr>
                <td colSpan={7} className="text-body-secondary text-center py-3">
                  {t('ledger.empty')}
                </td>
              </tr>
            ) : (
              ledger.entries.map((entry) => (
                <tr key={entry.id} data-testid="ledger-entry" data-kind={entry.kind}>
                  <td className="text-nowrap">{day(entry.date)}</td>
                  <th scope="row" className="fw-normal">
                    {entry.paymentId ? (
                      <Link to={movementPath(entry.paymentId)}>{entry.reference}</Link>
                    ) : (
                      entry.reference
                    )}
                  </th>
                  <td className="d-none d-md-table-cell small text-body-secondary">
                    {entry.kind === 'payment_reversal' ? entry.description : ''}
                  </td>
                  <td className="d-none d-md-table-cell text-nowrap">{day(entry.dueDate)}</td>
                  <td className="text-end text-nowrap">{entry.debit === '0.00' ? '' : money(entry.debit, currency)}</td>
                  <td className="text-end text-nowrap">
                    {entry.credit === '0.00' ? '' : money(entry.credit, currency)}
                  </td>
                  <td className="text-end text-nowrap" data-testid="ledger-running">
                    {money(entry.balance, currency)}
                  </td>
                </tr>
              ))
            )}
          </>
        ) : (
          <tr>
            <td colSpan={7} className="text-center py-4">
              <span className="spinner-border spinner-border-sm" aria-hidden="true" />
            </td>
          </tr>
        )}
      </tbody>
      {ledger ? (
        <tfoot>
          <tr className="fw-semibold" data-testid="ledger-totals">
            <th scope="row" colSpan={2}>
              {t('ledger.totals')}
            </th>
            <td className="d-none d-md-table-cell" />
            <td className="d-none d-md-table-cell" />
            <td className="text-end text-nowrap">{money(ledger.totals.debit, currency)}</td>
            <td className="text-end text-nowrap">{money(ledger.totals.credit, currency)}</td>
            <td className="text-end text-nowrap" data-testid="ledger-closing">
              {money(ledger.closingBalance, currency)}
            </td>
          </tr>
        </tfoot>
      ) : null}
    </CaptionedTable>
  );
}
