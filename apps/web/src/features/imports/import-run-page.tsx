import {
  type ImportEncoding,
  type ImportKind,
  type ImportMapping,
  type ImportOutcome,
  type ImportPhase,
  type ImportPreview,
  type ImportReason,
  type ImportRun,
  importEncodings,
  importOutcomes,
} from '@odontia/shared/schemas/imports';
import { ArrowLeft, Columns3, FileDown, ListChecks, PackageCheck, SearchCheck } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { BusyButton } from '../../components/busy-button';
import { BusyIcon } from '../../components/busy-icon';
import { CaptionedTable } from '../../components/captioned-table';
import { DownloadButton } from '../../components/download-button';
import { FormAlert } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { IconCard } from '../../components/icon-card';
import { PageTitle } from '../../components/page-title';
import { PaginationFooter } from '../../components/pagination-footer';
import { apiErrorText } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useInstantFormat } from '../../session/clinic-time';
import {
  downloadRefused,
  isRunning,
  useCheckImport,
  useImportPreview,
  useImportRows,
  useImportRun,
  useRunImport,
} from './api';
import { ImportCounts, ImportProgress, ImportStateBadge, outcomeTone } from './import-parts';

const rowsPageSize = 25;

/** Where an imported record opens, per kind (a kind without a page of its own has no link). */
const recordPath: Partial<Record<ImportKind, (id: string) => string>> = {
  patients: (id) => `/patients/${id}/mh`,
  providers: (id) => `/providers/edit/${id}`,
  // A treatment has no page of its own: the price list shows it.
  priceList: () => '/price-list',
  // An item's page is by its type (/medications or /supplies), which a row's outcome does not carry.
};

