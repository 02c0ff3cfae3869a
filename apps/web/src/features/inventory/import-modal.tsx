import '../../lib/zod-setup';
import type { InventoryKind } from '@odontia/shared/enums';
import { type InventoryImportResult, inventoryCsvColumns, maxImportRows } from '@odontia/shared/schemas/inventory';
import { FileDown, Upload } from 'lucide-react';
import { type ChangeEvent, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { saveFile } from '../../lib/save-file';
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
  const id = useId();
  const label = useFieldLabel();
  const run = useImportItems(kind);
  const [content, setContent] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const [result, setResult] = useState<InventoryImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const check = async (text: string) => {
    setResult(null);
    setFailure(null);
    try {
      const answer = await run.mutateAsync({ content: text, dryRun: true });
      setResult(answer.data);
    } catch (error) {
      if (isApiError(error) && error.code === 'import_has_errors') {
        const details = error.details as Partial<InventoryImportResult> | undefined;
        setResult({
          total: details?.total ?? 0,
          valid: 0,
          errors: details?.errors ?? [],
          ignoredColumns: details?.ignoredColumns ?? [],
          preview: [],
          created: 0,
        });
        return;
      }
      setFailure(isApiError(error) ? error.code : 'systemError');
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setFileName(file.name);
    const text = await file.text();
    setContent(text);
    await check(text);
  };

  const onImport = async () => {
    if (!content) return;
    try {
      const answer = await run.mutateAsync({ content, dryRun: false });
      toastSuccess(answer.code ?? 'inventory_imported');
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'import_has_errors') {
        await check(content);
        return;
      }
      toastApiError(error);
    }
  };

  const invalid = Boolean(result && result.errors.length > 0);
  const importable = result && !invalid ? result.valid : 0;
  const columns = inventoryCsvColumns[kind];

  return (
    <Modal show onHide={onClose} centered size="lg" aria-labelledby={`${id}-title`} scrollable>
      <Modal.Header closeButton closeLabel={t('common:close')}>
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          {t(`import.title.${kind}`)}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body data-testid="import-modal">
        <p>{t('import.text', { max: maxImportRows })}</p>
        <details className="mb-3 small">
          <summary>{t('import.columnsTitle')}</summary>
          <p className="mt-2 mb-1 text-body-secondary">{t('import.columnsText')}</p>
          <ul className="import-columns">
            {columns.map(([field, spanish]) => (
              <li key={field}>
                <strong>{spanish}</strong> <code>{field}</code>
              </li>
            ))}
          </ul>
          <p className="mb-0 text-body-secondary">{t('import.valuesText')}</p>
        </details>
        <div className="d-flex flex-wrap gap-2 align-items-center mb-3">
          <label className="btn btn-outline-primary mb-0" htmlFor={`${id}-file`}>
            <Upload size={16} aria-hidden="true" className="me-2" />
            {t('import.choose')}
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,text/csv"
            className="visually-hidden"
            data-testid="import-file"
            onChange={(event) => void onFile(event)}
          />
          <span className="small text-body-secondary text-truncate">{fileName || t('import.noFile')}</span>
          <button
            type="button"
            className="btn btn-link ms-auto"
            onClick={() =>
              saveFile(
                new Blob([templateCsv(kind)], { type: 'text/csv;charset=utf-8' }),
                t(`import.templateName.${kind}`),
              )
            }
          >
            <FileDown size={16} aria-hidden="true" className="me-1" />
            {t('import.template')}
          </button>
        </div>
        {run.isPending ? (
          <div className="d-flex align-items-center gap-2 text-body-secondary">
            <span className="spinner-border spinner-border-sm" aria-hidden="true" />
            {t('import.checking')}
          </div>
        ) : null}
        {failure ? (
          <FormAlert>{t(`messages:${failure}`, { defaultValue: t('messages:systemError') })}</FormAlert>
        ) : null}
        {result ? (
          <div data-testid="import-result">
            <p className="mb-2" data-testid="import-summary">
              {t('import.summary', { count: result.total })}
              {result.ignoredColumns.length ? (
                <span className="d-block small text-body-secondary">
                  {t('import.ignored', { columns: result.ignoredColumns.join(', ') })}
                </span>
              ) : null}
            </p>
            {invalid ? (
              <>
                <FormAlert testId="import-invalid">{t('import.invalid', { count: result.errors.length })}</FormAlert>
                <div className="table-responsive import-table">
                  <table className="table table-sm mb-0 data-table">
                    <thead>
                      <tr>
                        <th scope="col">{t('import.line')}</th>
                        <th scope="col">{t('import.field')}</th>
                        <th scope="col">{t('import.reason')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {result.errors.map((error) => (
                        <tr key={`${error.line}-${error.field}-${error.code}`} data-testid="import-error">
                          <td>{error.line}</td>
                          <td>{label(error.field)}</td>
                          <td className="text-danger">{fieldCodeText(error.code)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </>
            ) : result.preview.length ? (
              <div className="table-responsive import-table">
                <table className="table table-sm mb-0 data-table">
                  <caption className="small">{t('import.previewCaption')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('import.line')}</th>
                      <th scope="col">{t('fields.name')}</th>
                      <th scope="col">{t('fields.sku')}</th>
                      <th scope="col" className="text-end">
                        {t('fields.totalStock')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.preview.map((row) => (
                      <tr key={row.line} data-testid="import-preview-row">
                        <td>{row.line}</td>
                        <td>{row.name}</td>
                        <td>{row.sku ?? '—'}</td>
                        <td className="text-end">{row.totalStock}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
          </div>
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        {invalid ? <span className="small text-body-secondary me-auto">{t('import.fixFirst')}</span> : null}
        <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
          {t('adjust.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!importable || run.isPending}
          onClick={() => void onImport()}
          data-testid="import-submit"
        >
          {importable ? t('import.submit', { count: importable }) : t('import.submitEmpty')}
        </button>
      </Modal.Footer>
    </Modal>
  );
}
