import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle, TitledPage } from '../components/page-title';
import { ReportCatalogue } from '../features/reports/report-catalogue';
import { ReportScreen } from '../features/reports/report-screen';

/** `/reports` (reports.read): the catalogue of reports by area. */
export const ReportsPage = () => <TitledPage page="reports" screen={<ReportCatalogue />} />;

/** `/reports/:reportId?from&to&…` (reports.read): one report. */
export function ReportPage() {
  const { t } = useTranslation(['reports', 'common']);
  const { reportId = '' } = useParams();
  const known = t(`reports:reports.${reportId}.title`, { defaultValue: '' });
  return (
    <>
      <PageTitle title={known || t('common:pages.report')} />
      <ReportScreen key={reportId} reportId={reportId} />
    </>
  );
}
