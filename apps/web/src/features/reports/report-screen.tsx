import { paymentMethods } from '@odontia/shared/enums';
import {
  type ReportCatalogueEntry,
  type ReportColumn,
  type ReportFilter,
  type ReportId,
  type ReportRow,
  reportIds,
  reportMaxDays,
} from '@odontia/shared/schemas/reports';
import { ArrowLeft } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { IconLink } from '../../components/icon-link';
import { useCalendarDateFormat, useClinicToday } from '../../session/clinic-time';
import { useCashRegisters } from '../cash-registers/api';
import { DateRangeFilter } from '../commercial/date-range-filter';
import { useCurrencyFormat } from '../commercial/money-format';
import { useNumberFormat } from '../inventory/format';
import { SaleIntegrityReport } from '../sales/sale-integrity';
import { useProfessionals } from '../users/professionals';
import { type ReportParams, useReportCatalogue, useReportPage } from './api';
import { type PeriodPreset, periodPresets, presetOf, presetPeriod } from './period';
import { ReportExports } from './report-exports';

const pageSize = 50;
/** Columns that title a row's card on phones, when the report has one. */
const cardTitles = ['treatment', 'item', 'patient', 'name', 'professional'];
/** Codes never broken across lines (a document number, a tax id). */
const unbroken = ['number', 'taxId', 'patientCode', 'sku', 'code'];
const isReportId = (value: string): value is ReportId => (reportIds as readonly string[]).includes(value);

/**
 * A report's state in the address: `/reports/:reportId?from&to&method&professionalId&page`, so
 * Back and Forward step through the periods asked and a link opens the same report. No period in
 * the address: this month so far (the clinic's month).
 */
function useReportParams(filterNames: readonly ReportFilter[]) {
  const [search, setSearch] = useSearchParams();
  const today = useClinicToday();
  const fallback = presetPeriod('thisMonth', today);
  const params: ReportParams = {
    from: search.get('from') || fallback.from,
    to: search.get('to') || fallback.to,
    filters: Object.fromEntries(filterNames.map((name) => [name, search.get(name) ?? ''])),
  };
  const page = Math.max(1, Number(search.get('page')) || 1);
  /** A new period or filter: a new history entry, back on the first page. */
  const change = (changes: Record<string, string>) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes)) value ? next.set(name, value) : next.delete(name);
        next.delete('page');
        return next;
      },
      { preventScrollReset: true },
    );
  const setPage = (value: number) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        value > 1 ? next.set('page', String(value)) : next.delete('page');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  return { params, page, change, setPage, today };
}

/** The period: a preset (this month, last month…) or two dates. */
function PeriodFields({
  params,
  today,
  onChange,
}: {
  params: ReportParams;
  today: string;
  onChange: (changes: Record<string, string>) => void;
}) {
  const { t } = useTranslation('reports');
  const preset = presetOf(params.from, params.to, today);
  return (
    <>
      <FilterSelect
        label={t('period.preset')}
        visibleLabel
        className="reports-preset"
        testId="report-preset"
        value={preset}
        onChange={(value) => {
          if (value) onChange(presetPeriod(value as PeriodPreset, today));
        }}
        options={[
          ...(preset ? [] : [{ value: '', label: t('period.presets.custom') }]),
          ...periodPresets.map((value) => ({ value, label: t(`period.presets.${value}`) })),
        ]}
      />
      <DateRangeFilter
        names={['from', 'to'] as const}
        values={[params.from, params.to]}
        labels={[t('period.from'), t('period.to')]}
        inputClassName="form-control form-control-sm"
        onChange={(name, value) => {
          if (value) onChange({ [name]: value });
        }}
      />
    </>
  );
}

