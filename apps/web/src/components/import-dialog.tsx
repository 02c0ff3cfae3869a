import { FileDown, Upload } from 'lucide-react';
import { type ChangeEvent, type ReactNode, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { toastApiError, toastSuccess } from '../lib/api-toast';
import { isApiError } from '../lib/http';
import { saveFile } from '../lib/save-file';
import { FormAlert } from './form-feedback';
import { fieldCodeText } from './form-field';

/** What the server answers for a CSV import, checked (dry run) or done. */
export interface ImportResult<Row extends { line: number }> {
  total: number;
  valid: number;
  errors: { line: number; field: string; code: string }[];
  ignoredColumns: string[];
  preview: Row[];
}

export interface ImportRun<Result> {
  mutateAsync: (body: { content: string; dryRun: boolean }) => Promise<{ data: Result; code?: string }>;
  isPending: boolean;
}

export interface PreviewColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  className?: string;
}

/**
 * Import from CSV, configured per import: the file is checked first (dry run: row errors, or a
 * preview of what each row does); nothing is written while any row is invalid. The texts come
 * from `import.*` of the caller's namespace.
 */
export function ImportDialog<Result extends ImportResult<{ line: number }>>({
  namespace,
  title,
  maxRows,
  columns,
  columnsText,
  run,
  successCode,
  template,
  fieldLabel,
  preview,
  resultOfRefusal,
  cancelLabel,
  listLook = false,
  onClose,
}: {
  namespace: string;
  title: string;
  maxRows: number;
  /** The CSV's columns: field name and Spanish label. */
  columns: readonly (readonly [string, string])[];
  /** A paragraph above the list of columns. */
  columnsText?: string;
  run: ImportRun<Result>;
  successCode: string;
  template: { csv: () => string; fileName: string };
  fieldLabel: (field: string) => string;
  preview: PreviewColumn<Result['preview'][number]>[];
  /** The check's refusal (400 `import_has_errors`) read as a result with its row errors. */
  resultOfRefusal?: (details: Partial<Result> | undefined) => Result;
  cancelLabel: string;
  /** The inventory lists' look: the columns in columns, the tables styled as its lists. */
  listLook?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation([namespace, 'common']);
  const id = useId();
  const [content, setContent] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const check = async (text: string) => {
    setResult(null);
    setFailure(null);
    try {
      setResult((await run.mutateAsync({ content: text, dryRun: true })).data);
    } catch (error) {
      if (resultOfRefusal && isApiError(error) && error.code === 'import_has_errors') {
        setResult(resultOfRefusal(error.details as Partial<Result> | undefined));
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
      toastSuccess(answer.code ?? successCode);
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
  const wrapperClass = listLook ? 'table-responsive import-table' : 'table-responsive';
  const tableClass = listLook ? 'table table-sm mb-0 data-table' : 'table table-sm mb-0';

  return (
    <Modal show onHide={onClose} centered size="lg" aria-labelledby={`${id}-title`} scrollable>
      <Modal.Header closeButton closeLabel={t('common:close')}>
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body data-testid="import-modal">
        <p>{t('import.text', { max: maxRows })}</p>
        <details className="mb-3 small">
          <summary>{t('import.columnsTitle')}</summary>
          {columnsText ? <p className="mt-2 mb-1 text-body-secondary">{columnsText}</p> : null}
          <ul className={listLook ? 'import-columns' : 'mt-2 mb-1'}>
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
            onClick={() => saveFile(new Blob([template.csv()], { type: 'text/csv;charset=utf-8' }), template.fileName)}
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
                <div className={wrapperClass}>
                  <table className={tableClass}>
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
                          <td>{fieldLabel(error.field)}</td>
                          <td className="text-danger">{fieldCodeText(error.code)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </>
            ) : result.preview.length ? (
              <div className={wrapperClass}>
                <table className={tableClass}>
                  <caption className="small">{t('import.previewCaption')}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t('import.line')}</th>
                      {preview.map((column) => (
                        <th key={column.header} scope="col" className={column.className}>
                          {column.header}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {result.preview.map((row) => (
                      <tr key={row.line} data-testid="import-preview-row">
                        <td>{row.line}</td>
                        {preview.map((column) => (
                          <td key={column.header} className={column.className}>
                            {column.cell(row)}
                          </td>
                        ))}
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
          {cancelLabel}
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
