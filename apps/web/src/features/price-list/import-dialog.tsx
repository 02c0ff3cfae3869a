import { maxTreatmentImportRows, treatmentCsvColumns } from '@odontia/shared/schemas/schedules';
import { useTranslation } from 'react-i18next';
import { ImportDialog as CsvImportDialog } from '../../components/import-dialog';
import { useImportTreatments } from './api';

/** The export's header (Spanish labels, `;`) and one example row. */
function templateCsv(): string {
  const example = ['END-01', 'Endodoncia unirradicular', 'Endodoncia', '45000', '21', '60', 'sí'];
  return `\uFEFF${treatmentCsvColumns.map(([, label]) => label).join(';')}\r\n${example.join(';')}\r\n`;
}

/**
 * Import the price list from CSV: checked first (dry run: row errors, or a preview saying which
 * rows update a treatment of the same code and which create one); nothing is written while any
 * row is invalid.
 */
export function ImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(['priceList', 'common']);
  const run = useImportTreatments();
  const label = (field: string) => {
    const known = treatmentCsvColumns.find(([name]) => name === field);
    return known ? t(`csvFields.${known[0]}`) : field;
  };
  return (
    <CsvImportDialog
      namespace="priceList"
      title={t('import.title')}
      maxRows={maxTreatmentImportRows}
      columns={treatmentCsvColumns}
      run={run}
      successCode="treatments_imported"
      template={{ csv: templateCsv, fileName: 'lista-de-precios-modelo.csv' }}
      fieldLabel={label}
      preview={[
        { header: t('fields.code'), cell: (row) => row.code ?? '—' },
        { header: t('fields.name'), cell: (row) => row.name },
        { header: t('import.action'), cell: (row) => t(`import.actions.${row.action}`) },
      ]}
      cancelLabel={t('form.cancel')}
      onClose={onClose}
    />
  );
}
