import type { Patient } from '@odontia/shared/schemas/patients';
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable } from '../../components/data-table';
import { useListState } from '../../lib/use-list-state';
import { recordPaths, useRecordList } from '../medical-history/api';
import { useCanWriteClinical } from '../medical-history/clinical-frame';
import { useCalendarDate } from '../medical-history/form-bits';

const pageSize = 10;

/** The "Recetas" tab of the medical history: newest first, paginated on the server. */
export function PrescriptionsTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('prescriptions');
  const canWrite = useCanWriteClinical();
  const date = useCalendarDate();
  const { page, setPage } = useListState();
  const query = useRecordList('prescription', patient.id, page, pageSize);
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
      <DataTable
        label={t('caption')}
        className="table-hover mh-table"
        compact
        query={query}
        rowKey={(record) => record.id}
        rowProps={() => ({ 'data-testid': 'prescription-row' })}
        emptyText={t('empty')}
        emptyTestId="empty-prescription"
        errorText={t('loadError')}
        retryText={t('retry')}
        pagination={{ page, pageSize, onPage: setPage, label: t('pages'), onlyWhenNeeded: true }}
        columns={[
          { key: 'date', header: t('fields.date'), className: 'text-nowrap', cell: (record) => date(record.date) },
          {
            key: 'lines',
            header: t('fields.lines'),
            primary: true,
            className: 'mh-text-cell',
            cell: (record) => (
              <Link
                to={recordPaths.show('prescription', patient.id, record.id)}
                className="fw-semibold record-link"
                data-testid="prescription-link"
              >
                {record.lines.map((line) => line.medicine).join(', ')}
              </Link>
            ),
          },
          {
            key: 'diagnosis',
            header: t('fields.diagnosis'),
            className: 'mh-text-cell',
            cell: (record) => record.diagnosis ?? '—',
          },
          {
            key: 'professional',
            header: t('fields.professional'),
            className: 'text-nowrap',
            cell: (record) => record.professionalName,
          },
          {
            key: 'code',
            header: t('code'),
            className: 'text-nowrap',
            cell: (record) => <code className="text-body">{record.verificationCode}</code>,
          },
        ]}
      />
    </div>
  );
}
