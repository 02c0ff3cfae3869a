import type { TFunction } from 'i18next';
import type { Column } from './data-table';
import { editColumn } from './list-card';

/**
 * The edit column of a list of named records (customers, treatments): a pencil a row, read
 * "<list.editOne>" with the row's name, under a hidden "<list.actions>" header of the list's namespace.
 */
export function editByNameColumn<Row extends { name: string }>(
  t: TFunction,
  { onEdit, testId, className }: { onEdit: (row: Row) => void; testId: string; className: string },
): Column<Row> {
  return editColumn({
    header: t('list.actions'),
    label: (row) => t('list.editOne', { name: row.name }),
    onEdit,
    testId,
    className,
  });
}
