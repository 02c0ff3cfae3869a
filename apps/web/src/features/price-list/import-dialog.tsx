import {
  maxTreatmentImportRows,
  type TreatmentImportResult,
  treatmentCsvColumns,
} from '@odontia/shared/schemas/schedules';
import { FileDown, Upload } from 'lucide-react';
import { type ChangeEvent, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { saveFile } from '../../lib/save-file';
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
  const id = useId();
  const run = useImportTreatments();
  const [content, setContent] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const [result, setResult] = useState<TreatmentImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const label = (field: string) => {
    const known = treatmentCsvColumns.find(([name]) => name === field);
    return known ? t(`csvFields.${known[0]}`) : field;
  };

  const check = async (text: string) => {
    setResult(null);
    setFailure(null);
    try {
      setResult((await run.mutateAsync({ content: text, dryRun: true })).data);
    } catch (error) {
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
      toastSuccess(answer.code ?? 'treatments_imported');
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

  return (
    <Modal show onHide={onClose} centered size="lg" aria-labelledby={`${id}-title`} scrollable>
      <Modal.Header closeButton closeLabel={t('common:close')}>
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          {t('import.title')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body data-testid="import-modal">
        <p>{t('import.text', { max: maxTreatmentImportRows })}</p>
        <details className="mb-3 small">
          <summary>{t('import.columnsTitle')}</summary>
          <ul className="mt-2 mb-1">
            {treatmentCsvColumns.map(([field, spanish]) => (
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
              saveFile(new Blob([templateCsv()], { type: 'text/csv;charset=utf-8' }), 'lista-de-precios-modelo.csv')
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
                <div className="table-responsive">
                  <table className="table table-sm mb-0">
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
              <div className="table-responsive">
                <table className="table table-sm mb-0">
                  <caption className="small">{t('import.previewCaption')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('import.line')}</th>
                      <th scope="col">{t('fields.code')}</th>
                      <th scope="col">{t('fields.name')}</th>
                      <th scope="col">{t('import.action')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.preview.map((row) => (
                      <tr key={row.line} data-testid="import-preview-row">
                        <td>{row.line}</td>
                        <td>{row.code ?? '—'}</td>
                        <td>{row.name}</td>
                        <td>{t(`import.actions.${row.action}`)}</td>
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
          {t('form.cancel')}
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
