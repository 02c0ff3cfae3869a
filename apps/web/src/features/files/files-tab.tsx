import type { PatientFile, PatientFileType } from '@odontia/shared/schemas/files';
import { patientFileTypes } from '@odontia/shared/schemas/files';
import type { Patient } from '@odontia/shared/schemas/patients';
import { Download, Eye, FileText, ImageOff, Pencil, Trash2, Upload } from 'lucide-react';
import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDelete } from '../../components/confirm-delete';
import { DateInput } from '../../components/date-input';
import { DialogFrame } from '../../components/dialog-frame';
import { optionsWithAny } from '../../components/filter-select';
import { FormAlert } from '../../components/form-feedback';
import { FormField } from '../../components/form-field';
import { IconButton, IconTextButton } from '../../components/icon-button';
import { PaginationFooter } from '../../components/pagination-footer';
import { Spinner } from '../../components/spinner';
import { toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { i18n } from '../../lib/i18n';
import { openPdfInNewTab, saveFile } from '../../lib/save-file';
import { useListState } from '../../lib/use-list-state';
import { useInstantFormat } from '../../session/clinic-time';
import { recordPaths } from '../medical-history/api';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import { useCalendarDate } from '../medical-history/form-bits';
import {
  fileRecordFilters,
  filesApi,
  formatSize,
  useDeleteFile,
  useFileObjectUrl,
  usePatientFiles,
  useUpdateFile,
  useUploadLimits,
} from './api';
import { FileTypeSelect } from './file-type-select';
import { fileErrorMessage } from './messages';
import { UploadDialog } from './upload-dialog';

const pageSize = 24;

async function toastDownloadError(): Promise<void> {
  const { toast } = await import('react-toastify/unstyled');
  toast.error(i18n.t('messages:error_download_file'), { toastId: 'error_download_file' });
}

/** Saves the original with its name (Content-Disposition: attachment). */
async function downloadFile(patientId: string, file: PatientFile): Promise<void> {
  try {
    const { blob } = await filesApi.content(patientId, file.id, true);
    saveFile(blob, file.originalName);
  } catch {
    await toastDownloadError();
  }
}

/** A PDF opens in a new tab (fetched with the session); where the tab is blocked, it is saved. */
export async function openPdf(patientId: string, file: PatientFile): Promise<void> {
  try {
    await openPdfInNewTab(() => filesApi.content(patientId, file.id), file.originalName);
  } catch {
    await toastDownloadError();
  }
}

function Thumbnail({ patientId, file }: { patientId: string; file: PatientFile }) {
  const { t } = useTranslation('files');
  const { url, isError } = useFileObjectUrl(patientId, file.id, 'thumbnail', file.hasThumbnail);
  if (!file.hasThumbnail) {
    return (
      <span className="file-icon" data-testid="file-pdf-icon">
        <FileText size={44} aria-hidden="true" />
        <span className="small fw-semibold">{t('card.pdf')}</span>
      </span>
    );
  }
  if (isError) return <ImageOff size={32} aria-hidden="true" className="text-body-secondary" />;
  if (!url) return <span className="spinner-border spinner-border-sm text-body-secondary" aria-hidden="true" />;
  return <img src={url} alt={t('card.thumbnailOf', { name: file.originalName })} data-testid="file-thumbnail" />;
}

function FileCard({
  patientId,
  file,
  canWrite,
  onView,
  onEdit,
  onDelete,
}: {
  patientId: string;
  file: PatientFile;
  canWrite: boolean;
  onView: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t, i18n: instance } = useTranslation('files');
  const day = useInstantFormat('date');
  const date = useCalendarDate();
  const who = file.createdByName ?? t('card.system');
  return (
    <li className="card file-card" data-testid="file-card">
      <button
        type="button"
        className="file-preview"
        onClick={onView}
        // A PDF's tile shows "Documento PDF": its name says it too (axe: label-content-name-mismatch).
        aria-label={`${t('actions.view')}: ${file.originalName}${file.hasThumbnail ? '' : `, ${t('card.pdf')}`}`}
      >
        <Thumbnail patientId={patientId} file={file} />
      </button>
      <div className="card-body file-card-body">
        <span className="d-flex flex-wrap gap-1 align-items-center">
          <span className="badge text-bg-secondary" data-testid="file-type">
            {t(`types.${file.fileType}`)}
          </span>
          <FileRecordLink patientId={patientId} file={file} />
        </span>
        <div className="fw-semibold file-name" title={file.originalName} data-testid="file-name">
          {file.originalName}
        </div>
        {file.note ? (
          <div className="small file-note" data-testid="file-note">
            {file.note}
          </div>
        ) : null}
        <div className="small text-body-secondary">
          {file.takenOn ? <div>{t('card.takenOn', { date: date(file.takenOn) })}</div> : null}
          <div data-testid="file-uploaded">{t('card.uploaded', { date: day(file.createdAt), who })}</div>
          <div>{formatSize(file.sizeBytes, instance.resolvedLanguage ?? instance.language)}</div>
        </div>
      </div>
      <div className="file-actions">
        <IconButton icon={Eye} label={t('actions.view')} onClick={onView} testId="file-view" />
        <IconButton
          icon={Download}
          label={t('actions.download')}
          onClick={() => void downloadFile(patientId, file)}
          testId="file-download"
        />
        {canWrite ? (
          <>
            <IconButton icon={Pencil} label={t('actions.edit')} onClick={onEdit} testId="file-edit" />
            <IconButton
              icon={Trash2}
              label={t('actions.delete')}
              onClick={onDelete}
              className="btn btn-sm btn-outline-danger"
              testId="file-delete"
            />
          </>
        ) : null}
      </div>
    </li>
  );
}

/** An image in a large modal (the original, fetched with the session), with its download. */
export function ImageViewer({ patientId, file, onHide }: { patientId: string; file: PatientFile; onHide: () => void }) {
  const { t } = useTranslation('files');
  const { url, isError } = useFileObjectUrl(patientId, file.id, 'content');
  return (
    <Modal show onHide={onHide} centered size="xl" aria-labelledby="file-viewer-title" contentClassName="file-viewer">
      <div data-testid="file-viewer">
        <Modal.Header closeButton closeLabel={t('viewer.close')}>
          <Modal.Title id="file-viewer-title" as="h2" className="h6 text-truncate">
            {file.originalName}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body className="text-center">
          {isError ? (
            <FormAlert testId="viewer-error">{i18n.t('messages:error_download_file')}</FormAlert>
          ) : url ? (
            <img
              src={url}
              alt={file.note ?? file.originalName}
              className="file-viewer-image"
              data-testid="file-viewer-image"
            />
          ) : (
            <Spinner size={6} />
          )}
        </Modal.Body>
        <Modal.Footer>
          {file.note ? <span className="me-auto small text-body-secondary text-prewrap">{file.note}</span> : null}
          <IconTextButton
            icon={Download}
            className="btn btn-outline-secondary"
            onClick={() => void downloadFile(patientId, file)}
            testId="viewer-download"
          >
            {t('actions.download')}
          </IconTextButton>
        </Modal.Footer>
      </div>
    </Modal>
  );
}

/** Type, note and date of a file, saved with its version (409: the current values are shown). */
function EditDialog({ patientId, file, onHide }: { patientId: string; file: PatientFile; onHide: () => void }) {
  const { t } = useTranslation(['files', 'validation']);
  const update = useUpdateFile(patientId, file.id);
  const [base, setBase] = useState(file);
  const [fileType, setFileType] = useState<PatientFileType>(file.fileType);
  const [note, setNote] = useState(file.note ?? '');
  const [takenOn, setTakenOn] = useState(file.takenOn ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const save = async () => {
    setProblem(null);
    try {
      const answer = await update.mutateAsync({ fileType, note, takenOn: takenOn || null, version: base.version });
      if (answer.code) toastSuccess(answer.code);
      onHide();
    } catch (error) {
      const current = isApiError(error) && error.code === 'version_conflict' ? error.details?.current : undefined;
      if (current && typeof current === 'object') {
        const fresh = current as PatientFile;
        setBase(fresh);
        setFileType(fresh.fileType);
        setNote(fresh.note ?? '');
        setTakenOn(fresh.takenOn ?? '');
        setProblem(t('edit.conflict'));
      } else {
        setProblem(fileErrorMessage(error));
      }
    }
  };
  return (
    <DialogFrame
      onHide={onHide}
      testId="file-edit-dialog"
      titleId="file-edit-title"
      title={t('edit.title')}
      closeLabel={t('viewer.close')}
      cancelLabel={t('edit.cancel')}
      bodyClassName="d-flex flex-column gap-3"
      confirm={{
        label: t('edit.save'),
        onClick: () => void save(),
        disabled: update.isPending,
        busy: update.isPending,
        testId: 'edit-save',
      }}
    >
      <div className="fw-semibold text-truncate" title={file.originalName}>
        {file.originalName}
      </div>
      {problem ? (
        <FormAlert variant={problem === t('edit.conflict') ? 'warning' : 'danger'}>{problem}</FormAlert>
      ) : null}
      <FormField id="file-edit-type" label={t('upload.type')} className="">
        <FileTypeSelect
          id="file-edit-type"
          className="form-select"
          value={fileType}
          onChange={setFileType}
          data-testid="edit-type"
        />
      </FormField>
      <FormField id="file-edit-date" label={t('upload.takenOn')} className="">
        <DateInput
          id="file-edit-date"
          name="takenOn"
          className="form-control"
          value={takenOn}
          onChange={(event) => setTakenOn(event.target.value)}
        />
      </FormField>
      <FormField id="file-edit-note" label={t('upload.note')} className="">
        <textarea
          id="file-edit-note"
          className="form-control"
          rows={3}
          maxLength={2000}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          data-testid="edit-note"
        />
      </FormField>
    </DialogFrame>
  );
}

function DeleteDialog({ patientId, file, onHide }: { patientId: string; file: PatientFile; onHide: () => void }) {
  const { t } = useTranslation('files');
  const remove = useDeleteFile(patientId, file.id);
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = async () => {
    setProblem(null);
    try {
      const answer = await remove.mutateAsync();
      toastSuccess(answer.code);
      onHide();
    } catch (error) {
      setProblem(fileErrorMessage(error));
    }
  };
  return (
    <ConfirmDelete
      show
      title={t('delete.title')}
      onCancel={onHide}
      onConfirm={() => void confirm()}
      pending={remove.isPending}
      problem={problem}
      testId="delete-file"
    >
      <p className="text-break">{t('delete.text', { name: file.originalName })}</p>
      <p className="mb-0 fw-semibold text-danger-emphasis">{t('delete.permanent')}</p>
    </ConfirmDelete>
  );
}

/** The record a file belongs to (issue 24), as a link to it; nothing for a loose file. */
function FileRecordLink({ patientId, file }: { patientId: string; file: PatientFile }) {
  const { t } = useTranslation('files');
  const [kind, id] = file.diagnosisId
    ? (['diagnosis', file.diagnosisId] as const)
    : file.laboratoryId
      ? (['laboratory', file.laboratoryId] as const)
      : file.attendanceId
        ? (['attendance', file.attendanceId] as const)
        : [];
  if (!kind || !id) return null;
  return (
    <Link className="small" to={recordPaths.show(kind, patientId, id)} data-testid="file-record">
      {t(`record.of.${kind}`)}
    </Link>
  );
}

/** A small select of the tab's toolbar; its label is for screen readers, `id` is also its data-testid. */
function ToolbarSelect({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="form-select form-select-sm files-filter"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={id}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}

/** Tab "Archivos y estudios" of the medical history: the patient's files, newest first. */
export function FilesTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('files');
  const canWrite = useCanWriteClinical();
  const limits = useUploadLimits();
  const { page, setPage, filters, setFilter } = useListState({ filters: ['type', 'record'] });
  const fileType = patientFileTypes.find((type) => type === filters.type) ?? '';
  const record = fileRecordFilters.find((kind) => kind === filters.record) ?? '';
  const query = usePatientFiles(patient.id, page, pageSize, fileType, record);
  const [uploading, setUploading] = useState(false);
  const [viewing, setViewing] = useState<PatientFile | null>(null);
  const [editing, setEditing] = useState<PatientFile | null>(null);
  const [deleting, setDeleting] = useState<PatientFile | null>(null);
  const files = query.data?.data ?? [];
  const view = (file: PatientFile) => {
    if (file.mimeType === 'application/pdf') void openPdf(patient.id, file);
    else setViewing(file);
  };
  return (
    <div data-testid="tab-files">
      <div className="mh-toolbar">
        <span className="text-body-secondary small me-auto" data-testid="files-count">
          {query.data ? t('count', { count: query.data.total }) : null}
        </span>
        <ToolbarSelect
          id="files-filter"
          label={t('filter.label')}
          value={fileType}
          onChange={(value) => setFilter('type', value)}
          options={optionsWithAny(t('filter.all'), patientFileTypes, (type) => t(`types.${type}`))}
        />
        <ToolbarSelect
          id="files-record-filter"
          label={t('record.filter')}
          value={record}
          onChange={(value) => setFilter('record', value)}
          options={optionsWithAny(t('record.all'), fileRecordFilters, (kind) => t(`record.filters.${kind}`))}
        />
        {canWrite ? (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => setUploading(true)}
            disabled={!limits.data}
            data-testid="upload-files"
          >
            <Upload size={16} aria-hidden="true" className="me-1" />
            {t('actions.upload')}
          </button>
        ) : null}
      </div>
      {query.isPending ? (
        <div className="text-center py-5">
          <Spinner size={6} />
        </div>
      ) : query.isError ? (
        <div className="p-3">
          <FormAlert testId="files-error">
            {t('loadError')}{' '}
            <button type="button" className="btn btn-link p-0 align-baseline" onClick={() => void query.refetch()}>
              {t('retry')}
            </button>
          </FormAlert>
        </div>
      ) : files.length === 0 ? (
        <p className="text-body-secondary text-center py-5 mb-0" data-testid="empty-files">
          {fileType || record ? t('emptyFiltered') : t('empty')}
        </p>
      ) : (
        <ul className="files-grid" aria-busy={query.isFetching}>
          {files.map((file) => (
            <FileCard
              key={file.id}
              patientId={patient.id}
              file={file}
              canWrite={canWrite}
              onView={() => view(file)}
              onEdit={() => setEditing(file)}
              onDelete={() => setDeleting(file)}
            />
          ))}
        </ul>
      )}
      {(query.data?.total ?? 0) > pageSize ? (
        <PaginationFooter
          page={page}
          pageSize={pageSize}
          total={query.data?.total ?? 0}
          onPage={setPage}
          label={t('pages')}
        />
      ) : null}
      {limits.data && canWrite ? (
        <UploadDialog patientId={patient.id} limits={limits.data} show={uploading} onHide={() => setUploading(false)} />
      ) : null}
      {viewing ? <ImageViewer patientId={patient.id} file={viewing} onHide={() => setViewing(null)} /> : null}
      {editing ? <EditDialog patientId={patient.id} file={editing} onHide={() => setEditing(null)} /> : null}
      {deleting ? <DeleteDialog patientId={patient.id} file={deleting} onHide={() => setDeleting(null)} /> : null}
    </div>
  );
}
