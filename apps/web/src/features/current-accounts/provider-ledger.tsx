import '../../lib/zod-setup';
import { can } from '@odontia/shared/permissions';
import { ArrowLeft, Download, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { PageTitle } from '../../components/page-title';
import { PdfButton } from '../../components/pdf-button';
import { RecordNotFound } from '../../components/record-not-found';
import { toastApiError } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { saveFile } from '../../lib/save-file';
import { useSessionUser } from '../../session/session';
import { currentAccountsApi, useLedger } from '../payments/api';
import { LedgerRangeFields, LedgerSummary, LedgerTable, useLedgerRange } from './ledger-parts';

/** `/cc-providers/:providerId`: one provider's ledger between two dates (the current year by default). */
export function ProviderLedger() {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const { providerId = '' } = useParams();
  const range = useLedgerRange();
  const { startDate, endDate, invalid } = range;
  const query = useLedger(providerId, startDate, endDate);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const [exporting, setExporting] = useState(false);

  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return <RecordNotFound code="provider_not_found" backTo="/cc-providers" backLabel={t('ledger.back')} />;
  }
  const ledger = query.data;
  const onCsv = async () => {
    setExporting(true);
    try {
      const file = await currentAccountsApi.ledgerFile(providerId, 'csv', startDate, endDate);
      saveFile(file.blob, file.fileName ?? 'cuenta-corriente.csv');
    } catch (error) {
      toastApiError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="d-flex flex-column gap-3" data-testid="provider-ledger">
      {ledger ? <PageTitle title={`${t('common:pages.ccProviderLedger')} — ${ledger.account.name}`} /> : null}
      <section className="card">
        <div className="card-header d-flex flex-wrap gap-2 justify-content-between align-items-center">
          <h2 className="h5 mb-0" data-testid="ledger-provider">
            {ledger?.account.name ?? '…'}
            {ledger?.account.nif ? <span className="ms-2 small text-body-secondary">{ledger.account.nif}</span> : null}
          </h2>
          <div className="d-flex flex-wrap gap-2">
            {canWrite ? (
              <Link
                to={`/payments/create?providerId=${providerId}`}
                className="btn btn-primary"
                data-testid="ledger-new-payment"
              >
                <Plus size={16} aria-hidden="true" className="me-2" />
                {t('ledger.newPayment')}
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
              load={() => currentAccountsApi.ledgerFile(providerId, 'pdf', startDate, endDate)}
              fallbackName="cuenta-corriente.pdf"
              label={t('ledger.pdf')}
              testId="ledger-pdf"
            />
          </div>
        </div>
        {ledger ? <LedgerSummary ledger={ledger} /> : null}
        <LedgerRangeFields range={range} />
        <LedgerTable ledger={ledger} movementPath={(paymentId) => `/payments/view/${paymentId}`} />
      </section>
      <div>
        <Link to="/cc-providers" className="btn btn-link px-0">
          <ArrowLeft size={16} aria-hidden="true" className="me-2" />
          {t('ledger.back')}
        </Link>
      </div>
    </div>
  );
}
