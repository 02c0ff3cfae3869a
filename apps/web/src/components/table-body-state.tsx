import type { ReactNode } from 'react';
import { Spinner } from './spinner';

interface QueryState {
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * The body rows every server-paginated table shares: a spinner while the first page loads, the
 * error with a retry button, the empty text, or the rows themselves (`children`).
 */
export function TableBodyState({
  query,
  columns,
  isEmpty,
  emptyText,
  emptyTestId,
  errorText,
  retryText,
  compact = false,
  children,
}: {
  query: QueryState;
  columns: number;
  isEmpty: boolean;
  emptyText: ReactNode;
  emptyTestId?: string;
  errorText: string;
  retryText: string;
  /** Smaller padding and spinner, for a table inside a page section. */
  compact?: boolean;
  children: ReactNode;
}) {
  const padding = compact ? 'py-4' : 'py-5';
  if (query.isPending) {
    return (
      <tr>
        <td colSpan={columns} className={`text-center ${padding}`}>
          <Spinner size={compact ? 6 : 8} />
        </td>
      </tr>
    );
  }
  if (query.isError) {
    return (
      <tr>
        <td colSpan={columns} className={`text-center ${padding} text-danger`} role="alert">
          {errorText}
          <button type="button" className="btn btn-link" onClick={() => void query.refetch()}>
            {retryText}
          </button>
        </td>
      </tr>
    );
  }
  if (isEmpty) {
    return (
      <tr>
        <td colSpan={columns} className={`text-center ${padding} text-body-secondary`} data-testid={emptyTestId}>
          {emptyText}
        </td>
      </tr>
    );
  }
  return <>{children}</>;
}
