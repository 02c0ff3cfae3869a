import type { EinvoiceStatus } from '@odontia/shared/commercial';
import type { Einvoice, Sale } from '@odontia/shared/schemas/sales';
import { ExternalLink, RefreshCw, Send } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyButton } from '../../components/busy-button';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useCalendarDateFormat, useInstantFormat } from '../../session/clinic-time';
import { useRetryEinvoice } from './api';

/*
 * An issued sale's fiscal card (issue 39): where it stands with the tax authority, in words (a
 * badge per status, never colour alone), what the authority gave (ARCA: the letter, the voucher
 * code, its number, the CAE and its due date; Verifactu: the CSV and the VERI*FACTU legend), the
 * QR to verify it, the authority's observations translated, and sending it again. While it waits
 * for the answer the sale is read again every 2 s (api.ts `useSale`). The local regime is never
 * shown as authorised: it has no fiscal validity.
 */

const badgeClass: Record<EinvoiceStatus, string> = {
  local: 'text-bg-secondary',
  pending: 'text-bg-info',
  sending: 'text-bg-info',
  accepted: 'text-bg-success',
  accepted_with_errors: 'text-bg-warning',
  rejected: 'text-bg-danger',
  contingency: 'text-bg-warning',
  not_sent: 'text-bg-secondary',
};

/** Where a rejected or unanswered submission may be sent again (`sending`: asked again at once). */
const retryable: readonly EinvoiceStatus[] = ['rejected', 'contingency', 'sending'];

type Authority = 'arca' | 'verifactu' | 'local';

function authorityOf(einvoice: Einvoice): Authority {
  return einvoice.adapter === 'arca' || einvoice.adapter === 'verifactu' ? einvoice.adapter : 'local';
}

/** The badge's text: the local regime's, whatever its status says, is "without fiscal validity". */
export function einvoiceStatusKey(einvoice: Pick<Einvoice, 'adapter' | 'status'>): string {
  if (einvoice.adapter !== 'arca' && einvoice.adapter !== 'verifactu') return 'einvoice.status.local';
  if (einvoice.status === 'accepted') return `einvoice.status.accepted_${einvoice.adapter}`;
  return `einvoice.status.${einvoice.status}`;
}

/** What the status means; an authorisation in homologation (the authority's tests) is no tax document. */
function explanationKey(einvoice: Einvoice): string {
  const key = einvoiceStatusKey(einvoice).replace('.status.', '.explain.');
  return einvoice.environment === 'homologation' && einvoice.status === 'accepted' ? `${key}_homologation` : key;
}

/** The QR drawn from its URL by the `qrcode` library, loaded with the card (not with the sign-in page). */
function EinvoiceQr({ url, authority }: { url: string; authority: Authority }) {
  const { t } = useTranslation('sales');
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setImage(null);
    import('qrcode')
      .then((module) => {
        // A CommonJS library: its functions are named exports, or the default export's.
        const qrcode = typeof module.toDataURL === 'function' ? module : module.default;
        // SVG: crisp modules at any size and zoom (a scaled bitmap blurs a dense code).
        return qrcode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      })
      .then((svg) => {
        if (live) setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => {
        if (live) setImage(null);
      });
    return () => {
      live = false;
    };
  }, [url]);
  return (
    <figure className="mb-0 text-center" style={{ minWidth: 224 }}>
      {image ? (
        <img
          src={image}
          alt={t('einvoice.qrAlt')}
          width={224}
          height={224}
          className="border rounded bg-white p-1"
          data-testid="einvoice-qr"
        />
      ) : (
        <div
          className="border rounded bg-body-tertiary d-inline-block"
          style={{ width: 224, height: 224 }}
          aria-hidden="true"
        />
      )}
      <figcaption className="small mt-1">
        <a href={url} target="_blank" rel="noopener noreferrer" data-testid="einvoice-qr-link">
          {t(authority === 'verifactu' ? 'einvoice.verifyAeat' : 'einvoice.verifyArca')}
          <ExternalLink size={12} aria-hidden="true" className="ms-1" />
          <span className="visually-hidden"> {t('einvoice.newWindow')}</span>
        </a>
      </figcaption>
    </figure>
  );
}

