import type { EinvoiceSettings } from '@odontia/shared/schemas/einvoicing';
import { AlertTriangle, CheckCircle2, PlugZap, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FormAlert } from '../../components/form-feedback';
import { SettingsSection } from '../../components/settings-page-frame';
import { apiErrorText } from '../../lib/api-toast';
import { useDateTimeFormat } from '../../session/clinic-time';
import { type ConnectionAnswer, useTestConnection } from './api';

/*
 * What the authority's side looks like now (issue 39): the series with our last number and the
 * authority's (a difference means vouchers were authorised outside Odontia), the queue of
 * submissions, and a connection test with the stored certificate.
 */

/** ARCA or the AEAT: the authority the saved regime sends to (none for the local one). */
function useAuthority(data: EinvoiceSettings): string {
  const { t } = useTranslation('einvoicing');
  return data.regime === 'local' ? '' : t(`authorities.${data.regime}`);
}

export function SeriesSection({ data }: { data: EinvoiceSettings }) {
  const { t } = useTranslation('einvoicing');
  const dateTime = useDateTimeFormat();
  const authority = useAuthority(data);
  if (data.regime === 'local') return null;
  const arca = data.regime === 'arca';
  return (
    <SettingsSection
      title={t('sections.series')}
      intro={t(arca ? 'series.introArca' : 'series.introVerifactu')}
      testId="einvoicing-series"
    >
      {data.series.length === 0 ? (
        <p className="text-body-secondary mb-0" data-testid="einvoicing-series-empty">
          {t('series.empty', { authority })}
        </p>
      ) : (
        <div className="table-responsive">
          <table className="table table-sm align-middle mb-0" data-testid="einvoicing-series-table">
            <caption className="visually-hidden">{t('sections.series')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('series.series')}</th>
                {arca ? (
                  <>
                    <th scope="col">{t('series.pointOfSale')}</th>
                    <th scope="col">{t('series.voucherType')}</th>
                  </>
                ) : null}
                <th scope="col" className="text-end">
                  {t('series.ours')}
                </th>
                <th scope="col" className="text-end">
                  {t('series.authority', { authority })}
                </th>
                <th scope="col">{t('series.checkedAt')}</th>
              </tr>
            </thead>
            <tbody>
              {data.series.map((row) => {
                const more = row.difference ? row.difference.authority - row.difference.ours : 0;
                return (
                  <tr
                    key={row.series}
                    data-testid="einvoicing-series-row"
                    data-series={row.series}
                    data-difference={row.difference ? more : undefined}
                    className={row.difference ? 'table-warning' : undefined}
                  >
                    <th scope="row" className="fw-normal font-monospace">
                      {row.series}
                      {row.difference ? (
                        <div className="small fw-semibold text-wrap" data-testid="einvoicing-series-difference">
                          <AlertTriangle size={14} aria-hidden="true" className="me-1" />
                          {more > 0
                            ? t('series.moreAtAuthority', { count: more, authority })
                            : t('series.moreHere', { count: -more, authority })}
                        </div>
                      ) : null}
                    </th>
                    {arca ? (
                      <>
                        <td className="font-monospace">{row.pointOfSale ?? '—'}</td>
                        <td className="font-monospace">
                          {row.voucherType === null ? '—' : String(row.voucherType).padStart(3, '0')}
                        </td>
                      </>
                    ) : null}
                    <td className="text-end font-monospace" data-testid="einvoicing-series-ours">
                      {row.lastNumber}
                    </td>
                    <td className="text-end font-monospace" data-testid="einvoicing-series-authority">
                      {row.authorityLastNumber ?? '—'}
                    </td>
                    <td className="small">{row.checkedAt ? dateTime(row.checkedAt) : t('series.never')}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </SettingsSection>
  );
}

export function QueueSection({ data }: { data: EinvoiceSettings }) {
  const { t } = useTranslation('einvoicing');
  if (data.regime === 'local' && Object.values(data.queue).every((count) => count === 0)) return null;
  const counts = [
    { key: 'pending', tone: 'text-body' },
    { key: 'sending', tone: 'text-body' },
    { key: 'rejected', tone: 'text-danger' },
    { key: 'contingency', tone: 'text-warning-emphasis' },
  ] as const;
  return (
    <SettingsSection title={t('sections.queue')} intro={t('queue.intro')} testId="einvoicing-queue">
      <ul className="row g-2 mb-0 text-center list-unstyled">
        {counts.map(({ key, tone }) => (
          <li key={key} className="col-6 col-md-3">
            <div className="border rounded p-2 h-100">
              <div className="small text-body-secondary">{t(`queue.${key}`)}</div>
              <div
                className={`fs-4 fw-semibold ${data.queue[key] > 0 ? tone : 'text-body-secondary'}`}
                data-testid={`einvoicing-queue-${key}`}
              >
                {data.queue[key]}
              </div>
            </div>
          </li>
        ))}
      </ul>
    </SettingsSection>
  );
}

function ConnectionResult({ answer }: { answer: ConnectionAnswer }) {
  const { t, i18n } = useTranslation('einvoicing');
  const key = `einvoicing:test.codes.${answer.code}`;
  const text = i18n.exists(key)
    ? t(`test.codes.${answer.code}`)
    : i18n.exists(`messages:${answer.code}`)
      ? i18n.t(`messages:${answer.code}`)
      : t(answer.ok ? 'test.codes.einvoice_connection_ok' : 'test.failed');
  const Icon = answer.ok ? CheckCircle2 : XCircle;
  return (
    <div
      className={`alert ${answer.ok ? 'alert-success' : 'alert-danger'} mb-0`}
      role="status"
      data-testid="einvoicing-test-result"
      data-ok={answer.ok}
      data-code={answer.code}
    >
      <div className="fw-semibold d-flex align-items-center gap-1">
        <Icon size={16} aria-hidden="true" />
        {answer.ok ? t('test.ok') : t('test.fault')}
      </div>
      <div>{text}</div>
      {answer.detail ? (
        <div className="small mt-1" data-testid="einvoicing-test-detail">
          {t('test.detail')} <q className="text-break">{answer.detail}</q>
        </div>
      ) : null}
      {answer.regime === 'arca' && answer.pointsOfSale.length > 0 ? (
        <div className="small mt-1" data-testid="einvoicing-test-points-of-sale">
          {t('test.pointsOfSale')}{' '}
          {answer.pointsOfSale
            .map((row) => (row.blocked ? t('test.blocked', { number: row.number }) : String(row.number)))
            .join(', ')}
        </div>
      ) : null}
    </div>
  );
}

export function ConnectionTestSection({ data }: { data: EinvoiceSettings }) {
  const { t } = useTranslation('einvoicing');
  const test = useTestConnection();
  const local = data.regime === 'local';
  return (
    <SettingsSection
      title={t('sections.test')}
      intro={
        local
          ? t('test.introLocal')
          : t('test.intro', {
              authority: t(`authorities.${data.regime}`),
              environment: t(`environments.names.${data.environment}`),
            })
      }
      testId="einvoicing-test"
    >
      <div>
        <button
          type="button"
          className="btn btn-outline-primary"
          disabled={local || test.isPending}
          onClick={() => {
            if (!test.isPending) test.mutate();
          }}
          data-testid="einvoicing-test-run"
        >
          <BusyIcon busy={test.isPending} icon={PlugZap} />
          <span className="ms-1">{t('test.run')}</span>
        </button>
      </div>
      {test.isPending ? (
        <p className="text-body-secondary mb-0" role="status">
          {t('test.running')}
        </p>
      ) : test.data ? (
        <ConnectionResult answer={test.data} />
      ) : test.isError ? (
        <FormAlert testId="einvoicing-test-error">{apiErrorText(test.error)}</FormAlert>
      ) : null}
    </SettingsSection>
  );
}
