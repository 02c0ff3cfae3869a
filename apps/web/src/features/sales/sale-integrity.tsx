import type { SaleIntegrity } from '@odontia/shared/schemas/sales';
import { CircleAlert, CircleCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TableHead } from '../../components/captioned-table';
import { Spinner } from '../../components/spinner';
import { useInstantFormat } from '../../session/clinic-time';
import { salePath, useSaleIntegrity } from './api';

/** One kind of finding of a point of sale (gaps, skipped numbers, broken links): a titled list, nothing when there is none. */
function Findings({
  title,
  danger = false,
  testId,
  children,
}: {
  title: string;
  danger?: boolean;
  testId: string;
  children: ReactNode[];
}) {
  if (children.length === 0) return null;
  return (
    <div>
      <h3 className={danger ? 'h6 text-danger' : 'h6'}>{title}</h3>
      <ul className="mb-0" data-testid={testId}>
        {children}
      </ul>
    </div>
  );
}

function Report({ report }: { report: SaleIntegrity }) {
  const { t } = useTranslation('sales');
  const instant = useInstantFormat();
  return (
    <div className="d-flex flex-column gap-3">
      <div
        className={`alert ${report.ok ? 'alert-success' : 'alert-danger'} d-flex gap-2 align-items-start mb-0`}
        data-testid="integrity-result"
        data-ok={report.ok}
        role="status"
      >
        {report.ok ? <CircleCheck aria-hidden="true" /> : <CircleAlert aria-hidden="true" />}
        <div>
          <strong>{report.ok ? t('integrity.ok') : t('integrity.problems')}</strong>
          <div className="small">{t('integrity.checkedAt', { when: instant(report.checkedAt) })}</div>
        </div>
      </div>
      {report.pointsOfSale.length === 0 ? <p className="text-body-secondary">{t('integrity.none')}</p> : null}
      {report.pointsOfSale.map((point) => (
        <section key={point.pointOfService} className="card" data-testid="integrity-pos">
          <div className="card-header fw-semibold">
            {t('integrity.pointOfSale', { code: point.pointOfService, count: point.documents })}
          </div>
          <div className="card-body d-flex flex-column gap-3">
            <table className="table table-sm mb-0">
              <caption className="visually-hidden">{t('integrity.lastNumbers')}</caption>
              <TableHead
                cells={[
                  { label: t('fields.documentType') },
                  { label: t('integrity.lastNumber'), className: 'text-end' },
                ]}
              />
              <tbody>
                {point.lastNumbers.map((row) => (
                  <tr key={row.documentType}>
                    <td>{t(`types.${row.documentType}`)}</td>
                    <td className="text-end">{String(row.lastNumber).padStart(8, '0')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Findings title={t('integrity.gaps')} danger testId="integrity-gaps">
              {point.gaps.map((gap) => (
                <li key={`${gap.documentType}-${gap.from}`}>
                  {t(`types.${gap.documentType}`)}: {t('integrity.gap', { from: gap.from, to: gap.to })}
                </li>
              ))}
            </Findings>
            <Findings title={t('integrity.skipped')} testId="integrity-skipped">
              {point.skipped.map((range) => (
                <li key={`${range.documentType}-${range.from}`}>
                  {t(`types.${range.documentType}`)}: {t('integrity.skip', { from: range.from, to: range.to })}
                </li>
              ))}
            </Findings>
            <Findings title={t('integrity.chain')} danger testId="integrity-problems">
              {point.problems.map((problem) => (
                <li key={`${problem.kind}-${problem.chainIndex}-${problem.documentId}`}>
                  {t(`integrity.kinds.${problem.kind}`)}
                  {problem.documentId ? (
                    <>
                      {' — '}
                      <Link to={salePath(problem.documentId)}>
                        {problem.documentType ? t(`types.${problem.documentType}`) : ''} {point.pointOfService}-
                        {problem.documentNumber}
                      </Link>
                    </>
                  ) : null}{' '}
                  ({t('integrity.link', { index: problem.chainIndex })})
                </li>
              ))}
            </Findings>
            {point.lastHash ? (
              <p className="small text-body-secondary mb-0">
                {t('integrity.lastHash')} <code>{point.lastHash}</code>
              </p>
            ) : null}
          </div>
        </section>
      ))}
    </div>
  );
}

/** `/sales/integrity`: every point of sale's numbering and hash chain, recomputed now. */
export function SaleIntegrityReport() {
  const { t } = useTranslation('sales');
  const query = useSaleIntegrity();
  return (
    <div className="d-flex flex-column gap-3" data-testid="sale-integrity-page">
      <p className="mb-0">{t('integrity.intro')}</p>
      {query.data ? (
        <Report report={query.data} />
      ) : query.error ? (
        <div className="alert alert-danger">
          {t('list.loadError')}{' '}
          <button type="button" className="btn btn-link p-0" onClick={() => void query.refetch()}>
            {t('list.retry')}
          </button>
        </div>
      ) : (
        <Spinner />
      )}
    </div>
  );
}
