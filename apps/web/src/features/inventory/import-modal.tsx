import '../../lib/zod-setup';
import type { InventoryKind } from '@odontia/shared/enums';
import { inventoryCsvColumns, maxImportRows } from '@odontia/shared/schemas/inventory';
import { useTranslation } from 'react-i18next';
import { ImportDialog } from '../../components/import-dialog';
import { useImportItems } from './api';

/** A CSV with the export's header (Spanish labels) and one example row, for the user to fill in. */
export function templateCsv(kind: InventoryKind): string {
  const columns = inventoryCsvColumns[kind];
  const example: Record<string, string> =
    kind === 'medication'
      ? {
          name: 'Amoxicilina 500 mg',
          sku: 'AMOX-500',
          barCode: '7790000000001',
          costPrice: '1500.00',
          basePrice: '2500.00',
          taxRate: '21',
          totalStock: '40',
          minStock: '5',
          reorderStock: '10',
          maxStock: '60',
          productStatus: 'active',
          activePrinciple: 'Amoxicilina',
          concentration: '500 mg',
          presentation: 'Caja x 21 comprimidos',
          applicationType: 'oral',
          prescriptionRequired: 'sí',
          approvalStatus: 'approved',
        }
      : {
          name: 'Guantes de nitrilo M',
          sku: 'GNT-M',
          barCode: '7790000000002',
          costPrice: '9000.00',
          basePrice: '12000.00',
          taxRate: '21',
          totalStock: '10',
          minStock: '2',
          reorderStock: '4',
          maxStock: '20',
          productStatus: 'active',
          brand: 'Descarpack',
          consumable: 'sí',
          unitMeasurement: 'box',
          packagingQty: '100',
        };
  const cell = (value: string) => (/[",;\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const header = columns.map(([, label]) => cell(label)).join(',');
  const row = columns.map(([field]) => cell(example[field] ?? '')).join(',');
  return `${header}\n${row}\n`;
}

/** The label of a CSV field in the interface language (`sku`, `barCode`…; `row` for the whole line). */
function useFieldLabel() {
  const { t, i18n } = useTranslation('inventory');
  return (field: string) => (i18n.exists(`inventory:fields.${field}`) ? t(`fields.${field}`) : field);
}

/**
 * Import from CSV: the file is checked first (dry run) and its preview shown; nothing is imported
 * while any row is invalid. Columns: the export's Spanish labels or the field names.
 */
export function ImportModal({ kind, onClose }: { kind: InventoryKind; onClose: () => void }) {
  const { t } = useTranslation(['inventory', 'common']);
  const label = useFieldLabel();
  const run = useImportItems(kind);
  return (
    <ImportDialog
      namespace="inventory"
      title={t(`import.title.${kind}`)}
      maxRows={maxImportRows}
      columns={inventoryCsvColumns[kind]}
      columnsText={t('import.columnsText')}
      run={run}
      successCode="inventory_imported"
      template={{ csv: () => templateCsv(kind), fileName: t(`import.templateName.${kind}`) }}
      fieldLabel={label}
      preview={[
        { header: t('fields.name'), cell: (row) => row.name },
        { header: t('fields.sku'), cell: (row) => row.sku ?? '—' },
        { header: t('fields.totalStock'), cell: (row) => row.totalStock, className: 'text-end' },
      ]}
      // The check answers 400 with the row errors in its details.
      resultOfRefusal={(details) => ({
        total: details?.total ?? 0,
        valid: 0,
        errors: details?.errors ?? [],
        ignoredColumns: details?.ignoredColumns ?? [],
        preview: [],
        created: 0,
      })}
      cancelLabel={t('adjust.cancel')}
      listLook
      onClose={onClose}
    />
  );
}