function FilterFields({
  entry,
  params,
  onChange,
}: {
  entry: ReportCatalogueEntry;
  params: ReportParams;
  onChange: (changes: Record<string, string>) => void;
}) {
  const { t } = useTranslation(['reports', 'payments']);
  const professionals = useProfessionals();
  // The registers only where the report is filtered by one (reading them is commercial.read).
  const registers = useCashRegisters(entry.filters.includes('registerId'));
  // Each filter's test id, texts and choices (its "all" first, the empty value).
  const filterOf = {
    method: {
      testId: 'report-filter-method',
      label: t('filters.method'),
      all: t('filters.allMethods'),
      options: paymentMethods.map((method) => ({ value: method, label: t(`payments:methods.${method}`) })),
    },
    professionalId: {
      testId: 'report-filter-professional',
      label: t('filters.professional'),
      all: t('filters.allProfessionals'),
      options: (professionals.data ?? []).map((professional) => ({
        value: professional.id,
        label: professional.completeName,
      })),
    },
    registerId: {
      testId: 'report-filter-register',
      label: t('filters.register'),
      all: t('filters.allRegisters'),
      options: (registers.data?.data ?? []).map((register) => ({ value: register.id, label: register.name })),
    },
  };
  return entry.filters.map((filter) => {
    const { testId, label, all, options } = filterOf[filter];
    return (
      <FilterSelect
        key={filter}
        label={label}
        visibleLabel
        className="reports-filter"
        testId={testId}
        value={params.filters[filter] ?? ''}
        onChange={(value) => onChange({ [filter]: value })}
        options={[{ value: '', label: all }, ...options]}
      />
    );
  });
}

/** How a cell reads: money in the clinic's currency, counts and rates in the user's locale, days in the clinic's format, codes named. */
function useCellText(currency: string | undefined) {
  const { t } = useTranslation(['reports', 'payments', 'sales']);
  const money = useCurrencyFormat();
  const number = useNumberFormat();
  const day = useCalendarDateFormat();
  return (column: ReportColumn, value: ReportRow[string] | undefined): string => {
    if (value === null || value === undefined || value === '') {
      return column.key === 'professional' ? t('table.noProfessional') : '—';
    }
    switch (column.kind) {
      case 'money':
        return money(String(value), currency ?? null);
      case 'integer':
        return number(Number(value));
      case 'rate':
        return `${number(Number(value))} %`;
      case 'date':
        return day(String(value));
      default:
        if (column.key === 'method') return t(`payments:methods.${value}`, { defaultValue: String(value) });
        if (column.key === 'documentType') return t(`sales:types.${value}`, { defaultValue: String(value) });
        if (column.key === 'kind') return t(`itemKinds.${value}`, { defaultValue: String(value) });
        if (column.key === 'movement') return t(`movements.${value}`, { defaultValue: String(value) });
        // Issue 40: third-party payers.
        if (column.key === 'presentationStatus') return t(`payers:statuses.${value}`, { defaultValue: String(value) });
        if (column.key === 'destination') return t(`payers:destinations.${value}`, { defaultValue: String(value) });
        return String(value);
    }
  };
}

function ReportTable({
  reportId,
  entry,
  params,
  page,
  setPage,
}: {
  reportId: ReportId;
  entry: ReportCatalogueEntry;
  params: ReportParams;
  page: number;
  setPage: (page: number) => void;
}) {
  const { t } = useTranslation('reports');
  const query = useReportPage(reportId, params, page, pageSize);
  const answer = query.data;
  const cell = useCellText(answer?.data.currency);
  const reportColumns = answer?.data.columns ?? entry.columns;
  type Line = { index: number; row: ReportRow };
  // On phones each row is a card titled by what the row is about (the treatment, the item…), else its first column.
  const primary = reportColumns.find((column) => cardTitles.includes(column.key))?.key ?? reportColumns[0]?.key;
  const columns: Column<Line>[] = reportColumns.map((column) => {
    const numeric = column.kind === 'money' || column.kind === 'integer' || column.kind === 'rate';
    const header = t(`columns.${column.key}`);
    const nowrap = numeric || column.kind === 'date' || unbroken.includes(column.key);
    return {
      key: column.key,
      header,
      primary: column.key === primary,
      ...(nowrap ? { className: numeric ? 'text-end text-nowrap' : 'text-nowrap' } : {}),
      cell: ({ row }: Line) =>
        column.key === primary ? (
          cell(column, row[column.key])
        ) : (
          <>
            <span className="d-md-none text-body-secondary small me-1">{header}:</span>
            {cell(column, row[column.key])}
          </>
        ),
    };
  });
  const totals = answer?.data.totals;
  const footer = totals
    ? reportColumns.map((column) => {
        if (column.key === primary) return t('table.totals', { count: answer.total });
        if (!column.summed) return null;
        const header = t(`columns.${column.key}`);
        return (
          <span key={column.key} data-testid={`report-total-${column.key}`}>
            <span className="d-md-none text-body-secondary small me-1">{header}:</span>
            {cell(column, totals[column.key])}
          </span>
        );
      })
    : undefined;
  const lines = answer ? answer.data.rows.map((row, index) => ({ index, row })) : [];
  return (
    <DataTable<Line>
      columns={columns}
      query={{
        data: answer ? { data: lines, total: answer.total } : undefined,
        isPending: query.isPending,
        isError: query.isError,
        isFetching: query.isFetching,
        refetch: query.refetch,
      }}
      rowKey={(line) => `${page}-${line.index}`}
      rowProps={() => ({ 'data-testid': 'report-row' })}
      label={t(`reports.${reportId}.title`)}
      emptyText={t('table.empty')}
      emptyTestId="report-empty"
      errorText={t('table.loadError')}
      retryText={t('table.retry')}
      footer={footer}
      pagination={{ page, pageSize, onPage: setPage, onlyWhenNeeded: true, testId: 'report-pagination' }}
      className="reports-table"
    />
  );
}

