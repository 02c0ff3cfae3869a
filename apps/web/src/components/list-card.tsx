import { Download, Pencil, Plus } from 'lucide-react';
import { type KeyboardEvent, type MouseEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toastApiError } from '../lib/api-toast';
import { saveFile } from '../lib/save-file';
import type { ListState } from '../lib/use-list-state';
import { pagesOf } from '../lib/use-list-state';
import { BusyIcon } from './busy-icon';
import { type Column, DataTable, type DataTableProps } from './data-table';
import { FilterSelect } from './filter-select';
import { IconButton } from './icon-button';
import { SearchBox } from './search-box';

/*
 * The scaffold of a list page: a card with the search box and the page's buttons, a row of
 * filters, then the server-paginated DataTable. The texts default to the feature's `list.*` keys
 * (`list.search`, `list.caption`, `list.loadError`, `list.retry`, `list.pagination`) in `ns`.
 */

export interface ListCardProps<Row>
  extends Omit<DataTableProps<Row>, 'label' | 'sort' | 'pagination' | 'errorText' | 'retryText' | 'emptyText'> {
  /** The i18n namespace whose `list.*` keys name the search, table, errors and pages. */
  ns: string;
  // biome-ignore lint/suspicious/noExplicitAny: any list state (its filter names do not matter here)
  list: ListState<any>;
  pageSize: number;
  /** The section's data-testid; `cardClassName` is added after `card` (`className` is the table's). */
  testId: string;
  cardClassName?: string;
  cardData?: { [data: `data-${string}`]: string };
  searchPlaceholder: string;
  searchTestId: string;
  onSearchKey?: (event: KeyboardEvent<HTMLInputElement>) => void;
  /** What stands beside the search (the page's buttons). */
  tools?: ReactNode;
  /** The filters' row; `filtersClassName` follows `card-body border-bottom`. */
  filters?: ReactNode;
  filtersClassName?: string;
  /** Overrides of the default texts and of the sort (a list that maps its sort names). */
  caption?: string;
  paginationLabel?: string;
  rangeTestId?: string;
  sort?: DataTableProps<Row>['sort'];
  /** Default: `list.noMatches` (with the search as `q`) while searching, else `list.empty`. */
  emptyText?: DataTableProps<Row>['emptyText'];
  /** What follows the table inside the card (a dialog). */
  children?: ReactNode;
}

export function ListCard<Row>({
  ns,
  list,
  pageSize,
  testId,
  cardClassName,
  cardData,
  searchPlaceholder,
  searchTestId,
  onSearchKey,
  tools,
  filters,
  filtersClassName = 'list-filters',
  caption,
  paginationLabel,
  rangeTestId,
  sort,
  emptyText,
  children,
  ...table
}: ListCardProps<Row>) {
  const { t } = useTranslation(ns);
  return (
    <section className={cardClassName ? `card ${cardClassName}` : 'card'} data-testid={testId} {...cardData}>
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('list.search')}
          placeholder={searchPlaceholder}
          value={list.searchText}
          autoComplete="off"
          data-testid={searchTestId}
          onChange={(event) => list.setSearchText(event.target.value)}
          {...(onSearchKey ? { onKeyDown: onSearchKey } : {})}
        />
        {tools}
      </div>
      {filters ? <div className={`card-body border-bottom ${filtersClassName}`}>{filters}</div> : null}
      <DataTable<Row>
        {...table}
        label={caption ?? t('list.caption')}
        emptyText={emptyText ?? (list.search ? t('list.noMatches', { q: list.search }) : t('list.empty'))}
        sort={sort ?? { value: list.sort, onSort: list.setSort }}
        errorText={t('list.loadError')}
        retryText={t('list.retry')}
        pagination={{
          ...pagesOf(list, pageSize),
          label: paginationLabel ?? t('list.pagination'),
          ...(rangeTestId ? { testId: rangeTestId } : {}),
        }}
      />
      {children}
    </section>
  );
}

