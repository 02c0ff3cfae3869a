import type { ReportExport, ReportFormat, ReportId } from '@odontia/shared/schemas/reports';
import { Download, FileDown } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JobProgress } from '../../components/job-progress';
import { isApiError } from '../../lib/http';
import { downloadExport, exportReport, type ReportParams, useReportExport } from './api';

/** The server's message for a failed call, translated by its code (with its details), else the generic one. */
function useErrorText() {
  const { t, i18n } = useTranslation(['messages', 'reports']);
  return (error: unknown) => {
    const code = isApiError(error) ? error.code : 'systemError';
    const key = `messages:${code}`;
    return i18n.exists(key) ? t(key, { ...(isApiError(error) ? error.details : {}) }) : t('messages:systemError');
  };
}

/** A background export: its progress bar while the job writes it, then its download. */
function ExportProgress({ started, onError }: { started: ReportExport; onError: (error: unknown) => void }) {
  const { t } = useTranslation('reports');
  const query = useReportExport(started.id);
  const current = query.data ?? started;
  const [busy, setBusy] = useState(false);
  const format = current.format.toUpperCase();
  const done = current.state === 'done';
  const failed = current.state === 'failed' || query.isError;
  const readyButton = useRef<HTMLButtonElement>(null);
  // The download appears where the progress was: the keyboard's focus goes with it.
  useEffect(() => {
    if (done) readyButton.current?.focus();
  }, [done]);
  const download = async () => {
    setBusy(true);
    try {
      await downloadExport(current);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  };
  if (failed) {
    return (
      <div className="alert alert-danger mb-0 py-2" role="alert" data-testid="export-failed">
        {t('export.failed', { format })}
      </div>
    );
  }
  if (done) {
    return (
      <div className="reports-export-ready" role="status" data-testid="export-ready">
        <span className="small">{t('export.ready', { format })}</span>
        <button
          ref={readyButton}
          type="button"
          className="btn btn-success btn-sm"
          onClick={() => void download()}
          disabled={busy}
          data-testid="export-download"
        >
          <Download size={16} aria-hidden="true" className="me-1" />
          {t('export.download', { file: current.fileName })}
        </button>
      </div>
    );
  }
  const label = t('export.progress', { format, rows: current.rowsWritten, total: current.totalRows ?? '…' });
  return (
    <div className="reports-export-progress" data-testid="export-progress">
      <span className="small" id={`export-${current.id}`}>
        {t('export.preparing', { format })}
      </span>
      <JobProgress labelledBy={`export-${current.id}`} valueText={label} progress={current.progress} showPercent />
    </div>
  );
}

/**
 * CSV, XLSX and PDF buttons. A report small enough comes back at once and the browser saves it; a
 * larger one (409 report_export_too_large) is exported by a job: a progress bar follows it and a
 * download button appears when it is ready. Errors show here, under the buttons, translated.
 */
export function ReportExports({
  reportId,
  params,
  formats,
  disabled = false,
}: {
  reportId: ReportId;
  params: ReportParams;
  formats: readonly ReportFormat[];
  disabled?: boolean;
}) {
  const { t } = useTranslation('reports');
  const errorText = useErrorText();
  const [busy, setBusy] = useState<ReportFormat | null>(null);
  const [started, setStarted] = useState<ReportExport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (format: ReportFormat) => {
    setBusy(format);
    setError(null);
    setStarted(null);
    try {
      const result = await exportReport(reportId, params, format);
      if ('started' in result) setStarted(result.started);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="reports-exports">
      <fieldset className="btn-group btn-group-sm" aria-label={t('export.label')}>
        {formats.map((format) => (
          <button
            key={format}
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => void run(format)}
            disabled={busy !== null || disabled}
            data-testid={`export-${format}`}
            aria-label={t('export.as', { format: format.toUpperCase() })}
          >
            {busy === format ? (
              <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            ) : (
              <FileDown size={16} aria-hidden="true" className="me-1" />
            )}
            {format.toUpperCase()}
          </button>
        ))}
      </fieldset>
      {started ? (
        <ExportProgress key={started.id} started={started} onError={(failure) => setError(errorText(failure))} />
      ) : null}
      {error ? (
        <div className="alert alert-danger mb-0 py-2 small" role="alert" data-testid="export-error">
          {error}
        </div>
      ) : null}
    </div>
  );
}
