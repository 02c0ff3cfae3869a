import '../../lib/zod-setup';
import type { DocumentStatus } from '@odontia/shared/commercial';
import type { Currency, DocumentType } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ListCard, NewButton, openRowOnClick } from '../../components/list-card';
import { useListState } from '../../lib/use-list-state';
import { useSessionUser } from '../../session/session';
import { DateRangeFilter } from './date-range-filter';
import { DocumentStatusBadge, DocumentTypeBadge } from './document-badges';
import { isDay, PartyFilter, TypeAndStatusFilters, useDocumentColumns } from './document-list-parts';
import type { DocumentListFilters, DocumentSide } from './document-side';

const pageSize = 20;

/** What every list row of documents carries. */
export interface DocumentListRow {
  id: string;
  documentType: DocumentType;
  status: DocumentStatus;
  date: string;
  dueDate: string | null;
  total: string;
  openAmount: string;
  currency: Currency;
}

/** `/sales`, `/purchases`: a side's documents with search, filters, sort and pages in the URL. */
export function DocumentList<Row extends DocumentListRow, Item, Filters extends DocumentListFilters>({
  side,
}: {
  side: DocumentSide<Row, Item, Filters>;
}) {
  const { namespace, party, testIdPrefix } = side;
  const { t } = useTranslation(namespace);
  const navigate = useNavigate();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const list = useListState({
    sort: '-date',
    filters: [...party.filterNames, 'documentType', 'status', ...side.list.dateNames],
    debounceMs: 250,
  });
  const [partyText, setPartyText] = useState('');
  const filters = side.list.filtersOf(list.filters, list.search, list.sort);
  const [fromName, toName] = side.list.dateNames;
  const dates: [string, string] = [isDay(list.filters[fromName] ?? ''), isDay(list.filters[toName] ?? '')];
  const query = side.list.useList({ ...filters, page: list.page, pageSize });
  const columns = useDocumentColumns<Row>(namespace, {
    number: {
      key: 'documentNumber',
      header: t(side.list.numberLabelKey),
      sortable: true,
      primary: true,
      cell: (row) => (
        <span className="d-flex flex-column align-items-start gap-1">
          <Link to={side.pathOf(row.id)} className="fw-semibold">
            {side.list.numberText(row) ?? t('list.noNumber')}
          </Link>
          <DocumentTypeBadge side={side} type={row.documentType} />
        </span>
      ),
    },
    party: { key: party.columnKey, header: t(party.labelKey), cell: (row) => party.nameOf(row) ?? '—' },
    status: {
      key: 'status',
      header: t('fields.status'),
      cell: (row) => <DocumentStatusBadge side={side} status={row.status} />,
    },
  });
  const partyChosen = party.filterNames.some((name) => list.filters[name]);
  // A party filter the URL brought back (reload, Back) shows the party's name from its rows.
  const shownParty = partyChosen ? query.data?.data.find((row) => party.rowMatches(row, list.filters)) : undefined;
  const shownName = shownParty ? party.nameOf(shownParty) : null;
  useEffect(() => {
    if (partyChosen && !partyText && shownName) setPartyText(shownName);
  }, [partyChosen, partyText, shownName]);
  const filtered = Object.entries(filters).some(([name, value]) => name !== 'sort' && Boolean(value));
  const clearParty = () => {
    setPartyText('');
    for (const name of party.filterNames) list.setFilter(name, '');
  };
  const { Tools } = side.list;
  const create = canWrite ? (
    <NewButton label={t('list.create')} to={`${side.listPath}/create`} testId={side.list.createTestId} />
  ) : null;

  return (
    <ListCard<Row>
      ns={namespace}
      list={list}
      pageSize={pageSize}
      testId={`${testIdPrefix}-list`}
      searchPlaceholder={t('list.searchPlaceholder')}
      searchTestId={`${testIdPrefix}-search`}
      tools={
        Tools ? (
          <div className="d-flex flex-wrap gap-2">
            <Tools />
            {create}
          </div>
        ) : (
          create
        )
      }
      filtersClassName="d-flex flex-wrap gap-3 align-items-end"
      filters={
        <>
          <PartyFilter
            label={t(party.labelKey)}
            minWidth={party.listFilter.minWidth}
            active={partyChosen}
            onClear={clearParty}
            clearLabel={t(party.listFilter.clearKey)}
          >
            {(inputId) => (
              <party.Picker
                id={inputId}
                value={partyText}
                onText={(text) => {
                  setPartyText(text);
                  if (!text) clearParty();
                }}
                onPick={(item) => {
                  const picked = party.picked(item);
                  setPartyText(picked.name);
                  for (const [name, value] of Object.entries(picked.filters)) list.setFilter(name, value);
                }}
                placeholder={t(party.listFilter.anyKey)}
              />
            )}
          </PartyFilter>
          <TypeAndStatusFilters
            namespace={namespace}
            types={side.types}
            statuses={side.statuses}
            type={filters.documentType}
            status={filters.status}
            onChange={list.setFilter}
          />
          <DateRangeFilter
            names={side.list.dateNames}
            values={dates}
            labels={[t('list.from'), t('list.to')]}
            onChange={list.setFilter}
          />
        </>
      }
      className="table-hover"
      columns={columns}
      query={query}
      rowKey={(row) => row.id}
      rowProps={(row) => ({
        'data-testid': `${testIdPrefix}-row`,
        className: 'data-table-row',
        onClick: openRowOnClick(navigate, side.pathOf(row.id)),
      })}
      emptyText={filtered ? t('list.noMatches') : t('list.empty')}
      emptyTestId={`${testIdPrefix}-empty`}
    />
  );
}
