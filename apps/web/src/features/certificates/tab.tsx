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

/** The "Certificados" tab of the medical history: newest first, voided ones marked. */
export function CertificatesTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('certificates');
  const canWrite = useCanWriteClinical();
  const date = useCalendarDate();
  const { page, setPage } = useListState();
  const query = useRecordList('certificate', patient.id, page, pageSize);
  return (
    <div data-testid="tab-certificate">
      <div className="mh-toolbar">
        <span className="text-body-secondary small me-auto">
          {query.data ? t('count', { count: query.data.total }) : null}
        </span>
        {canWrite ? (
          <Link
            to={recordPaths.create('certificate', patient.id)}
            className="btn btn-primary btn-sm"
            data-testid="new-certificate"
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
        rowProps={() => ({ 'data-testid': 'certificate-row' })}
        emptyText={t('empty')}
        emptyTestId="empty-certificate"
        errorText={t('loadError')}
        retryText={t('retry')}
        pagination={{ page, pageSize, onPage: setPage, label: t('pages'), onlyWhenNeeded: true }}
        columns={[
          { key: 'date', header: t('fields.date'), className: 'text-nowrap', cell: (record) => date(record.date) },
          {
            key: 'kind',
            header: t('fields.kind'),
            primary: true,
            cell: (record) => (
              <Link
                to={recordPaths.show('certificate', patient.id, record.id)}
                className="fw-semibold record-link"
                data-testid="certificate-link"
              >
                {t(`kinds.${record.kind}`)}
              </Link>
            ),
          },
          {
            key: 'addressee',
            header: t('fields.addressee'),
            className: 'mh-text-cell',
            cell: (record) => record.addressee ?? '—',
          },
          {
            key: 'professional',
            header: t('fields.professional'),
            className: 'text-nowrap',
            cell: (record) => record.professionalName,
          },
          {
            key: 'code',
            header: t('fields.verificationCode'),
            className: 'text-nowrap',
            cell: (record) => (
              <>
                <code className="text-body">{record.verificationCode}</code>
                {record.voidedAt ? (
                  <span className="badge text-bg-danger ms-2" data-testid="certificate-row-voided">
                    {t('status.voided')}
                  </span>
                ) : null}
              </>
            ),
          },
        ]}
      />
    </div>
  );
}