function BackToCatalogue() {
  const { t } = useTranslation('reports');
  return (
    <IconLink
      to="/reports"
      className="btn btn-link btn-sm px-0 align-self-start"
      icon={ArrowLeft}
      iconClassName="me-1"
      testId="reports-back"
    >
      {t('back')}
    </IconLink>
  );
}

/** `/reports/:reportId`: the report's period, filters, exports and table with the period's totals. */
export function ReportScreen({ reportId }: { reportId: string }) {
  const { t } = useTranslation('reports');
  const catalogue = useReportCatalogue();
  const headingId = useId();
  if (reportId === 'sales-integrity') {
    return (
      <div className="d-flex flex-column gap-2" data-testid="report-screen" data-report={reportId}>
        <BackToCatalogue />
        <h2 className="h5 mb-0">{t('reports.sales-integrity.title')}</h2>
        <SaleIntegrityReport />
      </div>
    );
  }
  if (!isReportId(reportId)) {
    return (
      <div className="d-flex flex-column gap-2" data-testid="report-unknown">
        <BackToCatalogue />
        <div className="alert alert-warning mb-0">{t('unknown')}</div>
      </div>
    );
  }
  const entry = catalogue.data?.find((candidate) => candidate.id === reportId);
  return (
    <section
      className="d-flex flex-column gap-3"
      data-testid="report-screen"
      data-report={reportId}
      aria-labelledby={headingId}
    >
      <BackToCatalogue />
      <div>
        <h2 id={headingId} className="h5 mb-1">
          {t(`reports.${reportId}.title`)}
        </h2>
        <p className="text-body-secondary small mb-0">{t(`reports.${reportId}.description`)}</p>
      </div>
      {entry ? (
        <LoadedReport reportId={reportId} entry={entry} />
      ) : catalogue.isError ? (
        <div className="alert alert-danger mb-0" role="alert">
          {t('table.loadError')}{' '}
          <button type="button" className="btn btn-link p-0 align-baseline" onClick={() => void catalogue.refetch()}>
            {t('table.retry')}
          </button>
        </div>
      ) : (
        <div className="text-center py-4">
          <span className="spinner-border text-primary" role="status" aria-label={t('table.loading')} />
        </div>
      )}
    </section>
  );
}

function LoadedReport({ reportId, entry }: { reportId: ReportId; entry: ReportCatalogueEntry }) {
  const { t } = useTranslation('reports');
  const { params, page, change, setPage, today } = useReportParams(entry.filters);
  const day = useCalendarDateFormat();
  const days = (Date.parse(`${params.to}T00:00:00Z`) - Date.parse(`${params.from}T00:00:00Z`)) / 86_400_000 + 1;
  // The API's own checks (end_before_start, range_too_long), said next to the dates before asking.
  const problem = !entry.period ? null : days < 1 ? 'endBeforeStart' : days > reportMaxDays ? 'rangeTooLong' : null;
  return (
    <div className="card">
      <div className="card-header reports-toolbar">
        <form className="reports-fields" aria-label={t('period.label')} onSubmit={(event) => event.preventDefault()}>
          {entry.period ? (
            <PeriodFields params={params} today={today} onChange={change} />
          ) : (
            <p className="small mb-0 align-self-center" data-testid="report-as-of">
              {t('period.asOf', { day: day(today) })}
            </p>
          )}
          <FilterFields entry={entry} params={params} onChange={change} />
        </form>
        <ReportExports reportId={reportId} params={params} formats={entry.formats} disabled={problem !== null} />
      </div>
      {problem ? (
        <div className="alert alert-warning m-3" role="alert" data-testid="report-period-problem">
          {t(`period.${problem}`, { max: reportMaxDays })}
        </div>
      ) : (
        <ReportTable reportId={reportId} entry={entry} params={params} page={page} setPage={setPage} />
      )}
    </div>
  );
}
