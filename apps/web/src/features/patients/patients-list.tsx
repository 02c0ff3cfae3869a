import type { PatientListItem } from '@odontia/shared/schemas/patients';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { Column } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { ActiveFilterSelect, ListCard, NewButton, openRowOnClick } from '../../components/list-card';
import { useListState } from '../../lib/use-list-state';
import { useMediaQuery } from '../../lib/use-media-query';
import { useInstantFormat } from '../../session/clinic-time';
import { type ActiveFilter, patientPaths, usePatientsList } from './api';
import { AlertsBadge, PatientStatusBadge } from './badges';
import { patientName, patientPhone } from './format';

const pageSize = 20;
const sortOptions = ['lastName', 'firstName', 'skuPatient', '-birthdate', 'birthdate', '-createdAt'] as const;
const activeFilters = ['all', 'true', 'false'] as const satisfies readonly ActiveFilter[];

const none = <span className="text-body-secondary">—</span>;
/** A missing phone or e-mail: no "—" line on a phone's card. */
const missing = <span className="text-body-secondary is-empty">—</span>;

/**
 * The table's age column is the server's birthdate the other way round (age ascending is the
 * latest birthdate first); the keys of both sides differ, so one map translates either way.
 */
const ageSort: Record<string, string> = {
  age: '-birthdate',
  '-age': 'birthdate',
  birthdate: '-age',
  '-birthdate': 'age',
};

function usePatientColumns(): Column<PatientListItem>[] {
  const { t } = useTranslation('patients');
  const { t: tDashboard } = useTranslation('dashboard');
  const when = useInstantFormat('dateTime');
  return [
    {
      key: 'lastName',
      header: t('list.patient'),
      sortable: true,
      primary: true,
      className: 'patient-name',
      cell: (patient) => (
        <>
          <div className="d-flex align-items-center gap-2">
            <Link
              to={patientPaths.history(patient.id)}
              className="fw-semibold link-body-emphasis text-decoration-none"
              data-testid="patient-link"
            >
              {patientName(patient)}
            </Link>
            <AlertsBadge patient={patient} />
          </div>
          <div className="small text-body-secondary">
            <span className="visually-hidden">{t('fields.skuPatient')}: </span>
            {patient.skuPatient}
          </div>
        </>
      ),
    },
    {
      key: 'ssn',
      header: t('fields.ssnShort'),
      className: 'patient-ssn',
      cell: (patient) => (
        <>
          <span className="patient-label">{t('fields.ssnShort')}: </span>
          {patient.ssn ?? none}
        </>
      ),
    },
    {
      key: 'age',
      header: t('fields.age'),
      sortable: true,
      className: 'patient-age text-nowrap',
      cell: (patient) => t('list.years', { count: patient.age }),
    },
    {
      key: 'phone',
      header: t('fields.phone'),
      className: 'patient-phone text-nowrap',
      cell: (patient) => patientPhone(patient) ?? missing,
    },
    {
      key: 'email',
      header: t('fields.email'),
      className: 'patient-email',
      cell: (patient) => patient.email ?? missing,
    },
    {
      key: 'nextAppointment',
      header: tDashboard('patientsList.nextAppointment'),
      className: 'patient-next-appointment',
      cell: (patient) =>
        patient.nextAppointment ? (
          <span data-testid="patient-next-appointment">
            <span className="text-nowrap">{when(patient.nextAppointment.startsAt)}</span>
            <span className="small text-body-secondary d-block">{patient.nextAppointment.professionalName}</span>
          </span>
        ) : (
          missing
        ),
    },
    {
      key: 'status',
      header: t('list.status'),
      className: 'patient-status',
      cell: (patient) => <PatientStatusBadge active={patient.active} />,
    },
  ];
}

/** `/patients`: the clinic's patients, searched as you type, filtered, sorted and paginated by the server. */
/** `tools`: what the page adds beside the search (another feature's button). */
export function PatientsList({ canWrite, tools }: { canWrite: boolean; tools?: ReactNode }) {
  const { t } = useTranslation(['patients', 'common']);
  const navigate = useNavigate();
  const phone = useMediaQuery('(max-width: 767.98px)');
  const list = useListState({ sort: 'lastName', filters: ['active'], debounceMs: 250 });
  const active = (activeFilters as readonly string[]).includes(list.filters.active)
    ? (list.filters.active as ActiveFilter)
    : 'all';
  const q = list.search;
  const query = usePatientsList({ q, sort: list.sort, active, page: list.page, pageSize });
  const columns = usePatientColumns();

  return (
    <ListCard<PatientListItem>
      ns="patients"
      list={list}
      pageSize={pageSize}
      testId="patients-list"
      cardClassName="patients-card"
      searchPlaceholder={t(phone ? 'list.searchPlaceholderShort' : 'list.searchPlaceholder')}
      searchTestId="patients-search"
      tools={
        <>
          {tools}
          {canWrite ? <NewButton label={t('list.create')} to={patientPaths.create} /> : null}
        </>
      }
      filters={
        <>
          <ActiveFilterSelect
            ns="patients"
            testId="patients-active"
            value={active}
            onChange={(value) => list.setFilter('active', value === 'all' ? '' : value)}
          />
          <FilterSelect
            label={t('list.sortBy')}
            visibleLabel
            className="list-filter"
            testId="patients-sort"
            value={list.sort}
            onChange={list.setSort}
            options={[
              // An address-bar sort this list does not offer stays selected, unnamed.
              ...((sortOptions as readonly string[]).includes(list.sort) ? [] : [{ value: list.sort, label: '—' }]),
              ...sortOptions.map((option) => ({ value: option, label: t(`list.sort.${option}`) })),
            ]}
          />
        </>
      }
      className="table-hover patients-table"
      columns={columns}
      query={query}
      rowKey={(patient) => patient.id}
      rowProps={(patient) => ({
        'data-testid': 'patient-row',
        'data-sku': patient.skuPatient,
        className: `data-table-row patient-row${patient.active ? '' : ' text-body-secondary'}`,
        // The name is a link of its own; a click elsewhere on the row opens the history too.
        onClick: openRowOnClick(navigate, patientPaths.history(patient.id)),
      })}
      sort={{
        value: ageSort[list.sort] ?? list.sort,
        onSort: (sort) => list.setSort(ageSort[sort] ?? sort),
      }}
      emptyText={q ? t('list.noMatches', { q }) : active !== 'all' ? t('list.noFilterMatches') : t('list.empty')}
      emptyTestId="patients-empty"
      rangeTestId="patients-range"
    />
  );
}
