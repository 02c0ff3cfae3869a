import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../components/data-table';
import { useListState } from '../../lib/use-list-state';
import { type RecordKind, type RowOf, recordPaths, useRecordList } from './api';
import { useCanWriteClinical } from './clinical-frame';
import { useCalendarDate } from './form-bits';

const pageSize = 10;

/** A row's link to the record's page (the text is the kind's own: its lines, its kind…). */
export function RecordLink({
  kind,
  patientId,
  id,
  children,
}: {
  kind: RecordKind;
  patientId: string;
  id: string;
  children: ReactNode;
}) {
  return (
    <Link to={recordPaths.show(kind, patientId, id)} className="fw-semibold record-link" data-testid={`${kind}-link`}>
      {children}
    </Link>
  );
}

/**
 * A medical-history tab that lists one kind of signed record (prescriptions, certificates): the
 * count and the "new" button, then the records newest first, paginated on the server — the date,
 * the kind's own `columns`, the professional and the verification code. The texts are the
 * namespace `ns`'s (`count`, `new`, `caption`, `empty`, `loadError`, `retry`, `pages`).
 */
export function RecordListTab<K extends 'prescription' | 'certificate'>({
  kind,
  patientId,
  ns,
  columns,
  code,
}: {
  kind: K;
  patientId: string;
  ns: string;
  columns: Column<RowOf[K]>[];
  /** The code column's header, and what its cell shows after the code (a "voided" badge). */
  code: { header: string; after?: (record: RowOf[K]) => ReactNode };
}) {
  const { t } = useTranslation(ns);
  const canWrite = useCanWriteClinical();
  const date = useCalendarDate();
  const { page, setPage } = useListState();
  const query = useRecordList(kind, patientId, page, pageSize);
  return (
    <div data-testid={`tab-${kind}`}>
      <div className="mh-toolbar">
        <span className="text-body-secondary small me-auto">
          {query.data ? t('count', { count: query.data.total }) : null}
        </span>
        {canWrite ? (
          <Link to={recordPaths.create(kind, patientId)} className="btn btn-primary btn-sm" data-testid={`new-${kind}`}>
            <Plus size={16} aria-hidden="true" className="me-1" />
            {t('new')}
          </Link>
        ) : null}
      </div>
      <DataTable<RowOf[K]>
        label={t('caption')}
        className="table-hover mh-table"
        compact
        query={query}
        rowKey={(record) => record.id}
        rowProps={() => ({ 'data-testid': `${kind}-row` })}
        emptyText={t('empty')}
        emptyTestId={`empty-${kind}`}
        errorText={t('loadError')}
        retryText={t('retry')}
        pagination={{ page, pageSize, onPage: setPage, label: t('pages'), onlyWhenNeeded: true }}
        columns={[
          { key: 'date', header: t('fields.date'), className: 'text-nowrap', cell: (record) => date(record.date) },
          ...columns,
          {
            key: 'professional',
            header: t('fields.professional'),
            className: 'text-nowrap',
            cell: (record) => record.professionalName,
          },
          {
            key: 'code',
            header: code.header,
            className: 'text-nowrap',
            cell: (record) =>
              code.after ? (
                <>
                  <code className="text-body">{record.verificationCode}</code>
                  {code.after(record)}
                </>
              ) : (
                <code className="text-body">{record.verificationCode}</code>
              ),
          },
        ]}
      />
    </div>
  );
}
