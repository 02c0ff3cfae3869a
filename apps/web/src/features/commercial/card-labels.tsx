import type { Column } from '../../components/data-table';

/**
 * On phones DataTable shows each row as a card without the table's header: every cell but the
 * card's title gets its column's name in front ("Saldo: $ 605,00"), hidden from `md` up.
 */
export function withCardLabels<Row>(columns: Column<Row>[]): Column<Row>[] {
  return columns.map((column) =>
    column.primary || typeof column.header !== 'string'
      ? column
      : {
          ...column,
          cell: (row: Row) => (
            <>
              <span className="d-md-none text-body-secondary small me-1">{column.header}:</span>
              {column.cell(row)}
            </>
          ),
        },
  );
}
