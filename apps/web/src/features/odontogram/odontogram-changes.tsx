import { statusColours } from '@odontia/shared/odontogram';
import type { OdontogramEntry } from '@odontia/shared/schemas/odontogram';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table';
import { useListState } from '../../lib/use-list-state';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useOdontogramEntries } from './api';
import './odontogram.css';
import { VoidModal } from './odontogram-marks';

export const changesPageSize = 10;

export function ChangesList({ patientId, canWrite }: { patientId: string; canWrite: boolean }) {
  const { t } = useTranslation('odontogram');
  const dateTime = useDateTimeFormat();
  const { page, setPage } = useListState();
  const [voiding, setVoiding] = useState<OdontogramEntry | null>(null);
  const query = useOdontogramEntries(patientId, page, changesPageSize);
  const describe = (entry: OdontogramEntry) =>
    `${t('tooth', { tooth: entry.tooth })} · ${entry.zone ? t(`zones.${entry.zone}`) : t('piece')} · ${t(`statuses.${entry.status}`)}`;
  const columns: Column<OdontogramEntry>[] = [
    { key: 'date', header: t('changes.date'), className: 'text-nowrap', cell: (entry) => dateTime(entry.chartedAt) },
    { key: 'tooth', header: t('changes.tooth'), className: 'fw-semibold', cell: (entry) => entry.tooth },
    {
      key: 'zone',
      header: t('changes.zone'),
      cell: (entry) => (entry.zone ? t(`zones.${entry.zone}`) : t('piece')),
    },
    {
      key: 'status',
      header: t('changes.status'),
      cell: (entry) => (
        <>
          <span
            className={`odo-status odo-colour-${entry.status === 'healthy' ? 'none' : statusColours[entry.status]}`}
          >
            {t(`statuses.${entry.status}`)}
          </span>
          {entry.notes ? <div className="small text-body-secondary">{entry.notes}</div> : null}
        </>
      ),
    },
    {
      key: 'professional',
      header: t('changes.professional'),
      className: 'text-nowrap',
      cell: (entry) => entry.professionalName,
    },
    {
      key: 'attendance',
      header: t('changes.attendance'),
      className: 'odo-attendance-cell',
      cell: (entry) => entry.attendanceTitle ?? '—',
    },
  ];
  if (canWrite) {
    columns.push({
      key: 'void',
      header: '',
      className: 'text-end',
      cell: (entry) => (
        <button
          type="button"
          className="btn btn-link btn-sm odo-void-link p-0"
          onClick={() => setVoiding(entry)}
          data-testid="void-entry"
          aria-label={`${t('changes.void')}: ${describe(entry)}`}
        >
          {t('changes.void')}
        </button>
      ),
    });
  }
  return (
    <section className="mt-4" aria-labelledby="odo-changes-title" data-testid="odontogram-changes">
      <h2 id="odo-changes-title" className="h6 px-3">
        {t('changes.title')}
      </h2>
      <DataTable<OdontogramEntry>
        label={t('changes.title')}
        className="table-hover mh-table"
        compact
        columns={columns}
        query={query}
        rowKey={(entry) => entry.id}
        rowProps={(entry) => ({
          'data-testid': 'odontogram-entry',
          'data-tooth': String(entry.tooth),
          'data-status': entry.status,
        })}
        emptyText={t('changes.empty')}
        emptyTestId="odontogram-changes-empty"
        errorText={t('loadError')}
        retryText={t('retry')}
        pagination={{
          page,
          pageSize: changesPageSize,
          onPage: setPage,
          label: t('changes.pages'),
          onlyWhenNeeded: true,
        }}
      />
      <VoidModal entry={voiding} onClose={() => setVoiding(null)} patientId={patientId} describe={describe} />
    </section>
  );
}
