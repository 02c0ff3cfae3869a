import type { Authorization } from '@odontia/shared/schemas/authorizations';
import type { Patient } from '@odontia/shared/schemas/patients';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PaginationFooter } from '../../components/pagination-footer';
import { TableBodyState } from '../../components/table-body-state';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import { useCalendarDate } from '../medical-history/form-bits';
import { authorizationPaths, useAuthorizations } from './api';
import { StatusBadge } from './authorization-view';

const pageSize = 10;
const filters = ['', 'unsigned', 'signed'] as const;

/** The "Autorizaciones" tab of the medical history: newest first, paginated, by status. */
export function AuthorizationsTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('authorizations');
  const canWrite = useCanWriteClinical();
  const date = useCalendarDate();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<(typeof filters)[number]>('');
  const query = useAuthorizations(patient.id, page, pageSize, status || undefined);
  const rows: Authorization[] = query.data?.data ?? [];
  const headers = [
    t('fields.date'),
    t('fields.title'),
    t('fields.treatment'),
    t('fields.status'),
    t('fields.professional'),
  ];
  return (
    <div data-testid="tab-authorizations">
      <div className="mh-toolbar">
        <select
          className="form-select form-select-sm w-auto"
          value={status}
          aria-label={t('fields.status')}
          onChange={(event) => {
            setStatus(event.target.value as (typeof filters)[number]);
            setPage(1);
          }}
          data-testid="authorization-status-filter"
        >
          {filters.map((value) => (
            <option key={value} value={value}>
              {value ? t(`statuses.${value}`) : t('list.all')}
            </option>
          ))}
        </select>
        <span className="text-body-secondary small me-auto">
          {query.data ? t('list.count', { count: query.data.total }) : null}
        </span>
        {canWrite ? (
          <Link
            to={authorizationPaths.create(patient.id)}
            className="btn btn-primary btn-sm"
            data-testid="new-authorization"
          >
            <Plus size={16} aria-hidden="true" className="me-1" />
            {t('list.new')}
          </Link>
        ) : null}
      </div>
      <div className="table-responsive">
        <table className="table table-hover align-middle mb-0 data-table mh-table" aria-busy={query.isFetching}>
          <thead>
            <tr>
              {headers.map((header) => (
                <th scope="col" key={header}>
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <TableBodyState
              query={query}
              columns={headers.length}
              isEmpty={rows.length === 0}
              emptyText={t('list.empty')}
              emptyTestId="empty-authorization"
              errorText={t('common.loadError')}
              retryText={t('common.retry')}
              compact
            >
              {rows.map((record) => (
                <tr key={record.id} data-testid="authorization-row">
                  <td className="text-nowrap">{date(record.date)}</td>
                  <td className="mh-text-cell">
                    <Link
                      to={authorizationPaths.show(patient.id, record.id)}
                      className="fw-semibold record-link"
                      data-testid="authorization-link"
                    >
                      {record.title}
                    </Link>
                  </td>
                  <td className="mh-text-cell">{record.treatment}</td>
                  <td>
                    <StatusBadge status={record.status} />
                  </td>
                  <td className="text-nowrap">{record.professionalName}</td>
                </tr>
              ))}
            </TableBodyState>
          </tbody>
        </table>
      </div>
      {(query.data?.total ?? 0) > pageSize ? (
        <PaginationFooter
          page={page}
          pageSize={pageSize}
          total={query.data?.total ?? 0}
          onPage={setPage}
          label={t('list.pages')}
        />
      ) : null}
    </div>
  );
}
