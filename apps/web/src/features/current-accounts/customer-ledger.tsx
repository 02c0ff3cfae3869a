import '../auth/zod-setup';
import { agingBuckets } from '@odontia/shared/commercial';
import { can } from '@odontia/shared/permissions';
import { ArrowLeft, Download, Mail, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { PageTitle } from '../../components/page-title';
import { PdfButton } from '../../components/pdf-button';
import { RecordNotFound } from '../../components/record-not-found';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { saveFile } from '../../lib/save-file';
import { useCalendarDateFormat, useClinicToday } from '../auth/clinic-time';
import { useSessionUser } from '../auth/session';
import { customerAccountsApi, useCustomerLedger } from '../collections/api';
import { useCurrencyFormat } from '../payments/format';
import { DateInput } from '../profile/date-input';

const isDay = (value: string | null) => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * `/cc-customers/:customerId`: one customer's ledger between two dates (the current year by default),
 * its CSV, its statement PDF (in the customer's language) and the statement sent by e-mail.
 */
export function CustomerLedger() {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const { customerId = '' } = useParams();
  const id = useId();
  const today = useClinicToday();
  const [params, setParams] = useSearchParams();
  const startDate = isDay(params.get('startDate')) ? (params.get('startDate') as string) : `${today.slice(0, 4)}-01-01`;
  const endDate = isDay(params.get('endDate')) ? (params.get('endDate') as string) : today;
  const query = useCustomerLedger(customerId, startDate, endDate);
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const [exporting, setExporting] = useState(false);
  const [sending, setSending] = useState(false);
  const setDate = (name: 'startDate' | 'endDate', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return <RecordNotFound code="customer_not_found" backTo="/cc-customers" backLabel={t('ledger.back')} />;
  }
  const ledger = query.data;
  const currency = ledger?.account.currency;
  const invalid = startDate > endDate;
  const onCsv = async () => {
    setExporting(true);
    try {
      const file = await customerAccountsApi.ledgerFile(customerId, 'csv', startDate, endDate);
      saveFile(file.blob, file.fileName ?? 'cuenta-corriente.csv');
    } catch (error) {
      toastApiError(error);
    } finally {
      setExporting(false);
    }
  };

  const onSend = async () => {
    setSending(true);
    try {
      const answer = await customerAccountsApi.sendStatement(customerId, startDate, endDate);
      toastSuccess(answer.code);
    } catch (error) {
      toastApiError(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="d-flex flex-column gap-3" data-testid="customer-ledger">
      {ledger ? <PageTitle title={`${t('common:pages.ccCustomerLedger')} — ${ledger.account.name}`} /> : null}
      <section className="card">
        <div className="card-header d-flex flex-wrap gap-2 justify-content-between align-items-center">
          <h2 className="h5 mb-0" data-testid="ledger-customer">
            {ledger?.account.name ?? '…'}
            {ledger ? (
              <span className="ms-2 small text-body-secondary">
                {[t(`customers.kinds.${ledger.account.kind}`), ledger.account.taxId].filter(Boolean).join(' · ')}
              </span>
            ) : null}
          </h2>
          <div className="d-flex flex-wrap gap-2">
            {canWrite ? (
              <Link
                to={`/collections/create?customerId=${customerId}`}
                className="btn btn-primary"
                data-testid="ledger-new-collection"
              >
                <Plus size={16} aria-hidden="true" className="me-2" />
                {t('customers.newCollection')}
              </Link>
            ) : null}
            <button
              type="button"
              className="btn btn-outline-secondary"
              onClick={() => void onCsv()}
              disabled={exporting || invalid}
            >
              <BusyIcon busy={exporting} icon={Download} />
              {t('ledger.csv')}
            </button>
            <PdfButton
              load={() => customerAccountsApi.ledgerFile(customerId, 'pdf', startDate, endDate)}
              fallbackName="cuenta-corriente.pdf"
              label={t('ledger.pdf')}
              testId="ledger-pdf"
            />
            {canWrite ? (
              <button
                type="button"
                className="btn btn-outline-secondary"
                onClick={() => void onSend()}
                disabled={sending || invalid || !ledger?.account.email}
                title={ledger && !ledger.account.email ? t('customers.noEmail') : undefined}
                data-testid="ledger-send"
              >
                <BusyIcon busy={sending} icon={Mail} />
                {t('customers.send')}
              </button>
            ) : null}
          </div>
        </div>
        {ledger ? (
          <div className="card-body border-bottom" data-testid="ledger-summary">
            <h3 className="h6 mb-2">{t('ledger.summary')}</h3>
            <dl className="row row-cols-2 row-cols-md-4 row-cols-xl-8 g-2 mb-0 small">
              {(
                [
                  ['balance', ledger.account.balance],
                  ['overdue', ledger.account.overdue],
                  ...agingBuckets.map((bucket) => [bucket, ledger.account.aging[bucket]] as const),
                  ['onAccount', ledger.account.onAccount],
                ] as const
              ).map(([key, value]) => (
                <div className="col" key={key}>
                  <dt className="fw-normal text-body-secondary">
                    {key in ledger.account.aging ? t(`aging.${key}`) : t(`fields.${key}`)}
                  </dt>
                  <dd className="mb-0 fw-semibold" data-testid={`ledger-${key}`}>
                    {money(value, currency)}
                  </dd>
                </div>
              ))}
            </dl>
          </div>
        ) : null}
        <div className="card-body d-flex flex-wrap gap-3 align-items-end">
          <div>
            <label className="form-label small mb-1" htmlFor={`${id}-start`}>
              {t('ledger.startDate')}
            </label>
            <DateInput
              id={`${id}-start`}
              name="startDate"
              className="form-control form-control-sm"
              value={startDate}
              onChange={(event) => setDate('startDate', event.target.value)}
            />
          </div>
          <div>
            <label className="form-label small mb-1" htmlFor={`${id}-end`}>
              {t('ledger.endDate')}
            </label>
            <DateInput
              id={`${id}-end`}
              name="endDate"
              className="form-control form-control-sm"
              value={endDate}
              onChange={(event) => setDate('endDate', event.target.value)}
            />
          </div>
          {invalid ? <p className="text-danger-emphasis small mb-0">{t('ledger.invalidRange')}</p> : null}
        </div>
        <div className="table-responsive px-2">
          <table className="table table-sm align-middle mb-0 ledger-table" data-testid="ledger-table">
            <caption className="visually-hidden">{t('ledger.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('ledger.date')}</th>
                <th scope="col">{t('ledger.reference')}</th>
                <th scope="col" className="d-none d-md-table-cell">
                  {t('ledger.description')}
                </th>
                <th scope="col" className="d-none d-md-table-cell">
                  {t('ledger.dueDate')}
                </th>
                <th scope="col" className="text-end">
                  {t('ledger.debit')}
                </th>
                <th scope="col" className="text-end">
                  {t('ledger.credit')}
                </th>
                <th scope="col" className="text-end">
                  {t('ledger.balance')}
                </th>
              </tr>
            </thead>
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
                            <Link to={`/collections/view/${entry.paymentId}`}>{entry.reference}</Link>
                          ) : (
                            entry.reference
                          )}
                        </th>
                        <td className="d-none d-md-table-cell small text-body-secondary">
                          {entry.kind === 'payment_reversal' ? entry.description : ''}
                        </td>
                        <td className="d-none d-md-table-cell text-nowrap">{day(entry.dueDate)}</td>
                        <td className="text-end text-nowrap">
                          {entry.debit === '0.00' ? '' : money(entry.debit, currency)}
                        </td>
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
          </table>
        </div>
      </section>
      <div>
        <Link to="/cc-customers" className="btn btn-link px-0">
          <ArrowLeft size={16} aria-hidden="true" className="me-2" />
          {t('ledger.back')}
        </Link>
      </div>
    </div>
  );
}
