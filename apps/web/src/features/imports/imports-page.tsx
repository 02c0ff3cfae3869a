import {
  type ImportKind,
  type ImportRunListItem,
  importKinds,
  importMaxBytes,
  importMaxRows,
} from '@odontia/shared/schemas/imports';
import { FileDown, History, Upload } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { CaptionedTable } from '../../components/captioned-table';
import { DownloadButton } from '../../components/download-button';
import { FormAlert } from '../../components/form-feedback';
import { FieldLabel } from '../../components/form-field';
import { IconCard } from '../../components/icon-card';
import { PageTitle } from '../../components/page-title';
import { PaginationFooter } from '../../components/pagination-footer';
import { apiErrorText } from '../../lib/api-toast';
import { useInstantFormat } from '../../session/clinic-time';
import { downloadTemplate, useImports, useUploadImport } from './api';
import { ImportCounts, ImportStateBadge } from './import-parts';

const pageSize = 10;

/** What the upload form refuses before sending: the field and its message key. */
type Problem = { field: 'file' | 'source'; key: string } | null;

function UploadCard() {
  const { t, i18n } = useTranslation('imports');
  const navigate = useNavigate();
  const ids = { kind: useId(), source: useId(), file: useId() };
  const [kind, setKind] = useState<ImportKind>('patients');
  const [source, setSource] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState(0);
  const [problem, setProblem] = useState<Problem>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useUploadImport(setSent);
  const number = new Intl.NumberFormat(i18n.language);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (source.trim() === '') {
      setProblem({ field: 'source', key: 'upload.sourceRequired' });
      return;
    }
    if (!file) {
      setProblem({ field: 'file', key: 'upload.fileRequired' });
      fileInput.current?.focus();
      return;
    }
    if (file.size > importMaxBytes) {
      setProblem({ field: 'file', key: 'upload.fileTooLarge' });
      fileInput.current?.focus();
      return;
    }
    setProblem(null);
    setSent(0);
    upload.mutate(
      { kind, source: source.trim(), file },
      { onSuccess: (answer) => navigate(`/account/import/${answer.data.run.id}`) },
    );
  };

  const error = upload.error ? apiErrorText(upload.error) : null;
  return (
    <IconCard title={t('upload.title')} icon={<Upload size={18} aria-hidden="true" />} className="profile-card">
      <p>{t('intro')}</p>
      <form onSubmit={submit} noValidate data-testid="import-upload-form">
        <div className="row g-3">
          <div className="col-12 col-md-4">
            <label htmlFor={ids.kind} className="form-label">
              {t('upload.kind')}
            </label>
            <select
              id={ids.kind}
              className="form-select"
              value={kind}
              onChange={(event) => setKind(event.target.value as ImportKind)}
              data-testid="import-kind"
            >
              {importKinds.map((one) => (
                <option key={one} value={one}>
                  {t(`kinds.${one}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-12 col-md-8">
            <label htmlFor={ids.source} className="form-label">
              <FieldLabel text={t('upload.source')} required />
            </label>
            <input
              id={ids.source}
              className={`form-control${problem?.field === 'source' ? ' is-invalid' : ''}`}
              value={source}
              maxLength={60}
              aria-required="true"
              aria-invalid={problem?.field === 'source' ? true : undefined}
              aria-describedby={`${ids.source}-hint${problem?.field === 'source' ? ` ${ids.source}-error` : ''}`}
              onChange={(event) => setSource(event.target.value)}
              data-testid="import-source"
            />
            <div id={`${ids.source}-hint`} className="form-text">
              {t('upload.sourceHint')}
            </div>
            {problem?.field === 'source' ? (
              <div id={`${ids.source}-error`} className="invalid-feedback d-block">
                {t(problem.key)}
              </div>
            ) : null}
          </div>
          <div className="col-12">
            <label htmlFor={ids.file} className="form-label">
              <FieldLabel text={t('upload.file')} required />
            </label>
            <input
              id={ids.file}
              ref={fileInput}
              type="file"
              accept=".csv,.txt,.tsv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              className={`form-control${problem?.field === 'file' ? ' is-invalid' : ''}`}
              required
              aria-invalid={problem?.field === 'file' ? true : undefined}
              aria-describedby={`${ids.file}-hint${problem?.field === 'file' ? ` ${ids.file}-error` : ''}`}
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              data-testid="import-file"
            />
            <div id={`${ids.file}-hint`} className="form-text">
              {t('upload.fileHint', {
                maxMb: number.format(importMaxBytes / 1_048_576),
                maxRows: number.format(importMaxRows),
              })}
            </div>
            {problem?.field === 'file' ? (
              <div id={`${ids.file}-error`} className="invalid-feedback d-block">
                {t(problem.key, { maxMb: number.format(importMaxBytes / 1_048_576) })}
              </div>
            ) : null}
          </div>
        </div>
        {error ? (
          <div className="mt-3">
            <FormAlert testId="import-upload-error">{error}</FormAlert>
          </div>
        ) : null}
        <div className="d-flex flex-wrap align-items-center gap-3 mt-3">
          <button type="submit" className="btn btn-primary" disabled={upload.isPending} data-testid="import-upload">
            <BusyIcon busy={upload.isPending} icon={Upload} />
            {t('upload.submit')}
          </button>
          {upload.isPending ? (
            <span className="small text-body-secondary" role="status" data-testid="import-upload-progress">
              {t('upload.sending', { percent: number.format(Math.round(sent * 100)) })}
            </span>
          ) : null}
        </div>
      </form>
    </IconCard>
  );
}

function TemplatesCard() {
  const { t } = useTranslation('imports');
  return (
    <IconCard title={t('templates.title')} icon={<FileDown size={18} aria-hidden="true" />} className="profile-card">
      <p>{t('templates.text')}</p>
      <div className="d-flex flex-wrap gap-2">
        {importKinds.map((kind) => (
          <DownloadButton
            key={kind}
            className="btn btn-outline-secondary btn-sm"
            icon={FileDown}
            download={() => downloadTemplate(kind)}
            testId={`import-template-${kind}`}
          >
            {t('templates.download', { kind: t(`kinds.${kind}`) })}
          </DownloadButton>
        ))}
      </div>
    </IconCard>
  );
}

function HistoryCard() {
  const { t, i18n } = useTranslation('imports');
  const [page, setPage] = useState(1);
  const imports = useImports(page, pageSize);
  const format = useInstantFormat('dateTime');
  const number = new Intl.NumberFormat(i18n.language);
  const rows: ImportRunListItem[] = imports.data?.data ?? [];
  return (
    <IconCard title={t('list.title')} icon={<History size={18} aria-hidden="true" />} className="profile-card">
      <CaptionedTable
        wrapperClassName="table-responsive"
        scrollLabel={t('list.title')}
        className="table table-sm align-middle mb-0"
        testId="import-list"
        caption={t('list.title')}
        head={[
          { label: t('list.date') },
          { label: t('list.kind') },
          { label: t('list.file'), className: 'd-none d-md-table-cell' },
          { label: t('list.state') },
          { label: t('list.results'), className: 'd-none d-lg-table-cell' },
          { label: t('list.by'), className: 'd-none d-xl-table-cell' },
          { label: <span className="visually-hidden">{t('list.actions')}</span> },
        ]}
      >
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={7} className="text-body-secondary">
                {imports.isLoading ? t('list.loading') : t('list.empty')}
              </td>
            </tr>
          ) : null}
          {rows.map((row) => (
            <tr key={row.id} data-testid="import-list-row">
              <td className="small text-nowrap">{format(row.createdAt)}</td>
              <td className="small">
                {t(`kinds.${row.kind}`)}
                <div className="text-body-secondary">{row.source}</div>
              </td>
              <td className="d-none d-md-table-cell small text-break">
                {row.fileName}
                <div className="text-body-secondary">
                  {t('list.rows', { count: row.totalRows ?? 0, formatted: number.format(row.totalRows ?? 0) })}
                </div>
              </td>
              <td>
                <ImportStateBadge run={row} />
              </td>
              <td className="d-none d-lg-table-cell small">{row.phase ? <ImportCounts run={row} compact /> : null}</td>
              <td className="d-none d-xl-table-cell small">{row.createdByName ?? ''}</td>
              <td className="text-end">
                <Link
                  className="btn btn-sm btn-outline-primary"
                  to={`/account/import/${row.id}`}
                  data-testid="import-open"
                  aria-label={t('list.openNamed', { file: row.fileName })}
                >
                  {t('list.open')}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </CaptionedTable>
      {imports.data ? (
        <PaginationFooter
          page={page}
          pageSize={pageSize}
          total={imports.data.total}
          onPage={setPage}
          label={t('list.title')}
        />
      ) : null}
    </IconCard>
  );
}

/** `/account/import` (issue 42; data.import): upload a file, the templates, earlier imports. */
export function ImportsPage() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle title={t('pages.dataImport')} />
      <div className="d-flex flex-column gap-4" data-testid="imports-page">
        <UploadCard />
        <TemplatesCard />
        <HistoryCard />
      </div>
    </>
  );
}
