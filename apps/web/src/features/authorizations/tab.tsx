import type { Authorization } from '@odontia/shared/schemas/authorizations';
import type { Patient } from '@odontia/shared/schemas/patients';
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table';
import { IconLink } from '../../components/icon-link';
import { ValueOptions } from '../../components/value-options';
import { pagesOf, useListState } from '../../lib/use-list-state';
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
  const list = useListState({ filters: ['status'] });
  const status = filters.find((value) => value === list.filters.status) ?? '';
  const query = useAuthorizations(patient.id, list.page, pageSize, status || undefined);
  return (
    <div data-testid="tab-authorizations">
      <div className="mh-toolbar">
        <select
          className="form-select form-select-sm w-auto"
          value={status}
          aria-label={t('fields.status')}
          onChange={(event) => list.setFilter('status', event.target.value)}
          data-testid="authorization-status-filter"
        >
          <ValueOptions values={filters} label={(value) => (value ? t(`statuses.${value}`) : t('list.all'))} />
        </select>
        <span className="text-body-secondary small me-auto">
          {query.data ? t('list.count', { count: query.data.total }) : null}
        </span>
        {canWrite ? (
          <IconLink
            to={authorizationPaths.create(patient.id)}
            className="btn btn-primary btn-sm"
            icon={Plus}
            iconClassName="me-1"
            testId="new-authorization"
          >
            {t('list.new')}
          </IconLink>
        ) : null}
      </div>
      <DataTable<Authorization>
        label={t('list.caption')}
        className="table-hover mh-table"
        compact
        query={query}
        rowKey={(record) => record.id}
        rowProps={() => ({ 'data-testid': 'authorization-row' })}
        emptyText={t('list.empty')}
        emptyTestId="empty-authorization"
        errorText={t('common.loadError')}
        retryText={t('common.retry')}
        pagination={{ ...pagesOf(list, pageSize), label: t('list.pages'), onlyWhenNeeded: true }}
        columns={[
          { key: 'date', header: t('fields.date'), className: 'text-nowrap', cell: (record) => date(record.date) },
          {
            key: 'title',
            header: t('fields.title'),
            primary: true,
            className: 'mh-text-cell',
            cell: (record) => (
              <Link
                to={authorizationPaths.show(patient.id, record.id)}
                className="fw-semibold record-link"
                data-testid="authorization-link"
              >
                {record.title}
              </Link>
            ),
          },
          { key: 'treatment', header: t('fields.treatment'), className: 'mh-text-cell', cell: (r) => r.treatment },
          { key: 'status', header: t('fields.status'), cell: (record) => <StatusBadge record={record} /> },
          {
            key: 'professional',
            header: t('fields.professional'),
            className: 'text-nowrap',
            cell: (record) => record.professionalName,
          },
        ]}
      />
    </div>
  );
}
