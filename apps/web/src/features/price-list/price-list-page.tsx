import { can } from '@odontia/shared/permissions';
import type { Treatment } from '@odontia/shared/schemas/schedules';
import { Upload } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/data-table';
import { editByNameColumn } from '../../components/edit-by-name-column';
import { ListFilter } from '../../components/filter-select';
import {
  ActiveFilterSelect,
  activeColumn,
  activeRowProps,
  ExportButton,
  ListCard,
  NewButton,
} from '../../components/list-card';
import { PageTitle } from '../../components/page-title';
import { useListState } from '../../lib/use-list-state';
import { useSessionUser } from '../../session/session';
import { useMoneyFormat } from '../inventory/format';
import { type ActiveFilter, type PriceListFilters, priceListApi, usePriceList, useTreatmentGroups } from './api';
import { ImportDialog } from './import-dialog';
import { TreatmentDialog } from './treatment-dialog';
import './price-list.css';
import { IconTextButton } from '../../components/icon-button';

const pageSize = 25;
const missing = <span className="text-body-secondary is-empty">—</span>;

function usePercent() {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? i18n.language, { maximumFractionDigits: 2 });
  return (value: string) => `${format.format(Number(value))} %`;
}

function useColumns(canWrite: boolean, onEdit: (treatment: Treatment) => void): Column<Treatment>[] {
  const { t } = useTranslation('priceList');
  const money = useMoneyFormat();
  const percent = usePercent();
  const columns: Column<Treatment>[] = [
    {
      key: 'group',
      header: t('fields.group'),
      sortable: true,
      className: 'price-group',
      cell: (row) => row.groupName ?? missing,
    },
    {
      key: 'code',
      header: t('fields.code'),
      sortable: true,
      className: 'price-code text-nowrap',
      cell: (row) => row.code ?? missing,
    },
    {
      key: 'name',
      header: t('fields.name'),
      sortable: true,
      primary: true,
      className: 'price-name',
      cell: (row) => (
        <span className="d-inline-flex align-items-center gap-2">
          <span
            className="price-swatch flex-shrink-0"
            style={{ backgroundColor: row.color ?? 'transparent' }}
            aria-hidden="true"
          />
          <span className="fw-semibold">{row.name}</span>
        </span>
      ),
    },
    {
      key: 'duration',
      header: t('fields.durationShort'),
      className: 'price-duration text-end text-nowrap',
      cell: (row) => t('minutes', { count: row.durationMinutes }),
    },
    {
      key: 'price',
      header: t('fields.price'),
      sortable: true,
      className: 'price-price text-end text-nowrap',
      cell: (row) => <span data-testid="treatment-price">{money(row.price)}</span>,
    },
    {
      key: 'vat',
      header: t('fields.vatShort'),
      className: 'price-vat text-end text-nowrap',
      cell: (row) => percent(row.vatRate),
    },
    activeColumn(t('fields.active'), { active: t('badge.active'), inactive: t('badge.inactive') }, 'price-status'),
  ];
  return canWrite
    ? [...columns, editByNameColumn(t, { onEdit, testId: 'treatment-edit', className: 'price-actions text-end' })]
    : columns;
}

/** `/price-list`: the clinic's treatments with their prices; settings.manage edits and imports. */
export function PriceListPage() {
  const { t } = useTranslation(['priceList', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'settings.manage') : false;
  const list = useListState({ sort: 'name', filters: ['active', 'group'], debounceMs: 250 });
  const [editing, setEditing] = useState<Treatment | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const groups = useTreatmentGroups();
  const active = (['all', 'true', 'false'] as string[]).includes(list.filters.active)
    ? (list.filters.active as ActiveFilter)
    : 'all';
  const filters: PriceListFilters = { q: list.search, sort: list.sort, active, group: list.filters.group };
  const query = usePriceList({ ...filters, page: list.page, pageSize });
  const columns = useColumns(canWrite, setEditing);
  const groupNames = groups.data?.data ?? [];

  return (
    <>
      <PageTitle title={t('common:pages.priceList')} />
      <p className="text-body-secondary">{t('list.intro')}</p>
      <ListCard<Treatment>
        ns="priceList"
        list={list}
        pageSize={pageSize}
        testId="price-list"
        searchPlaceholder={t('list.searchPlaceholder')}
        searchTestId="price-list-search"
        tools={
          <div className="d-flex flex-wrap gap-2">
            <ExportButton
              label={t('list.export')}
              load={() => priceListApi.export(filters)}
              fallbackName="lista-de-precios.csv"
              testId="price-list-export"
            />
            {canWrite ? (
              <>
                <IconTextButton
                  icon={Upload}
                  className="btn btn-outline-secondary"
                  onClick={() => setImporting(true)}
                  testId="price-list-import"
                >
                  {t('list.import')}
                </IconTextButton>
                <NewButton label={t('list.create')} onClick={() => setEditing('new')} testId="treatment-new" />
              </>
            ) : null}
          </div>
        }
        filters={
          <>
            <ListFilter
              list={list}
              name="group"
              label={t('fields.group')}
              testId="price-list-group"
              all={t('list.groupAll')}
              options={groupNames.map((group) => ({ value: group, label: group }))}
            />
            <ActiveFilterSelect
              ns="priceList"
              testId="price-list-active"
              value={active}
              onChange={(value) => list.setFilter('active', value === 'all' ? '' : value)}
            />
          </>
        }
        className="table-hover price-list-table"
        columns={columns}
        query={query}
        rowKey={(row) => row.id}
        rowProps={activeRowProps('treatment-row')}
        emptyTestId="price-list-empty"
        rangeTestId="price-list-range"
      />
      {editing ? (
        <TreatmentDialog
          treatment={editing === 'new' ? null : editing}
          groups={groupNames}
          onDone={() => setEditing(null)}
        />
      ) : null}
      {importing ? <ImportDialog onClose={() => setImporting(false)} /> : null}
    </>
  );
}
