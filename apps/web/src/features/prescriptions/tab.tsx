import type { Patient } from '@odontia/shared/schemas/patients';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PaginationFooter } from '../../components/pagination-footer';
import { TableBodyState } from '../../components/table-body-state';
import { recordPaths, useRecordList } from '../medical-history/api';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import { useCalendarDate } from '../medical-history/form-bits';

const pageSize = 10;

/** The "Recetas" tab of the medical history: newest first, paginated on the server. */
export function PrescriptionsTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('prescriptions');
  const canWrite = useCanWriteClinical();
  const date = useCalendarDate();
  const [page, setPage] = useState(1);
  const query = useRecordList('prescription', patient.id, page, pageSize);
  const rows = query.data?.data ?? [];
  const headers = [t('fields.date'), t('fields.lines'), t('fields.diagnosis'), t('fields.professional'), t('code')];
  return (
    <div data-testid="tab-prescription">
      <div className="mh-toolbar">
        <span className="text-body-secondary small me-auto">
          {query.data ? t('count', { count: query.data.total }) : null}
        </span>
        {canWrite ? (
          <Link
            to={recordPaths.create('prescription', patient.id)}
            className="btn btn-primary btn-sm"
            data-testid="new-prescription"
          >
            <Plus size={16} aria-hidden="true" className="me-1" />
            {t('new')}
          </Link>
        ) : null}
      </div>
      <div className="table-responsive">
        <table className="table table-hover align-middle mb-0 data-table mh-table" aria-busy={query.isFetching}>
          <caption className="visually-hidden">{t('caption')}</caption>
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
              emptyText={t('empty')}
              emptyTestId="empty-prescription"
              errorText={t('loadError')}
              retryText={t('retry')}
              compact
            >
              {rows.map((record) => (
                <tr key={record.id} data-testid="prescription-row">
                  <td className="text-nowrap">{date(record.date)}</td>
                  <td className="mh-text-cell">
                    <Link
                      to={recordPaths.show('prescription', patient.id, record.id)}
                      className="fw-semibold record-link"
                      data-testid="prescription-link"
                    >
                      {record.lines.map((line) => line.medicine).join(', ')}
                    </Link>
                  </td>
                  <td className="mh-text-cell">{record.diagnosis ?? '—'}</td>
                  <td className="text-nowrap">{record.professionalName}</td>
                  <td className="text-nowrap">
                    <code className="text-body">{record.verificationCode}</code>
                  </td>
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
          label={t('pages')}
        />
      ) : null}
    </div>
  );
}