/** The authority's observations: ours when we know the key (what is wrong, what to do), else its own words. */
function EinvoiceMessages({ messages }: { messages: Einvoice['messages'] }) {
  const { t, i18n } = useTranslation('sales');
  if (messages.length === 0) return null;
  return (
    <div>
      <h3 className="h6 mb-1">{t('einvoice.messagesTitle')}</h3>
      <ul className="mb-0 ps-3" data-testid="einvoice-messages">
        {messages.map((message) => {
          const key = message.key ? `einvoiceMessages.${message.key}` : null;
          const known = key !== null && i18n.exists(`sales:${key}`);
          return (
            <li
              key={`${message.code}:${message.message}`}
              data-testid="einvoice-message"
              data-code={message.code}
              data-key={message.key ?? undefined}
            >
              {known && key ? t(key) : message.message}
              {message.code ? <span className="small text-body-secondary ms-1">({message.code})</span> : null}
              {known && message.message ? (
                <div className="small text-body-secondary">
                  {t('einvoice.authoritySaid')} <q>{message.message}</q>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function RetryButton({ sale, status }: { sale: Sale; status: EinvoiceStatus }) {
  const { t } = useTranslation('sales');
  const retry = useRetryEinvoice(sale.id);
  const onRetry = async () => {
    // A double click sends one request: the button is disabled while it runs, and so is this.
    if (retry.isPending) return;
    try {
      const answer = await retry.mutateAsync();
      toastSuccess(answer.code ?? 'einvoice_retry_queued');
    } catch (error) {
      toastApiError(error);
    }
  };
  return (
    <BusyButton
      className="btn btn-outline-primary btn-sm"
      icon={status === 'sending' ? RefreshCw : Send}
      busy={retry.isPending}
      onClick={() => void onRetry()}
      testId="einvoice-retry"
    >
      {status === 'sending' ? t('einvoice.askAgain') : t('einvoice.resend')}
    </BusyButton>
  );
}

export function SaleEinvoiceCard({ sale, einvoice, canWrite }: { sale: Sale; einvoice: Einvoice; canWrite: boolean }) {
  const { t } = useTranslation('sales');
  const day = useCalendarDateFormat();
  const instant = useInstantFormat();
  const authority = authorityOf(einvoice);
  const status: EinvoiceStatus = authority === 'local' ? 'local' : einvoice.status;
  const arca = authority === 'arca';
  const verifactu = authority === 'verifactu';
  const authorised = status === 'accepted' || status === 'accepted_with_errors';
  const waiting = status === 'pending' || status === 'sending';
  return (
    <section
      className="card"
      aria-labelledby={`einvoice-${sale.id}-title`}
      data-testid="sale-einvoice"
      data-status={status}
      data-adapter={einvoice.adapter}
    >
      <div className="card-header d-flex flex-wrap align-items-center gap-2">
        <h2 id={`einvoice-${sale.id}-title`} className="h6 mb-0 d-flex align-items-center gap-2">
          {arca && einvoice.letter ? (
            <>
              <span>{t(`types.${sale.documentType}`)}</span>
              <span
                className="border border-2 border-body-emphasis fw-bold d-inline-flex align-items-center justify-content-center"
                style={{ width: '1.9em', height: '1.9em' }}
                data-testid="einvoice-letter"
              >
                {einvoice.letter}
              </span>
              <span className="visually-hidden">{t('einvoice.letter', { letter: einvoice.letter })}</span>
            </>
          ) : (
            t('einvoice.title')
          )}
        </h2>
        {arca && einvoice.voucherType !== null ? (
          <span className="small text-body-secondary font-monospace" data-testid="einvoice-voucher-type">
            {t('einvoice.voucherCode', { code: String(einvoice.voucherType).padStart(3, '0') })}
          </span>
        ) : null}
        <span className={`badge ${badgeClass[status]} ms-auto`} data-testid="einvoice-status" role="status">
          {t(einvoiceStatusKey(einvoice))}
        </span>
      </div>
      <div className="card-body d-flex flex-column gap-3">
        <p className="mb-0 small" data-testid="einvoice-explanation">
          {t(explanationKey(einvoice), {
            authority: t(`einvoice.authorities.${verifactu ? 'verifactu' : 'arca'}`),
          })}
        </p>
        {authority !== 'local' && einvoice.environment === 'homologation' ? (
          <p className="mb-0 small fw-semibold text-danger-emphasis" data-testid="einvoice-homologation">
            {t('einvoice.homologation')}
          </p>
        ) : null}
        <div className="d-flex flex-wrap gap-4 align-items-start">
          <dl className="row mb-0 flex-grow-1" style={{ minWidth: 240 }}>
            {einvoice.fiscalNumber ? (
              <>
                <dt className="col-sm-5">{t('einvoice.fiscalNumber')}</dt>
                <dd className="col-sm-7 font-monospace" data-testid="einvoice-fiscal-number">
                  {einvoice.fiscalNumber}
                </dd>
              </>
            ) : null}
            {arca && einvoice.authorizationCode ? (
              <>
                <dt className="col-sm-5">{t('einvoice.cae')}</dt>
                <dd className="col-sm-7 font-monospace" data-testid="einvoice-cae">
                  {einvoice.authorizationCode}
                </dd>
                {einvoice.authorizationDueDate ? (
                  <>
                    <dt className="col-sm-5">{t('einvoice.caeDueDate')}</dt>
                    <dd className="col-sm-7" data-testid="einvoice-cae-due">
                      {day(einvoice.authorizationDueDate)}
                    </dd>
                  </>
                ) : null}
              </>
            ) : null}
            {verifactu && einvoice.authorizationCode ? (
              <>
                <dt className="col-sm-5">{t('einvoice.csv')}</dt>
                <dd className="col-sm-7 font-monospace text-break" data-testid="einvoice-csv">
                  {einvoice.authorizationCode}
                </dd>
              </>
            ) : null}
            {authorised && einvoice.authorizedAt ? (
              <>
                <dt className="col-sm-5">{t('einvoice.authorizedAt')}</dt>
                <dd className="col-sm-7">{instant(einvoice.authorizedAt)}</dd>
              </>
            ) : null}
            {authority !== 'local' && einvoice.attempts > 1 ? (
              <>
                <dt className="col-sm-5">{t('einvoice.attempts')}</dt>
                <dd className="col-sm-7" data-testid="einvoice-attempts">
                  {einvoice.attempts}
                </dd>
              </>
            ) : null}
          </dl>
          {authority !== 'local' && einvoice.qrUrl ? (
            <div className="d-flex flex-column align-items-center gap-1">
              <EinvoiceQr url={einvoice.qrUrl} authority={authority} />
              {verifactu ? (
                <span className="fw-bold small" data-testid="einvoice-verifactu-legend">
                  VERI*FACTU
                </span>
              ) : null}
            </div>
          ) : verifactu && authorised ? (
            <span className="fw-bold small" data-testid="einvoice-verifactu-legend">
              VERI*FACTU
            </span>
          ) : null}
        </div>
        {authority !== 'local' ? <EinvoiceMessages messages={einvoice.messages} /> : null}
        {authority !== 'local' && einvoice.lastError && !authorised ? (
          <p className="mb-0 small" data-testid="einvoice-last-error">
            {t('einvoice.lastError')} <q className="text-break">{einvoice.lastError}</q>
          </p>
        ) : null}
        {waiting ? (
          <p className="mb-0 small text-body-secondary" data-testid="einvoice-polling">
            {t('einvoice.polling')}
          </p>
        ) : null}
        {canWrite && authority !== 'local' && retryable.includes(status) ? (
          <div>
            <RetryButton sale={sale} status={status} />
          </div>
        ) : null}
      </div>
    </section>
  );
}
