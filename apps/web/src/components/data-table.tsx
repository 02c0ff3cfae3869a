import type { HTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PaginationFooter } from './pagination-footer';
import { SortHeader } from './sort-header';
import { TableBodyState } from './table-body-state';

/*
 * The one table of a server-paginated list: a column descriptor per column, sortable headers,
 * the loading / error / empty rows, the pagination footer, and on phones (below Bootstrap's `md`)
 * each row becomes a small card, its `primary` cell first. Rows are not clickable themselves:
 * what opens a record is a link or button inside a cell, so the keyboard and screen readers
 * reach it like any other control.
 */

export interface Column<Row> {
  /** React key of the column; also the server's sort column when `sortable`. */
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  sortable?: boolean;
  /** Class of the column's cells (and header). */
  className?: string;
  /** The card's title on phones: shown first, across the card. */
  primary?: boolean;
}

/** What the table reads of a TanStack list query (`{ data, total }` answers). */
export interface ListQuery<Row> {
  data?: { data: Row[]; total: number; totalIsLowerBound?: boolean | undefined } | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface DataTableProps<Row> {
  columns: Column<Row>[];
  query: ListQuery<Row>;
  rowKey: (row: Row) => string;
  /** The table's accessible name (and the pagination's, unless `pagination.label`). */
  label: string;
  emptyText: ReactNode;
  emptyTestId?: string;
  /** Default: common:list.loadError. */
  errorText?: string;
  /** Default: common:list.retry. */
  retryText?: string;
  /** `data-testid` and other attributes of a row. */
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined };
  sort?: { value: string; onSort: (sort: string) => void };
  pagination?: {
    page: number;
    pageSize: number;
    onPage: (page: number) => void;
    label?: string;
    /** Hide the footer while everything fits on one page. */
    onlyWhenNeeded?: boolean;
    testId?: string;
  };
  /** Extra classes of the <table> (a feature's column widths or card layout). */
  className?: string;
  /** Smaller padding and spinner, for a table inside a page section. */
  compact?: boolean;
  /** `false` keeps the table on phones (a layout of its own). */
  cards?: boolean;
  /** A last row under the rows (a report's totals), one cell per column; shown while there are rows. */
  footer?: ReactNode[] | undefined;
}

export function DataTable<Row>({
  columns,
  query,
  rowKey,
  label,
  emptyText,
  emptyTestId,
  errorText,
  retryText,
  rowProps,
  sort,
  pagination,
  className = '',
  compact = false,
  cards = true,
  footer,
}: DataTableProps<Row>) {
  const { t } = useTranslation('common');
  const rows = query.data?.data ?? [];
  const total = query.data?.total ?? 0;
  // A feature may align its cells otherwise (`align-top`): Bootstrap's last alignment class would win.
  const align = className.includes('align-') ? '' : 'align-middle';
  const classes = ['table mb-0 data-table', align, cards ? 'data-table-cards' : '', className];
  const showFooter = pagination && (!pagination.onlyWhenNeeded || total > pagination.pageSize);
  return (
    <>
      <div className="table-responsive">
        <table className={classes.filter(Boolean).join(' ')} aria-label={label} aria-busy={query.isFetching}>
          <thead>
            <tr>
              {columns.map((column) =>
                column.sortable && sort ? (
                  <SortHeader
                    key={column.key}
                    column={column.key}
                    sort={sort.value}
                    onSort={sort.onSort}
                    label={column.header}
                    {...(column.className ? { className: column.className } : {})}
                  />
                ) : (
                  <th scope="col" key={column.key} className={column.className}>
                    {column.header}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            <TableBodyState
              query={query}
              columns={columns.length}
              isEmpty={rows.length === 0}
              emptyText={emptyText}
              {...(emptyTestId ? { emptyTestId } : {})}
              errorText={errorText ?? t('list.loadError')}
              retryText={retryText ?? t('list.retry')}
              compact={compact}
            >
              {rows.map((row) => (
                <tr key={rowKey(row)} className="data-table-row" {...rowProps?.(row)}>
                  {columns.map((column) => (
                    <td
                      key={column.key}
                      className={
                        [column.className, column.primary ? 'data-table-primary' : ''].filter(Boolean).join(' ') ||
                        undefined
                      }
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </TableBodyState>
          </tbody>
          {footer && rows.length > 0 ? (
            <tfoot>
              <tr className="data-table-row data-table-footer">
                {columns.map((column, index) => (
                  <td
                    key={column.key}
                    className={
                      [column.className, column.primary ? 'data-table-primary' : ''].filter(Boolean).join(' ') ||
                      undefined
                    }
                  >
                    {footer[index]}
                  </td>
                ))}
              </tr>
            </tfoot>
          ) : null}
        </table>
      </div>
      {showFooter ? (
        <PaginationFooter
          page={pagination.page}
          pageSize={pagination.pageSize}
          total={total}
          totalIsLowerBound={query.data?.totalIsLowerBound}
          onPage={pagination.onPage}
          label={pagination.label ?? label}
          {...(pagination.testId ? { testId: pagination.testId } : {})}
        />
      ) : null}
    </>
  );
}
