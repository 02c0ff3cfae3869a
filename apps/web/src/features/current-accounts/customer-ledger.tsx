import '../../lib/zod-setup';
import { can } from '@odontia/shared/permissions';
import { ArrowLeft, Download, Mail, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { PageTitle } from '../../components/page-title';
import { PdfButton } from '../../components/pdf-button';
import { RecordNotFound } from '../../components/record-not-found';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { saveFile } from '../../lib/save-file';
import { useSessionUser } from '../../session/session';
import { customerAccountsApi, useCustomerLedger } from '../collections/api';
import { LedgerRangeFields, LedgerSummary, LedgerTable, useLedgerRange } from './ledger-parts';

/**
 * `/cc-customers/:customerId`: one customer's ledger between two dates (the current year by default),
 * its CSV, its statement PDF (in the customer's language) and the statement sent by e-mail.
 */
export function CustomerLedger() {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const { customerId = '' } = useParams();
  const range = useLedgerRange();
  const { startDate, endDate, invalid } = range;
  const query = useCustomerLedger(customerId, startDate, endDate);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const [exporting, setExporting] = useState(false);
  const [sending, setSending] = useState(false);

  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return <RecordNotFound code="customer_not_found" backTo="/cc-customers" backLabel={t('ledger.back')} />;
  }
  const ledger = query.data;
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
        {ledger ? <LedgerSummary ledger={ledger} /> : null}
        <LedgerRangeFields range={range} />
        <LedgerTable ledger={ledger} movementPath={(paymentId) => `/collections/view/${paymentId}`} />
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