/** The rows of a list of records that can be inactive: its test id, inactive ones greyed. */
export function activeRowProps(testId: string) {
  return (row: { active: boolean }) => ({
    'data-testid': testId,
    className: `data-table-row${row.active ? '' : ' text-body-secondary'}`,
  });
}

/** The status filter of a list (all, active, inactive); `allValue` is what "all" sends. */
export function ActiveFilterSelect({
  ns,
  testId,
  value,
  onChange,
  allValue = 'all',
}: {
  ns: string;
  testId: string;
  value: string;
  onChange: (value: string) => void;
  allValue?: string;
}) {
  const { t } = useTranslation(ns);
  return (
    <FilterSelect
      label={t('list.status')}
      visibleLabel
      className="list-filter"
      testId={testId}
      value={value}
      onChange={onChange}
      options={[
        { value: allValue, label: t('list.statusAll') },
        { value: 'true', label: t('list.statusActive') },
        { value: 'false', label: t('list.statusInactive') },
      ]}
    />
  );
}

/** A list's "new" action: a link to the create screen, or a button that opens a dialog. */
export function NewButton({
  label,
  to,
  onClick,
  testId,
}: {
  label: string;
  to?: string;
  onClick?: () => void;
  testId?: string;
}) {
  const content = (
    <>
      <Plus size={16} aria-hidden="true" className="me-2" />
      {label}
    </>
  );
  return to ? (
    <Link to={to} className="btn btn-primary" data-testid={testId}>
      {content}
    </Link>
  ) : (
    <button type="button" className="btn btn-primary" onClick={onClick} data-testid={testId}>
      {content}
    </button>
  );
}

/** The list's export button: downloads what `load` returns, busy meanwhile, errors as a toast. */
export function ExportButton({
  label,
  load,
  fallbackName,
  testId,
}: {
  label: string;
  load: () => Promise<{ blob: Blob; fileName?: string | null | undefined }>;
  fallbackName: string;
  testId?: string;
}) {
  const [exporting, setExporting] = useState(false);
  const onExport = async () => {
    setExporting(true);
    try {
      const file = await load();
      saveFile(file.blob, file.fileName ?? fallbackName);
    } catch (error) {
      toastApiError(error);
    } finally {
      setExporting(false);
    }
  };
  return (
    <button
      type="button"
      className="btn btn-outline-secondary"
      onClick={() => void onExport()}
      disabled={exporting}
      data-testid={testId}
    >
      <BusyIcon busy={exporting} icon={Download} />
      {label}
    </button>
  );
}

/** A row's click opens `path`, unless it landed on a link of the row (which goes where it says). */
export function openRowOnClick(navigate: (path: string) => unknown, path: string) {
  return (event: MouseEvent) => {
    if (!(event.target as HTMLElement).closest('a')) void navigate(path);
  };
}

/** The column of a record's active/inactive badge (`texts` are the feature's words). */
export function activeColumn<Row extends { active: boolean }>(
  header: string,
  texts: { active: string; inactive: string },
  className?: string,
): Column<Row> {
  return {
    key: 'active',
    header,
    ...(className ? { className } : {}),
    cell: (row) => (
      <span className={`badge ${row.active ? 'text-bg-success' : 'text-bg-secondary'}`}>
        {row.active ? texts.active : texts.inactive}
      </span>
    ),
  };
}

/** The last column of a list whose rows open in a dialog: a small pencil button a row. */
export function editColumn<Row>({
  header,
  label,
  onEdit,
  testId,
  className,
}: {
  header: string;
  label: (row: Row) => string;
  onEdit: (row: Row) => void;
  testId: string;
  className: string;
}): Column<Row> {
  return {
    key: 'actions',
    header: <span className="visually-hidden">{header}</span>,
    className,
    cell: (row) => (
      <IconButton icon={Pencil} label={label(row)} onClick={() => onEdit(row)} size={14} testId={testId} />
    ),
  };
}
