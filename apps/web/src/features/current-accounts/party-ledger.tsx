import '../../lib/zod-setup';
import { can } from '@odontia/shared/permissions';
import type {
  CustomerLedger as CustomerLedgerData,
  ProviderLedger as ProviderLedgerData,
} from '@odontia/shared/schemas/current-accounts';
import { ArrowLeft, Download, Mail, Plus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { BusyButton } from '../../components/busy-button';
import { IconLink } from '../../components/icon-link';
import { PageTitle } from '../../components/page-title';
import { PdfButton } from '../../components/pdf-button';
import { RecordNotFound } from '../../components/record-not-found';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { saveFile } from '../../lib/save-file';
import { useSessionUser } from '../../session/session';
import { CustomerPlans } from '../payment-plans/plan-panel';
import { customerLedger, type LedgerSide, providerLedger } from './account-sides';
import { LedgerRangeFields, LedgerSummary, LedgerTable, useLedgerRange } from './ledger-parts';

/** Runs a file or e-mail action with its button busy meanwhile; a failure is a toast. */
function useBusyAction() {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      toastApiError(error);
    } finally {
      setBusy(false);
    }
  };
  return [busy, run] as const;
}

/**
 * `<side>/:partyId`: one party's ledger between two dates (the current year by default), its CSV,
 * its statement PDF and, where the side sends one, the statement by e-mail.
 */
function PartyLedger<Ledger extends CustomerLedgerData | ProviderLedgerData>({
  side,
  extra,
}: {
  side: LedgerSide<Ledger>;
  /** What a side shows under the ledger (a customer's payment plans, issue 40). */
  extra?: (partyId: string, canWrite: boolean) => ReactNode;
}) {
  const { t } = useTranslation(['currentAccounts', 'common']);
  const partyId = useParams()[side.param] ?? '';
  const range = useLedgerRange();
  const { startDate, endDate, invalid } = range;
  const query = side.useLedger(partyId, startDate, endDate);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const [exporting, runExport] = useBusyAction();
  const [sending, runSend] = useBusyAction();
  const { sendStatement } = side;

  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return <RecordNotFound code={side.notFoundCode} backTo={side.path} backLabel={t('ledger.back')} />;
  }
  const ledger = query.data;
  const detail = ledger ? side.detail(ledger, t) : '';
  const onCsv = () =>
    runExport(async () => {
      const file = await side.file(partyId, 'csv', startDate, endDate);
      saveFile(file.blob, file.fileName ?? 'cuenta-corriente.csv');
    });

  return (
    <div className="d-flex flex-column gap-3" data-testid={side.testId}>
      {ledger ? <PageTitle title={`${t(side.pageTitleKey)} — ${ledger.account.name}`} /> : null}
      <section className="card">
        <div className="card-header d-flex flex-wrap gap-2 justify-content-between align-items-center">
          <h2 className="h5 mb-0" data-testid={side.nameTestId}>
            {ledger?.account.name ?? '…'}
            {detail ? <span className="ms-2 small text-body-secondary">{detail}</span> : null}
          </h2>
          <div className="d-flex flex-wrap gap-2">
            {canWrite ? (
              <IconLink
                to={`${side.newMovement.path}${partyId}`}
                className="btn btn-primary"
                icon={Plus}
                testId={side.newMovement.testId}
              >
                {t(side.newMovement.textKey)}
              </IconLink>
            ) : null}
            <BusyButton
              className="btn btn-outline-secondary"
              icon={Download}
              busy={exporting}
              disabled={exporting || invalid}
              onClick={() => void onCsv()}
            >
              {t('ledger.csv')}
            </BusyButton>
            <PdfButton
              load={() => side.file(partyId, 'pdf', startDate, endDate)}
              fallbackName="cuenta-corriente.pdf"
              label={t('ledger.pdf')}
              testId="ledger-pdf"
            />
            {sendStatement && canWrite ? (
              <SendStatementButton
                email={ledger && 'email' in ledger.account ? ledger.account.email : undefined}
                loaded={Boolean(ledger)}
                busy={sending}
                disabled={invalid}
                onSend={() =>
                  void runSend(async () => {
                    const answer = await sendStatement(partyId, startDate, endDate);
                    toastSuccess(answer.code);
                  })
                }
              />
            ) : null}
          </div>
        </div>
        {ledger ? <LedgerSummary ledger={ledger} /> : null}
        <LedgerRangeFields range={range} />
        <LedgerTable ledger={ledger} movementPath={(paymentId) => `${side.movementPath}${paymentId}`} />
      </section>
      {extra?.(partyId, canWrite)}
      <div>
        <IconLink to={side.path} className="btn btn-link px-0" icon={ArrowLeft}>
          {t('ledger.back')}
        </IconLink>
      </div>
    </div>
  );
}

/** The statement by e-mail: off while the party has no address (the button says why). */
function SendStatementButton({
  email,
  loaded,
  busy,
  disabled,
  onSend,
}: {
  email: string | null | undefined;
  loaded: boolean;
  busy: boolean;
  disabled: boolean;
  onSend: () => void;
}) {
  const { t } = useTranslation(['currentAccounts', 'common']);
  return (
    <BusyButton
      className="btn btn-outline-secondary"
      icon={Mail}
      busy={busy}
      disabled={busy || disabled || !email}
      onClick={onSend}
      title={loaded && !email ? t('customers.noEmail') : undefined}
      testId="ledger-send"
    >
      {t('customers.send')}
    </BusyButton>
  );
}

/** `/cc-customers/:customerId`: the statement PDF is in the customer's language. */
export const CustomerLedger = () => (
  <PartyLedger
    side={customerLedger}
    extra={(customerId, canWrite) => <CustomerPlans customerId={customerId} canWrite={canWrite} />}
  />
);

/** `/cc-providers/:providerId`. */
export const ProviderLedger = () => <PartyLedger side={providerLedger} />;
