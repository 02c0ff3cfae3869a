import { allowedFileMimeTypes, type PatientFileType, type UploadLimits } from '@odontia/shared/schemas/files';
import { FileText, Image as ImageIcon, Upload, X } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { DateInput } from '../../components/date-input';
import { FormAlert } from '../../components/form-feedback';
import { FieldLabel } from '../../components/form-field';
import { IconButton } from '../../components/icon-button';
import { JobProgress } from '../../components/job-progress';
import { toastSuccess } from '../../lib/api-toast';
import { formatSize, megabyte } from '../../lib/format-size';
import { useClinicToday } from '../../session/clinic-time';
import { type FileRecord, useUploadFiles } from './api';
import { FileTypeSelect } from './file-type-select';
import { fileErrorMessage, fileMessage, formatMegabytes } from './messages';

interface Item {
  key: string;
  file: File;
  fileType: PatientFileType;
  note: string;
  takenOn: string;
}

const accepted = new Set<string>(allowedFileMimeTypes);
let counter = 0;

/** A first guess the user can change: pictures are photos, PDFs lab results. */
function defaultType(file: File): PatientFileType {
  if (file.type.startsWith('image/')) return 'photo';
  if (file.type === 'application/pdf') return 'lab_result';
  return 'other';
}

/** What the browser can tell before sending (the server checks the content itself). */
function problemsOf(items: Item[], limits: UploadLimits): { byKey: Map<string, string>; batch: string[] } {
  const byKey = new Map<string, string>();
  for (const item of items) {
    if (item.file.size > limits.maxFileMb * megabyte) {
      byKey.set(item.key, fileMessage('file_too_large', { file: item.file.name, max: limits.maxFileMb }));
    } else if (item.file.type && !accepted.has(item.file.type)) {
      byKey.set(item.key, fileMessage('file_type_not_allowed', { file: item.file.name }));
    }
  }
  const batch: string[] = [];
  const total = items.reduce((sum, item) => sum + item.file.size, 0);
  if (byKey.size === 0 && total > limits.maxTotalMb * megabyte) {
    batch.push(fileMessage('files_too_large', { max: limits.maxTotalMb }));
  }
  return { byKey, batch };
}

/**
 * "Subir archivos": several files at once (dropped or picked), each with its type, note and
 * date; sizes checked here first, naming the file too large; a progress bar while sending.
 * With `record`, the files are attached to a diagnosis or a laboratory order; with `receive`,
 * the laboratory's result date and text go with them and the order is marked received (issue 24).
 */
