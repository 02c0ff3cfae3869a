import { type AccessExport, isAccessExportFinished } from '@odontia/shared/schemas/fhir';
import { Download, FolderArchive } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JobProgress } from '../../components/job-progress';
import { saveFile } from '../../lib/save-file';
import { newIdempotencyKey } from '../../lib/use-action';
import { portalErrorText } from '../errors';
import { downloadAccessExport, portalAccessExportApi } from '../portal-session';
import { Busy, ErrorAlert, PortalSection } from '../ui';

/**
 * "Copia de sus datos" (issue 42, the right of access): the patient asks for a copy of their whole
 * record (`POST /portal/access-exports`), a job writes the ZIP while the section shows its
 * progress (asked every second), then the patient downloads it. One at a time: asking again while
 * one is being written answers that one (`access_export_in_progress`). The latest one is shown
 * again after a reload.
 */
export function RecordCopySection() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState<AccessExport | null>(null);
  const [busy, setBusy] = useState<'ask' | 'download' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const sending = useRef(false);
  const exportId = current?.id ?? null;
  const running = current !== null && !isAccessExportFinished(current.state);

  // The latest copy asked (by the patient or at the front desk): after a reload the section shows it.
  useEffect(() => {
    let alive = true;
    portalAccessExportApi.latest({ background: true }).then(
      ({ data }) => alive && data && setCurrent((shown) => shown ?? data),
      (failure: unknown) => alive && setError(failure),
    );
    return () => {
      alive = false;
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each answer (a new `current`) asks again a second later
  useEffect(() => {
    if (!exportId || !running) return;
    let alive = true;
    const timer = window.setTimeout(() => {
      portalAccessExportApi.get({ params: { exportId }, background: true }).then(
        ({ data }) => alive && setCurrent(data),
        (failure: unknown) => alive && setError(failure),
      );
    }, 1000);
    return () => {
      alive = false;
      window.clearTimeout(timer);
    };
  }, [exportId, running, current]);

  const ask = async () => {
    if (sending.current) return;
    sending.current = true;
    setBusy('ask');
    setError(null);
    try {
      const { data } = await portalAccessExportApi.queue({ idempotencyKey: newIdempotencyKey() });
      setCurrent(data);
    } catch (failure) {
      setError(failure);
    } finally {
      sending.current = false;
      setBusy(null);
    }
  };
  const download = async () => {
    if (!current || sending.current) return;
    sending.current = true;
    setBusy('download');
    setError(null);
    try {
      const { blob, fileName } = await downloadAccessExport({ params: { exportId: current.id } });
      saveFile(blob, fileName ?? current.fileName);
    } catch (failure) {
      setError(failure);
    } finally {
      sending.current = false;
      setBusy(null);
    }
  };

  return (
    <PortalSection id="portal-record-copy" title={t('home.recordCopy.title')}>
      <div data-testid="portal-record-copy">
        <p className="text-body-secondary">{t('home.recordCopy.intro')}</p>
        {current ? (
          <div className="mb-3" data-testid="portal-record-copy-progress">
            {isAccessExportFinished(current.state) ? null : (
              <JobProgress className="mb-2" label={t('home.recordCopy.progress')} progress={current.progress} />
            )}
            <p className="small mb-0" role="status" data-testid="portal-record-copy-state">
              {t(`home.recordCopy.states.${current.state}`, { progress: current.progress })}
            </p>
          </div>
        ) : null}
        {error ? <ErrorAlert>{portalErrorText(error)}</ErrorAlert> : null}
        <div className="d-flex flex-wrap gap-2">
          {current?.state === 'done' ? (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void download()}
              disabled={busy !== null}
              data-testid="portal-record-copy-download"
            >
              {busy === 'download' ? (
                <Busy className="me-2" />
              ) : (
                <Download size={18} aria-hidden="true" className="me-1" />
              )}
              {t('home.recordCopy.download')}
            </button>
          ) : null}
          {/* A copy already made can be asked for again, up to date. */}
          <button
            type="button"
            className="btn btn-outline-primary"
            onClick={() => void ask()}
            disabled={busy !== null || running}
            data-testid="portal-record-copy-ask"
          >
            {busy === 'ask' || running ? (
              <Busy className="me-2" />
            ) : (
              <FolderArchive size={18} aria-hidden="true" className="me-1" />
            )}
            {t('home.recordCopy.ask')}
          </button>
        </div>
      </div>
    </PortalSection>
  );
}
