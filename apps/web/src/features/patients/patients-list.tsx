import type { Patient } from '@odontia/shared/schemas/patients';
import { ArrowDown, ArrowUp, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PaginationFooter } from '../../components/pagination-footer';
import { SearchBox } from '../../components/search-box';
import { SortHeader } from '../../components/sort-header';
import { TableBodyState } from '../../components/table-body-state';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useMediaQuery } from '../../lib/use-media-query';
import { VerifyPrescriptionButton } from '../prescriptions/verify-modal';
import { type ActiveFilter, patientPaths, usePatientsList } from './api';
import { AlertsBadge, PatientStatusBadge } from './badges';
import { patientName, patientPhone } from './format';

const pageSize = 20;
const columns = 6;
const sortOptions = ['lastName', 'firstName', 'skuPatient', '-birthdate', 'birthdate', '-createdAt'] as const;

const none = <span className="text-body-secondary">—</span>;

function PatientRow({ patient, onOpen }: { patient: Patient; onOpen: () => void }) {
  const { t } = useTranslation('patients');
  const phone = patientPhone(patient);
  return (
    <tr
      data-testid="patient-row"
      data-sku={patient.skuPatient}
      className={`patient-row${patient.active ? '' : ' text-body-secondary'}`}
      onClick={(event) => {
        // The name is a link of its own; a click elsewhere on the row opens the history too.
        if (!(event.target as HTMLElement).closest('a')) onOpen();
      }}
    >
      <td className="patient-name">
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
      </td>
      <td className="patient-ssn">
        <span className="patient-label">{t('fields.ssnShort')}: </span>
        {patient.ssn ?? none}
      </td>
      <td className="patient-age text-nowrap">{t('list.years', { count: patient.age })}</td>
      <td className={`patient-phone text-nowrap${phone ? '' : ' is-empty'}`}>{phone ?? none}</td>
      <td className={`patient-email${patient.email ? '' : ' is-empty'}`}>{patient.email ?? none}</td>
      <td className="patient-status">
        <PatientStatusBadge active={patient.active} />
      </td>
    </tr>
  );
}

/** `/patients`: the clinic's patients, searched as you type, filtered, sorted and paginated by the server. */
export function PatientsList({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation(['patients', 'common']);
  const navigate = useNavigate();
  const id = useId();
  const phone = useMediaQuery('(max-width: 767.98px)');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState('lastName');
  const [active, setActive] = useState<ActiveFilter>('all');
  const q = useDebouncedValue(search.trim(), 250);
  const query = usePatientsList({ q, sort, active, page, pageSize });
  const rows = query.data?.data ?? [];
  const total = query.data?.total ?? 0;

  const onSort = (value: string) => {
    setSort(value);
    setPage(1);
  };
  // Age ascending is the latest birthdate first.
  const ageDirection = sort === '-birthdate' ? 'ascending' : sort === 'birthdate' ? 'descending' : undefined;

  return (
    <section className="card patients-card" data-testid="patients-list">
      <div className="card-header list-toolbar">
        <SearchBox
          label={t('list.search')}
          placeholder={t(phone ? 'list.searchPlaceholderShort' : 'list.searchPlaceholder')}
          value={search}
          autoComplete="off"
          data-testid="patients-search"
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
        <VerifyPrescriptionButton />
        {canWrite ? (
          <Link to={patientPaths.create} className="btn btn-primary">
            <Plus size={16} aria-hidden="true" className="me-2" />
            {t('list.create')}
          </Link>
        ) : null}
      </div>
      <div className="card-body border-bottom list-filters">
        <div className="list-filter">
          <label htmlFor={`${id}-active`} className="form-label small mb-1">
            {t('list.status')}
          </label>
          <select
            id={`${id}-active`}
            className="form-select form-select-sm"
            value={active}
            data-testid="patients-active"
            onChange={(event) => {
              setActive(event.target.value as ActiveFilter);
              setPage(1);
            }}
          >
            <option value="all">{t('list.statusAll')}</option>
            <option value="true">{t('list.statusActive')}</option>
            <option value="false">{t('list.statusInactive')}</option>
          </select>
        </div>
        <div className="list-filter">
          <label htmlFor={`${id}-sort`} className="form-label small mb-1">
            {t('list.sortBy')}
          </label>
          <select
            id={`${id}-sort`}
            className="form-select form-select-sm"
            value={sort}
            data-testid="patients-sort"
            onChange={(event) => onSort(event.target.value)}
          >
            {(sortOptions as readonly string[]).includes(sort) ? null : <option value={sort}>—</option>}
            {sortOptions.map((option) => (
              <option key={option} value={option}>
                {t(`list.sort.${option}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="table-responsive">
        <table className="table table-hover align-middle mb-0 data-table patients-table" aria-busy={query.isFetching}>
          <caption className="visually-hidden">{t('list.caption')}</caption>
          <thead>
            <tr>
              <SortHeader column="lastName" sort={sort} onSort={onSort} label={t('list.patient')} />
              <th scope="col">{t('fields.ssnShort')}</th>
              <th scope="col" aria-sort={ageDirection ?? 'none'}>
                <button
                  type="button"
                  className="btn btn-link p-0 sort-button"
                  onClick={() => onSort(ageDirection === 'ascending' ? 'birthdate' : '-birthdate')}
                >
                  {t('fields.age')}
                  {ageDirection === 'ascending' ? <ArrowUp size={14} aria-hidden="true" className="ms-1" /> : null}
                  {ageDirection === 'descending' ? <ArrowDown size={14} aria-hidden="true" className="ms-1" /> : null}
                </button>
              </th>
              <th scope="col">{t('fields.phone')}</th>
              <th scope="col">{t('fields.email')}</th>
              <th scope="col">{t('list.status')}</th>
            </tr>
          </thead>
          <tbody>
            <TableBodyState
              query={query}
              columns={columns}
              isEmpty={rows.length === 0}
              emptyText={
                q ? t('list.noMatches', { q }) : active !== 'all' ? t('list.noFilterMatches') : t('list.empty')
              }
              emptyTestId="patients-empty"
              errorText={t('list.loadError')}
              retryText={t('list.retry')}
            >
              {rows.map((patient) => (
                <PatientRow
                  key={patient.id}
                  patient={patient}
                  onOpen={() => void navigate(patientPaths.history(patient.id))}
                />
              ))}
            </TableBodyState>
          </tbody>
        </table>
      </div>
      <PaginationFooter
        page={page}
        pageSize={pageSize}
        total={total}
        totalIsLowerBound={query.data?.totalIsLowerBound}
        onPage={setPage}
        label={t('list.pagination')}
        testId="patients-range"
      />
    </section>
  );
}
