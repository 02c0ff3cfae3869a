import { X } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/data-table';
import { FilterSelect, optionsWithAny } from '../../components/filter-select';
import { useCalendarDateFormat } from '../../session/clinic-time';
import type { DocumentNamespace } from './document-lines';
import { useDocumentMoney } from './money-format';

/** The URL's value when it is one of `values`, else no filter. */
export const oneOf = <T extends string>(values: readonly T[], value: string): T | '' =>
  (values as readonly string[]).includes(value) ? (value as T) : '';

/** The URL's value when it is a calendar day, else no filter. */
export const isDay = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');

interface DocumentRow {
  date: string;
  dueDate: string | null;
  total: string;
  openAmount: string;
  currency: Parameters<ReturnType<typeof useDocumentMoney>>[1];
}

/**
 * A list of documents' columns: date, the domain's number, party and status columns, then due
 * date, total and what is still open.
 */
export function useDocumentColumns<Row extends DocumentRow>(
  namespace: DocumentNamespace,
  own: { number: Column<Row>; party: Column<Row>; status: Column<Row> },
): Column<Row>[] {
  const { t } = useTranslation(namespace);
  const money = useDocumentMoney();
  const day = useCalendarDateFormat();
  return [
    { key: 'date', header: t('fields.date'), sortable: true, cell: (row) => day(row.date) },
    own.number,
    own.party,
    own.status,
    { key: 'dueDate', header: t('fields.dueDate'), sortable: true, cell: (row) => day(row.dueDate) },
    {
      key: 'total',
      header: t('fields.total'),
      sortable: true,
      className: 'text-end',
      cell: (row) => money(row.total, row.currency),
    },
    {
      key: 'openAmount',
      header: t('fields.openAmount'),
      className: 'text-end',
      cell: (row) => money(row.openAmount, row.currency),
    },
  ];
}

/** The party filter: its picker (`children`, given the input's id) and a button that clears it. */
export function PartyFilter({
  label,
  minWidth,
  active,
  onClear,
  clearLabel,
  children,
}: {
  label: string;
  minWidth: string;
  /** Whether a party is chosen (the clear button shows). */
  active: boolean;
  onClear: () => void;
  clearLabel: string;
  children: (inputId: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div style={{ minWidth }}>
      <label className="form-label small mb-1" htmlFor={`${id}-party`}>
        {label}
      </label>
      <div className="d-flex gap-1">
        {children(`${id}-party`)}
        {active ? (
          <button type="button" className="btn btn-outline-secondary" onClick={onClear} aria-label={clearLabel}>
            <X size={16} aria-hidden="true" />
          </button>
        ) : null}
      </div>
    </div>
  );
}

/** The document type and status filters, any of each first. */
export function TypeAndStatusFilters({
  namespace,
  types,
  statuses,
  type,
  status,
  onChange,
}: {
  namespace: DocumentNamespace;
  types: readonly string[];
  statuses: readonly string[];
  type: string;
  status: string;
  onChange: (name: 'documentType' | 'status', value: string) => void;
}) {
  const { t } = useTranslation(namespace);
  const filters = [
    { name: 'documentType', label: t('fields.documentType'), value: type, values: types, words: 'types' },
    { name: 'status', label: t('fields.status'), value: status, values: statuses, words: 'statuses' },
  ] as const;
  const anyLabel = { documentType: t('list.anyType'), status: t('list.anyStatus') };
  return (
    <>
      {filters.map((filter) => (
        <FilterSelect
          key={filter.name}
          label={filter.label}
          value={filter.value}
          visibleLabel
          className=""
          onChange={(value) => onChange(filter.name, value)}
          options={optionsWithAny(anyLabel[filter.name], filter.values, (value) => t(`${filter.words}.${value}`))}
        />
      ))}
    </>
  );
}