/** Column letters as a spreadsheet shows them: A … Z, AA … */
function columnLetter(index: number): string {
  let letters = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

type Step = 'columns' | 'review' | 'import';

function Steps({ current }: { current: Step }) {
  const { t } = useTranslation('imports');
  const steps: Step[] = ['columns', 'review', 'import'];
  return (
    <ol className="import-steps list-unstyled d-flex flex-wrap gap-2 mb-0" aria-label={t('steps.label')}>
      {steps.map((step, index) => (
        <li key={step} aria-current={step === current ? 'step' : undefined}>
          <span className={`badge rounded-pill ${step === current ? 'text-bg-primary' : 'text-bg-light border'}`}>
            {t('steps.item', { number: index + 1, name: t(`steps.${step}`) })}
          </span>
        </li>
      ))}
    </ol>
  );
}

function MappingStep({ run, onChecked }: { run: ImportRun; onChecked: () => void }) {
  const { t } = useTranslation('imports');
  const ids = { encoding: useId(), mapping: useId() };
  const [encoding, setEncoding] = useState<ImportEncoding>(run.encoding);
  const preview = useImportPreview(run.id, encoding);
  const [mapping, setMapping] = useState<ImportMapping | null>(null);
  const [missing, setMissing] = useState<string[]>([]);
  const check = useCheckImport(run.id);
  const loaded: ImportPreview | undefined = preview.data?.data;

  // The suggestion (the saved mapping, else the headers') fills the form once; edits then stay.
  useEffect(() => {
    if (loaded && mapping === null) setMapping(loaded.suggestedMapping);
  }, [loaded, mapping]);

  if (!loaded || mapping === null) {
    return (
      <p className="text-body-secondary" role="status">
        {t('mapping.loading')}
      </p>
    );
  }
  const label = (field: string) => t(`fields.${run.kind}.${field}`);
  const firstRow = loaded.sample[0] ?? [];

  const choose = (field: string, value: string) => {
    setMapping((current) => {
      const next = { ...(current ?? {}) };
      if (value === '') delete next[field];
      else next[field] = Number(value);
      return next;
    });
    setMissing((current) => current.filter((one) => one !== field));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const unmapped = loaded.fields.filter((one) => one.required && mapping[one.field] === undefined);
    setMissing(unmapped.map((one) => one.field));
    if (unmapped.length > 0) {
      document.getElementById(`${ids.mapping}-${unmapped[0]?.field}`)?.focus();
      return;
    }
    check.mutate({ encoding, mapping }, { onSuccess: onChecked });
  };

  const serverFields =
    check.error && isApiError(check.error) && Array.isArray(check.error.details?.fields)
      ? (check.error.details.fields as { path: string }[]).map((one) => one.path)
      : [];
  const invalid = new Set([...missing, ...serverFields]);
  return (
    <form onSubmit={submit} noValidate data-testid="import-mapping-form">
      <div className="row g-3 align-items-end mb-3">
        <div className="col-12 col-md-5">
          <label htmlFor={ids.encoding} className="form-label">
            {t('mapping.encoding')}
          </label>
          <select
            id={ids.encoding}
            className="form-select"
            value={encoding}
            aria-describedby={`${ids.encoding}-hint`}
            onChange={(event) => setEncoding(event.target.value as ImportEncoding)}
            data-testid="import-encoding"
            disabled={run.format === 'xlsx'}
          >
            {importEncodings.map((one) => (
              <option key={one} value={one}>
                {one === run.detectedEncoding
                  ? t('mapping.detected', { encoding: t(`encodings.${one}`) })
                  : t(`encodings.${one}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-12 col-md-7">
          <div id={`${ids.encoding}-hint`} className="form-text">
            {run.format === 'xlsx' ? t('mapping.encodingXlsx') : t('mapping.encodingHint')}
          </div>
        </div>
      </div>

      <p data-testid="import-mapping-from">
        {loaded.mappingFrom === 'saved' ? t('mapping.fromSaved', { source: run.source }) : t('mapping.fromHeaders')}
      </p>

      <CaptionedTable
        wrapperClassName="table-responsive mb-3"
        scrollLabel={t('mapping.title')}
        className="table table-sm align-middle mb-0"
        testId="import-mapping"
        caption={t('mapping.title')}
        head={[
          { label: t('mapping.field') },
          { label: t('mapping.column') },
          { label: t('mapping.sample'), className: 'd-none d-md-table-cell' },
        ]}
      >
        <tbody>
          {loaded.fields.map(({ field, required }) => {
            const id = `${ids.mapping}-${field}`;
            const index = mapping[field];
            const bad = invalid.has(field);
            return (
              <tr key={field} data-testid="import-mapping-row" data-field={field}>
                <th scope="row" className="fw-normal">
                  <label htmlFor={id} className="mb-0">
                    {label(field)}
                    {required ? (
                      <span className="text-danger ms-1" aria-hidden="true">
                        *
                      </span>
                    ) : null}
                  </label>
                </th>
                <td style={{ minWidth: '12rem' }}>
                  <select
                    id={id}
                    className={`form-select form-select-sm${bad ? ' is-invalid' : ''}`}
                    value={index === undefined ? '' : String(index)}
                    aria-required={required ? 'true' : undefined}
                    aria-invalid={bad ? true : undefined}
                    aria-describedby={bad ? `${id}-error` : undefined}
                    onChange={(event) => choose(field, event.target.value)}
                    data-testid={`import-map-${field}`}
                  >
                    <option value="">{t('mapping.none')}</option>
                    {loaded.columns.map((header, column) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in the file.
                      <option key={column} value={column}>
                        {t('mapping.columnName', { letter: columnLetter(column), header: header || '—' })}
                      </option>
                    ))}
                  </select>
                  {bad ? (
                    <div id={`${id}-error`} className="invalid-feedback">
                      {missing.includes(field) ? t('mapping.requiredField') : t('mapping.invalidField')}
                    </div>
                  ) : null}
                </td>
                <td className="d-none d-md-table-cell small text-body-secondary text-break">
                  {index === undefined ? '' : (firstRow[index] ?? '')}
                </td>
              </tr>
            );
          })}
        </tbody>
      </CaptionedTable>

      <details className="mb-3">
        <summary>{t('mapping.sampleTitle', { count: loaded.sample.length })}</summary>
        <CaptionedTable
          wrapperClassName="table-responsive mt-2"
          scrollLabel={t('mapping.sampleTitle', { count: loaded.sample.length })}
          className="table table-sm table-striped small mb-0"
          testId="import-sample"
          caption={t('mapping.sampleTitle', { count: loaded.sample.length })}
          head={loaded.columns.map((header, column) => ({
            label: t('mapping.columnName', { letter: columnLetter(column), header: header || '—' }),
          }))}
        >
          <tbody>
            {loaded.sample.map((cells, row) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the sample's rows are the file's first rows, in order.
              <tr key={row}>
                {loaded.columns.map((_header, column) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a cell is its column.
                  <td key={column}>{cells[column] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </CaptionedTable>
      </details>

      {missing.length > 0 ? (
        <FormAlert testId="import-mapping-missing">
          {t('mapping.missing', { fields: missing.map(label).join(', ') })}
        </FormAlert>
      ) : null}
      {check.error ? <FormAlert testId="import-check-error">{apiErrorText(check.error)}</FormAlert> : null}
      <div className="d-flex flex-wrap align-items-center gap-3">
        <button type="submit" className="btn btn-primary" disabled={check.isPending} data-testid="import-check">
          <BusyIcon busy={check.isPending} icon={SearchCheck} />
          {t('mapping.check')}
        </button>
        <span className="small text-body-secondary">{t('mapping.checkHint')}</span>
      </div>
    </form>
  );
}

function Reasons({ kind, reasons }: { kind: ImportKind; reasons: ImportReason[] }) {
  const { t, i18n } = useTranslation('imports');
  if (reasons.length === 0) return null;
  const fieldName = (field: string) => {
    const key = `fields.${kind}.${field}`;
    return i18n.exists(`imports:${key}`) ? t(key) : t('rows.rowField');
  };
  return (
    <ul className="list-unstyled mb-0">
      {reasons.map((reason) => (
        <li key={`${reason.field}-${reason.code}`}>
          {t('rows.reason', { field: fieldName(reason.field), message: fieldCodeText(reason.code) })}
        </li>
      ))}
    </ul>
  );
}

function RowsTable({ run, phase }: { run: ImportRun; phase: ImportPhase }) {
  const { t, i18n } = useTranslation('imports');
  const id = useId();
  const [outcome, setOutcome] = useState<ImportOutcome | ''>(run.counts.refused > 0 ? 'refused' : '');
  const [page, setPage] = useState(1);
  const rows = useImportRows(run.id, phase, outcome, page, rowsPageSize, true);
  const number = new Intl.NumberFormat(i18n.language);
  const link = phase === 'import' ? recordPath[run.kind] : undefined;
  const data = rows.data?.data ?? [];
  return (
    <>
      <div className="d-flex flex-wrap align-items-end gap-3 mb-2">
        <div>
          <label htmlFor={id} className="form-label small mb-1">
            {t('rows.filter')}
          </label>
          <select
            id={id}
            className="form-select form-select-sm"
            value={outcome}
            onChange={(event) => {
              setOutcome(event.target.value as ImportOutcome | '');
              setPage(1);
            }}
            data-testid="import-rows-filter"
          >
            <option value="">
              {t('rows.all', { count: run.totalRows ?? 0, formatted: number.format(run.totalRows ?? 0) })}
            </option>
            {importOutcomes.map((one) => (
              <option key={one} value={one}>
                {t('rows.only', { outcome: t(`counts.${phase}.${one}`), count: number.format(run.counts[one]) })}
              </option>
            ))}
          </select>
        </div>
      </div>
      <CaptionedTable
        wrapperClassName="table-responsive"
        scrollLabel={t('rows.title')}
        className="table table-sm align-middle mb-0"
        testId="import-rows"
        caption={t('rows.title')}
        head={[
          { label: t('rows.line'), className: 'text-end' },
          { label: t('rows.externalId'), className: 'd-none d-sm-table-cell' },
          { label: t('rows.label') },
          { label: t('rows.outcome') },
          { label: t('rows.reasons') },
        ]}
      >
        <tbody>
          {data.length === 0 ? (
            <tr>
              <td colSpan={5} className="text-body-secondary">
                {rows.isLoading ? t('rows.loading') : t('rows.empty')}
              </td>
            </tr>
          ) : null}
          {data.map((row) => (
            <tr key={row.line} data-testid="import-row" data-outcome={row.outcome}>
              <td className="text-end small">{number.format(row.line)}</td>
              <td className="d-none d-sm-table-cell small text-break">{row.externalId ?? ''}</td>
              <td className="small text-break">
                {link && row.recordId && row.outcome !== 'refused' ? (
                  <Link to={link(row.recordId)}>{row.label ?? row.externalId}</Link>
                ) : (
                  (row.label ?? '')
                )}
              </td>
              <td>
                <span className={`badge ${outcomeTone[row.outcome]}`}>{t(`outcome.${phase}.${row.outcome}`)}</span>
              </td>
              <td className="small">
                <Reasons kind={run.kind} reasons={row.reasons} />
              </td>
            </tr>
          ))}
        </tbody>
      </CaptionedTable>
      {rows.data ? (
        <PaginationFooter
          page={page}
          pageSize={rowsPageSize}
          total={rows.data.total}
          onPage={setPage}
          label={t('rows.title')}
        />
      ) : null}
    </>
  );
}

function RefusedButton({ run }: { run: ImportRun }) {
  const { t } = useTranslation('imports');
  if (run.counts.refused === 0) return null;
  return (
    <DownloadButton
      className="btn btn-outline-secondary"
      icon={FileDown}
      download={() => downloadRefused(run.id)}
      testId="import-refused-csv"
    >
      {t('review.refusedCsv')}
    </DownloadButton>
  );
}

function ReviewStep({ run, onEditColumns }: { run: ImportRun; onEditColumns: () => void }) {
  const { t, i18n } = useTranslation('imports');
  const start = useRunImport(run.id);
  const number = new Intl.NumberFormat(i18n.language);
  const writes = run.counts.created + run.counts.updated;
  return (
    <div className="d-flex flex-column gap-3">
      <ImportCounts run={run} />
      <p className="mb-0" data-testid="import-review-summary">
        {writes === 0
          ? t('review.nothing')
          : t('review.summary', {
              created: number.format(run.counts.created),
              updated: number.format(run.counts.updated),
            })}
        {run.counts.refused > 0
          ? ` ${t('review.refusedLeft', { count: run.counts.refused, formatted: number.format(run.counts.refused) })}`
          : ''}
      </p>
      <div className="d-flex flex-wrap gap-2">
        <BusyButton
          className="btn btn-primary"
          icon={PackageCheck}
          busy={start.isPending}
          onClick={() => start.mutate(undefined)}
          testId="import-run"
        >
          {t('review.run')}
        </BusyButton>
        <button
          type="button"
          className="btn btn-outline-primary"
          onClick={onEditColumns}
          data-testid="import-edit-columns"
        >
          <Columns3 size={16} aria-hidden="true" className="me-2" />
          {t('review.editColumns')}
        </button>
        <RefusedButton run={run} />
      </div>
      <RowsTable key={`${run.id}-check-${run.finishedAt}`} run={run} phase="check" />
    </div>
  );
}

function ReportStep({ run }: { run: ImportRun }) {
  const { t } = useTranslation('imports');
  const format = useInstantFormat('dateTime');
  const unchangedAll = run.counts.created === 0 && run.counts.updated === 0;
  return (
    <div className="d-flex flex-column gap-3">
      <ImportCounts run={run} />
      <p className="mb-0" data-testid="import-report-summary">
        {t('report.finished', { date: format(run.finishedAt) })} {unchangedAll ? t('report.nothingChanged') : ''}
      </p>
      <div className="d-flex flex-wrap gap-2">
        {run.kind === 'patients' ? (
          <Link className="btn btn-outline-primary" to="/patients" data-testid="import-open-patients">
            {t('report.openPatients')}
          </Link>
        ) : null}
        <RefusedButton run={run} />
      </div>
      <RowsTable key={`${run.id}-import-${run.finishedAt}`} run={run} phase="import" />
    </div>
  );
}

/** `/account/import/:importId`: the run's columns, its dry run and its import, by its state. */
export function ImportRunPage() {
  const { t, i18n } = useTranslation('imports');
  const { t: common } = useTranslation('common');
  const { importId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const answer = useImportRun(importId);
  const number = new Intl.NumberFormat(i18n.language);
  const run = answer.data?.data;
  const editing = search.get('step') === 'columns';
  const backLink = (
    <Link to="/account/import" className="btn btn-link px-0 align-self-start" data-testid="import-back">
      <ArrowLeft size={16} aria-hidden="true" className="me-1" />
      {t('run.back')}
    </Link>
  );
  if (answer.isError) {
    return (
      <>
        <PageTitle title={common('pages.dataImportRun')} />
        <FormAlert testId="import-run-error">{apiErrorText(answer.error)}</FormAlert>
        {backLink}
      </>
    );
  }
  if (!run) {
    return (
      <>
        <PageTitle title={common('pages.dataImportRun')} />
        <p className="text-body-secondary" role="status">
          {t('run.loading')}
        </p>
      </>
    );
  }
  const step: Step =
    run.state === 'done' || run.state === 'importing' || (run.state === 'failed' && run.phase === 'import')
      ? 'import'
      : run.state === 'uploaded' || editing || (run.state === 'failed' && run.phase !== 'import')
        ? 'columns'
        : 'review';
  const showColumns =
    step === 'columns' && (run.state === 'uploaded' || run.state === 'checked' || run.state === 'failed');
  const title = {
    columns: t('mapping.title'),
    review: t('review.title'),
    import: run.state === 'done' ? t('report.title') : t('run.importing'),
  }[step];
  const icon = { columns: Columns3, review: ListChecks, import: PackageCheck }[step];
  const Icon = icon;
  return (
    <>
      <PageTitle title={common('pages.dataImportRun')} />
      <div className="d-flex flex-column gap-3" data-testid="import-run-page" data-state={run.state}>
        {backLink}
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <p className="mb-0" data-testid="import-run-file">
            <strong>{run.fileName}</strong> ·{' '}
            {t('run.about', {
              kind: t(`kinds.${run.kind}`),
              source: run.source,
              rows: number.format(run.totalRows ?? 0),
            })}
          </p>
          <ImportStateBadge run={run} />
        </div>
        <Steps current={step} />
        <IconCard
          title={title}
          icon={<Icon size={18} aria-hidden="true" />}
          className="profile-card"
          testId={`import-step-${step}`}
        >
          {run.state === 'failed' ? <FormAlert testId="import-failed">{t('run.failed')}</FormAlert> : null}
          {isRunning(run) ? (
            <div className="d-flex flex-column gap-2">
              <ImportProgress run={run} />
              <p className="small text-body-secondary mb-0">{t('run.keepWorking')}</p>
            </div>
          ) : null}
          {showColumns ? <MappingStep run={run} onChecked={() => setSearch({}, { replace: true })} /> : null}
          {step === 'review' && run.state === 'checked' ? (
            <ReviewStep run={run} onEditColumns={() => setSearch({ step: 'columns' })} />
          ) : null}
          {step === 'import' && run.state === 'done' ? <ReportStep run={run} /> : null}
        </IconCard>
      </div>
    </>
  );
}