export function UploadDialog({
  patientId,
  limits,
  show,
  onHide,
  record,
  receive,
}: {
  patientId: string;
  limits: UploadLimits;
  show: boolean;
  onHide: () => void;
  record?: FileRecord;
  receive?: { id: string; orderDate: string; version: number; result: string | null };
}) {
  const { t, i18n } = useTranslation('files');
  const language = i18n.resolvedLanguage ?? i18n.language;
  const inputRef = useRef<HTMLInputElement>(null);
  const ids = useId();
  const today = useClinicToday();
  // The result usually arrives the day it is recorded: today on the clinic's clock, changed if not.
  const [resultDate, setResultDate] = useState(today);
  const [resultText, setResultText] = useState(receive?.result ?? '');
  const upload = useUploadFiles(
    patientId,
    record,
    receive && { id: receive.id, result: { resultDate, result: resultText, version: receive.version } },
  );
  const [items, setItems] = useState<Item[]>([]);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const busy = progress !== null;

  const reset = () => {
    setItems([]);
    setProgress(null);
    setProblem(null);
    setDragging(false);
  };
  const close = () => {
    if (busy) return;
    reset();
    onHide();
  };
  const add = (files: FileList | File[] | null) => {
    if (!files) return;
    setProblem(null);
    const added = [...files].map((file) => {
      counter += 1;
      return { key: `f${counter}`, file, fileType: defaultType(file), note: '', takenOn: '' };
    });
    setItems((current) => [...current, ...added]);
  };
  const change = (key: string, patch: Partial<Item>) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  const remove = (key: string) => setItems((current) => current.filter((item) => item.key !== key));

  const { byKey, batch } = problemsOf(items, limits);
  const tooMany = items.length > limits.maxFiles ? t('upload.tooMany', { max: limits.maxFiles }) : null;
  const clientProblems = [...byKey.values(), ...batch, ...(tooMany ? [tooMany] : [])];
  const totalBytes = items.reduce((sum, item) => sum + item.file.size, 0);

  const submit = async () => {
    if (items.length === 0) {
      setProblem(t('upload.none'));
      return;
    }
    if (clientProblems.length > 0) return;
    if (receive && (!resultDate || resultDate < receive.orderDate)) {
      setProblem(t(resultDate ? 'receive.beforeOrder' : 'receive.dateRequired'));
      return;
    }
    setProblem(null);
    setProgress(0);
    try {
      await upload.mutateAsync({
        files: items.map((item) => item.file),
        metadata: items.map((item) => ({
          fileType: item.fileType,
          note: item.note,
          takenOn: item.takenOn || null,
        })),
        onProgress: setProgress,
      });
      toastSuccess(receive ? 'laboratory_updated' : 'files_uploaded');
      reset();
      onHide();
    } catch (error) {
      setProgress(null);
      setProblem(fileErrorMessage(error));
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!busy) add(event.dataTransfer.files);
  };

  const percent = Math.round((progress ?? 0) * 100);
  return (
    <Modal
      show={show}
      onHide={close}
      centered
      size="lg"
      backdrop={busy ? 'static' : true}
      keyboard={!busy}
      aria-labelledby={`${ids}-title`}
    >
      <div data-testid="upload-dialog">
        <Modal.Header closeButton={!busy} closeLabel={t('viewer.close')}>
          <Modal.Title id={`${ids}-title`} as="h2" className="h5">
            {t(receive ? 'receive.title' : 'upload.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body className="d-flex flex-column gap-3">
          {problem || clientProblems.length > 0 ? (
            <FormAlert testId="upload-error">
              {problem ? <div>{problem}</div> : null}
              {clientProblems.map((text) => (
                <div key={text}>{text}</div>
              ))}
            </FormAlert>
          ) : null}
          {receive ? (
            <div className="row g-2">
              <div className="col-sm-4">
                <label className="form-label small mb-1" htmlFor={`${ids}-result-date`}>
                  <FieldLabel text={t('receive.date')} required />
                </label>
                <DateInput
                  id={`${ids}-result-date`}
                  name="resultDate"
                  className="form-control form-control-sm"
                  value={resultDate}
                  min={receive.orderDate}
                  max={today}
                  required
                  onChange={(event) => setResultDate(event.target.value)}
                  disabled={busy}
                  data-testid="receive-date"
                />
              </div>
              <div className="col-sm-8">
                <label className="form-label small mb-1" htmlFor={`${ids}-result-text`}>
                  {t('receive.result')}
                </label>
                <textarea
                  id={`${ids}-result-text`}
                  className="form-control form-control-sm"
                  rows={2}
                  maxLength={20000}
                  value={resultText}
                  onChange={(event) => setResultText(event.target.value)}
                  disabled={busy}
                  data-testid="receive-text"
                />
              </div>
            </div>
          ) : null}
          <section
            className={`file-drop${dragging ? ' is-active' : ''}`}
            aria-label={t('upload.drop')}
            onDragEnter={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragOver={(event) => event.preventDefault()}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            data-testid="file-drop"
          >
            <Upload size={28} aria-hidden="true" className="text-body-secondary mb-2" />
            <div className="fw-semibold">{t('upload.drop')}</div>
            <div className="text-body-secondary small my-1">{t('upload.or')}</div>
            <button
              type="button"
              className="btn btn-outline-primary btn-sm"
              onClick={() => inputRef.current?.click()}
              disabled={busy}
            >
              {t('upload.pick')}
            </button>
            <input
              ref={inputRef}
              type="file"
              multiple
              accept={allowedFileMimeTypes.join(',')}
              className="visually-hidden"
              tabIndex={-1}
              onChange={(event) => {
                add(event.target.files);
                event.target.value = '';
              }}
              data-testid="file-input"
            />
            <div className="form-text mt-2">
              {t('upload.hint', {
                maxFile: formatMegabytes(limits.maxFileMb),
                maxTotal: formatMegabytes(limits.maxTotalMb),
              })}
            </div>
          </section>
          {items.length > 0 ? (
            <>
              <div className="small text-body-secondary" data-testid="upload-summary">
                {t('upload.selected', { count: items.length, size: formatSize(totalBytes, language) })}
              </div>
              <ul className="list-unstyled d-flex flex-column gap-2 mb-0">
                {items.map((item) => {
                  const error = byKey.get(item.key);
                  const Icon = item.file.type === 'application/pdf' ? FileText : ImageIcon;
                  return (
                    <li key={item.key} className={`upload-item${error ? ' is-invalid' : ''}`} data-testid="upload-item">
                      <div className="upload-item-name">
                        <Icon size={18} aria-hidden="true" className="flex-shrink-0 text-body-secondary" />
                        <span className="text-truncate fw-semibold" title={item.file.name}>
                          {item.file.name}
                        </span>
                        <span className="text-body-secondary small text-nowrap">
                          {formatSize(item.file.size, language)}
                        </span>
                        <IconButton
                          icon={X}
                          label={t('upload.remove', { name: item.file.name })}
                          onClick={() => remove(item.key)}
                          className="btn btn-sm btn-link text-body-secondary ms-auto p-0"
                          size={18}
                          disabled={busy}
                        />
                      </div>
                      {error ? (
                        <div className="text-danger small" data-testid="upload-item-error">
                          {error}
                        </div>
                      ) : null}
                      <div className="upload-item-fields">
                        <div>
                          <label className="form-label small mb-1" htmlFor={`${ids}-${item.key}-type`}>
                            {t('upload.type')}
                          </label>
                          <FileTypeSelect
                            id={`${ids}-${item.key}-type`}
                            className="form-select form-select-sm"
                            value={item.fileType}
                            onChange={(fileType) => change(item.key, { fileType })}
                            disabled={busy}
                            data-testid="upload-type"
                          />
                        </div>
                        <div>
                          <label className="form-label small mb-1" htmlFor={`${ids}-${item.key}-date`}>
                            {t('upload.takenOn')}
                          </label>
                          <DateInput
                            id={`${ids}-${item.key}-date`}
                            name={`takenOn-${item.key}`}
                            className="form-control form-control-sm"
                            value={item.takenOn}
                            max={today}
                            onChange={(event) => change(item.key, { takenOn: event.target.value })}
                            disabled={busy}
                          />
                        </div>
                        <div className="upload-item-note">
                          <label className="form-label small mb-1" htmlFor={`${ids}-${item.key}-note`}>
                            {t('upload.note')}
                          </label>
                          <input
                            id={`${ids}-${item.key}-note`}
                            className="form-control form-control-sm"
                            value={item.note}
                            maxLength={2000}
                            placeholder={t('upload.notePlaceholder')}
                            onChange={(event) => change(item.key, { note: event.target.value })}
                            disabled={busy}
                            data-testid="upload-note"
                          />
                        </div>
                      </div>
                    </li>
                  );
                })}
              </ul>
            </>
          ) : null}
          {busy ? (
            <div>
              <div className="small mb-1" aria-live="polite">
                {percent < 100 ? t('upload.uploading', { percent }) : t('upload.processing')}
              </div>
              <JobProgress label={t('upload.uploading', { percent })} progress={percent} testId="upload-progress" />
            </div>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={close} disabled={busy}>
            {t('upload.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => void submit()}
            disabled={busy || items.length === 0 || clientProblems.length > 0}
            data-testid="upload-submit"
          >
            <BusyIcon busy={busy} />
            {receive
              ? t('receive.submit')
              : items.length > 0
                ? t('upload.submit', { count: items.length })
                : t('actions.upload')}
          </button>
        </Modal.Footer>
      </div>
    </Modal>
  );
}
