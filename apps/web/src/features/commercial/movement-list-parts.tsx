import type { PaymentListItem } from '@odontia/shared/schemas/payments';
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Column, DataTableProps } from '../../components/data-table';
import { FilterSelect, optionsWithAny } from '../../components/filter-select';
import { openRowOnClick } from '../../components/list-card';
import { SearchBox } from '../../components/search-box';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { useCurrencyFormat } from './money-format';
import type { MovementFormTexts } from './movement-draft';

/** The states a list of movements filters by (reversed wins over pending and paid). */
export const movementStatuses = ['pending', 'paid', 'reversed'] as const;

type MovementRow = Pick<
  PaymentListItem,
  'id' | 'number' | 'date' | 'method' | 'amount' | 'unallocatedAmount' | 'currency'
>;

/** What a kind of movement's list needs besides its texts: where its view is. */
export interface MovementListKind extends MovementFormTexts {
  /** `/payments`, `/collections`: the list, its `create` and its `view/<id>`. */
  path: string;
}

/** Number (a link to the view), date, the party, method, amount, on account and status. */
export function useMovementColumns<Row extends MovementRow>(
  kind: MovementListKind,
  own: { party: Column<Row>; status: Column<Row> },
): Column<Row>[] {
  const { t } = useTranslation(kind.namespaces);
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  return [
    {
      key: 'number',
      header: t('fields.number'),
      sortable: true,
      primary: true,
      cell: (row) => (
        <Link to={`${kind.path}/view/${row.id}`} className="fw-semibold" data-testid={`${kind.testIdPrefix}-link`}>
          {row.number}
        </Link>
      ),
    },
    { key: 'date', header: t('fields.date'), sortable: true, className: 'text-nowrap', cell: (row) => day(row.date) },
    own.party,
    { key: 'method', header: t('fields.method'), cell: (row) => t(`payments:methods.${row.method}`) },
    {
      key: 'amount',
      header: t('fields.amount'),
      sortable: true,
      className: 'text-end text-nowrap',
      cell: (row) => money(row.amount, row.currency),
    },
    {
      key: 'onAccount',
      header: t('fields.onAccount'),
      className: 'text-end text-nowrap',
      cell: (row) => money(row.unallocatedAmount, row.currency),
    },
    own.status,
  ];
}

/** The list's search and, for who may write, the button to a new movement. */
export function MovementsToolbar({
  kind,
  searchText,
  onSearch,
  canWrite,
}: {
  kind: MovementListKind;
  searchText: string;
  onSearch: (text: string) => void;
  canWrite: boolean;
}) {
  const { t } = useTranslation(kind.namespaces);
  return (
    <div className="card-header list-toolbar">
      <SearchBox
        label={t('list.search')}
        placeholder={t('list.searchPlaceholder')}
        value={searchText}
        autoComplete="off"
        data-testid={`${kind.path.slice(1)}-search`}
        onChange={(event) => onSearch(event.target.value)}
      />
      {canWrite ? (
        <Link to={`${kind.path}/create`} className="btn btn-primary" data-testid={`${kind.testIdPrefix}-create`}>
          <Plus size={16} aria-hidden="true" className="me-2" />
          {t('list.create')}
        </Link>
      ) : null}
    </div>
  );
}

/** The status filter: any, pending, paid, reversed. */
export function MovementStatusFilter({
  kind,
  value,
  onChange,
}: {
  kind: MovementListKind;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation(kind.namespaces);
  return (
    <FilterSelect
      visibleLabel
      className=""
      label={t('fields.status')}
      value={value}
      onChange={onChange}
      options={optionsWithAny(t('list.anyStatus'), movementStatuses, (status) => t(`statuses.${status}`))}
    />
  );
}

/** A row that opens the movement's view when clicked outside its links. */
export function useMovementRowProps(kind: MovementListKind): NonNullable<DataTableProps<MovementRow>['rowProps']> {
  const navigate = useNavigate();
  return (row) => ({
    'data-testid': `${kind.testIdPrefix}-row`,
    'data-number': row.number,
    className: 'data-table-row',
    onClick: openRowOnClick(navigate, `${kind.path}/view/${row.id}`),
  });
}
