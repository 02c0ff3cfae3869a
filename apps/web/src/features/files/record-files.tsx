import type { PatientFile } from '@odontia/shared/schemas/files';
import { Eye, FileText, Image as ImageIcon, type LucideIcon, Paperclip, Trash2, Unlink } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete } from '../../components/confirm-delete';
import { Spinner } from '../../components/spinner';
import { toastSuccess } from '../../lib/api-toast';
import { type FileRecord, formatSize, useRecordFileAction, useRecordFiles, useUploadLimits } from './api';
import { ImageViewer, openPdf } from './files-tab';
import { fileErrorMessage } from './messages';
import { UploadDialog } from './upload-dialog';

/** Opens a file: a PDF in a new tab, an image in the viewer. */
export function useOpenFile(patientId: string) {
  const [viewing, setViewing] = useState<PatientFile | null>(null);
  const open = (file: PatientFile) => {
    if (file.mimeType === 'application/pdf') void openPdf(patientId, file);
    else setViewing(file);
  };
  const viewer = viewing ? <ImageViewer patientId={patientId} file={viewing} onHide={() => setViewing(null)} /> : null;
  return { open, viewer };
}

/** A file's name as a button that opens it. */
export function FileLink({ file, onOpen }: { file: PatientFile; onOpen: (file: PatientFile) => void }) {
  const Icon = file.mimeType === 'application/pdf' ? FileText : ImageIcon;
  return (
    <button
      type="button"
      className="btn btn-link p-0 text-start text-break d-inline-flex gap-1 align-items-center"
      onClick={() => onOpen(file)}
      data-testid="record-file-open"
    >
      <Icon size={16} aria-hidden="true" className="flex-shrink-0" />
      {file.originalName}
    </button>
  );
}

/** Remove from the record (the file stays in the patient's files) or delete, after a confirmation. */
/** A small icon button on a file's row, named with the file ("Ver: radiografía.png"). */
function FileButton({
  icon: Icon,
  label,
  file,
  onClick,
  danger = false,
  testId,
}: {
  icon: LucideIcon;
  label: string;
  file: { originalName: string };
  onClick: () => void;
  danger?: boolean;
  testId?: string;
}) {
  return (
    <button
      type="button"
      className={`btn btn-sm ${danger ? 'btn-outline-danger' : 'btn-outline-secondary'}`}
      onClick={onClick}
      title={label}
      aria-label={`${label}: ${file.originalName}`}
      data-testid={testId}
    >
      <Icon size={16} aria-hidden="true" />
    </button>
  );
}

function FileActionDialog({
  patientId,
  record,
  file,
  action,
  onHide,
}: {
  patientId: string;
  record: FileRecord;
  file: PatientFile;
  action: 'unlink' | 'delete';
  onHide: () => void;
}) {
  const { t } = useTranslation('files');
  const mutation = useRecordFileAction(patientId, record, action);
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = async () => {
    setProblem(null);
    try {
      const answer = await mutation.mutateAsync(file.id);
      toastSuccess(answer.code);
      onHide();
    } catch (error) {
      setProblem(fileErrorMessage(error, action === 'unlink' ? `error_remove_${record.kind}_file` : 'systemError'));
    }
  };
  return (
    <ConfirmDelete
      show
      title={t(action === 'unlink' ? 'record.unlinkTitle' : 'delete.title')}
      onCancel={onHide}
      onConfirm={() => void confirm()}
      pending={mutation.isPending}
      problem={problem}
      confirmLabel={action === 'unlink' ? t('record.unlink') : undefined}
    >
      <p>{t('delete.text', { name: file.originalName })}</p>
      <p className="mb-0">{t(action === 'unlink' ? 'record.unlinkText' : 'delete.permanent')}</p>
    </ConfirmDelete>
  );
}

/**
 * "Archivos" of a diagnosis or a laboratory order (issue 24), on its show and edit pages: the
 * record's files, open, attach (the patient's upload, attached), remove from the record or delete.
 */
export function RecordFiles({
  patientId,
  record,
  canWrite,
}: {
  patientId: string;
  record: FileRecord;
  canWrite: boolean;
}) {
  const { t, i18n } = useTranslation('files');
  const query = useRecordFiles(patientId, record);
  const limits = useUploadLimits();
  const { open, viewer } = useOpenFile(patientId);
  const [uploading, setUploading] = useState(false);
  const [acting, setActing] = useState<{ file: PatientFile; action: 'unlink' | 'delete' } | null>(null);
  const files = query.data?.data ?? [];
  const language = i18n.resolvedLanguage ?? i18n.language;
  return (
    <section className="card" data-testid="record-files" aria-labelledby="record-files-title">
      <div className="card-body d-flex flex-column gap-2">
        <div className="d-flex align-items-center gap-2 flex-wrap">
          <h2 id="record-files-title" className="h6 mb-0 me-auto">
            <Paperclip size={16} aria-hidden="true" className="me-1" />
            {t('record.title')}
          </h2>
          {canWrite ? (
            <button
              type="button"
              className="btn btn-outline-primary btn-sm"
              onClick={() => setUploading(true)}
              disabled={!limits.data}
              data-testid="record-files-attach"
            >
              {t('record.attach')}
            </button>
          ) : null}
        </div>
        {query.isPending ? (
          <Spinner size={4} />
        ) : files.length === 0 ? (
          <p className="text-body-secondary small mb-0" data-testid="record-files-empty">
            {query.isError ? t('loadError') : t('record.empty')}
          </p>
        ) : (
          <ul className="list-unstyled mb-0 d-flex flex-column gap-2">
            {files.map((file) => (
              <li key={file.id} className="record-file" data-testid="record-file">
                <FileLink file={file} onOpen={open} />
                <span className="small text-body-secondary text-nowrap">
                  {t(`types.${file.fileType}`)} · {formatSize(file.sizeBytes, language)}
                </span>
                <span className="ms-auto d-flex gap-1">
                  <FileButton icon={Eye} label={t('actions.view')} file={file} onClick={() => open(file)} />
                  {canWrite ? (
                    <>
                      <FileButton
                        icon={Unlink}
                        label={t('record.unlink')}
                        file={file}
                        onClick={() => setActing({ file, action: 'unlink' })}
                        testId="record-file-unlink"
                      />
                      <FileButton
                        icon={Trash2}
                        label={t('actions.delete')}
                        file={file}
                        onClick={() => setActing({ file, action: 'delete' })}
                        danger
                        testId="record-file-delete"
                      />
                    </>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {limits.data && canWrite ? (
        <UploadDialog
          patientId={patientId}
          limits={limits.data}
          show={uploading}
          onHide={() => setUploading(false)}
          record={record}
        />
      ) : null}
      {acting ? (
        <FileActionDialog patientId={patientId} record={record} {...acting} onHide={() => setActing(null)} />
      ) : null}
      {viewer}
    </section>
  );
}
