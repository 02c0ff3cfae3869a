import { useTranslation } from 'react-i18next';
import { PageTitle } from '../components/page-title';
import { ClinicExportPanel } from '../features/clinic-export/clinic-export-panel';

/** `/account/export` (issue 42; clinic.export): Administración › Exportar todos los datos. */
export function ClinicExportPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.clinicExport')} />
      <ClinicExportPanel />
    </>
  );
}
