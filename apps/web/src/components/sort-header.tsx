import { ArrowDown, ArrowUp } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * A sortable column header of a server-sorted list: `sort` is the list's `sort` parameter
 * (`column` ascending, `-column` descending); a click sorts by this column, again reverses it.
 */
export function SortHeader({
  column,
  sort,
  onSort,
  label,
  className,
}: {
  column: string;
  sort: string;
  onSort: (sort: string) => void;
  label: ReactNode;
  className?: string;
}) {
  const direction = sort === column ? 'ascending' : sort === `-${column}` ? 'descending' : undefined;
  return (
    <th scope="col" aria-sort={direction ?? 'none'} className={className}>
      <button
        type="button"
        className="btn btn-link p-0 sort-button"
        onClick={() => onSort(direction === 'ascending' ? `-${column}` : column)}
      >
        {label}
        {direction === 'ascending' ? <ArrowUp size={14} aria-hidden="true" className="ms-1" /> : null}
        {direction === 'descending' ? <ArrowDown size={14} aria-hidden="true" className="ms-1" /> : null}
      </button>
    </th>
  );
}
