import { ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { reportAreas } from './period';

/** The report's address, keeping the period and filters a link brings (the dashboard's click-through). */
export function reportPath(reportId: string, search = ''): string {
  return `/reports/${reportId}${search ? `?${search}` : ''}`;
}

/**
 * `/reports`: every report grouped by the area a clinic owner looks in (cash, production, current
 * accounts, VAT books, stock, agenda, patients, integrity), each a link to its screen. The period
 * the catalogue was opened with (`?from&to`) goes along.
 */
export function ReportCatalogue() {
  const { t } = useTranslation('reports');
  const [params] = useSearchParams();
  const period = new URLSearchParams();
  for (const name of ['from', 'to']) {
    const value = params.get(name);
    if (value) period.set(name, value);
  }
  return (
    <div className="reports-catalogue" data-testid="report-catalogue">
      <p className="text-body-secondary mb-3">{t('catalogue.intro')}</p>
      <div className="reports-areas">
        {reportAreas.map(({ area, reports }) => (
          <section key={area} className="card" aria-labelledby={`reports-area-${area}`} data-testid={`area-${area}`}>
            <div className="card-header">
              <h2 id={`reports-area-${area}`} className="h6 mb-0">
                {t(`areas.${area}`)}
              </h2>
            </div>
            <ul className="list-group list-group-flush">
              {reports.map((reportId) => (
                <li key={reportId} className="list-group-item p-0">
                  <Link
                    to={reportPath(reportId, period.toString())}
                    className="reports-link"
                    data-testid={`report-link-${reportId}`}
                  >
                    <span>
                      <span className="reports-link-title">{t(`reports.${reportId}.title`)}</span>
                      <span className="reports-link-text">{t(`reports.${reportId}.description`)}</span>
                    </span>
                    <ChevronRight size={18} aria-hidden="true" className="flex-shrink-0" />
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
