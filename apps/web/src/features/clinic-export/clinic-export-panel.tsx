import type { ClinicExport } from '@odontia/shared/schemas/clinic-export';
import { Archive } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyButton } from '../../components/busy-button';
import { CaptionedTable } from '../../components/captioned-table';
import { DownloadButton } from '../../components/download-button';
import { IconCard } from '../../components/icon-card';
import { JobProgress } from '../../components/job-progress';
import { PaginationFooter } from '../../components/pagination-footer';
import { useInstantFormat } from '../../session/clinic-time';
import { downloadClinicExport, useClinicExports, useRequestClinicExport } from './api';

const pageSize = 10;

function ExportState({ row }: { row: ClinicExport }) {
  const { t } = useTranslation('clinicExport');
  if (row.state === 'queued' || row.state === 'running') {
    const label = t('progress', { progress: row.progress, tables: row.tablesWritten, total: row.tableCount ?? '…' });
    return (
      <JobProgress
        label={label}
        valueText={label}
        progress={row.progress}
        showPercent
        testId="clinic-export-progress"
      />
    );
  }
  const tone = { done: 'text-bg-success', failed: 'text-bg-danger', expired: 'text-bg-secondary' }[row.state];
  return (
    <span className={`badge ${tone}`} data-testid="clinic-export-state">
      {t(`state.${row.state}`)}
    </span>
  );
}

function ExportDownload({ row }: { row: ClinicExport }) {
  const { t } = useTranslation('clinicExport');
  return (
    <DownloadButton
      className="btn btn-sm btn-success"
      download={() => downloadClinicExport(row)}
      testId="clinic-export-download"
      title={t('downloadNamed', { file: row.fileName })}
    >
      <span className="d-none d-sm-inline ms-1">{t('download')}</span>
      <span className="visually-hidden d-sm-none">{t('downloadNamed', { file: row.fileName })}</span>
    </DownloadButton>
  );
}

/** Administración › Exportar todos los datos: ask for the ZIP, watch its job, download it. */
export function ClinicExportPanel() {
  const { t, i18n } = useTranslation('clinicExport');
  const [page, setPage] = useState(1);
  const exports = useClinicExports(page, pageSize);
  const request = useRequestClinicExport();
  const format = useInstantFormat('dateTime');
  const rows = exports.data?.data ?? [];
  const running = rows.some((row) => row.state === 'queued' || row.state === 'running');
  const megabytes = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (
    <div className="d-flex flex-column gap-4" data-testid="clinic-export">
      <IconCard title={t('title')} icon={<Archive size={18} aria-hidden="true" />} className="profile-card">
        <p>{t('intro')}</p>
        <ul className="small text-body-secondary">
          <li>{t('contents.tables')}</li>
          <li>{t('contents.files')}</li>
          <li>{t('contents.manifest')}</li>
          <li>{t('contents.excluded')}</li>
        </ul>
        <BusyButton
          className="btn btn-primary"
          icon={Archive}
          busy={request.isPending}
          disabled={request.isPending || running}
          onClick={() => request.mutate(undefined)}
          testId="clinic-export-request"
        >
          {t('request')}
        </BusyButton>
        {running ? <p className="small text-body-secondary mt-2 mb-0">{t('runningHint')}</p> : null}
      </IconCard>
      <IconCard title={t('list.title')} icon={<Archive size={18} aria-hidden="true" />} className="profile-card">
        <CaptionedTable
          wrapperClassName="table-responsive"
          scrollLabel={t('list.title')}
          className="table table-sm align-middle mb-0"
          testId="clinic-export-list"
          caption={t('list.title')}
          head={[
            { label: t('list.requested') },
            { label: t('list.by'), className: 'd-none d-md-table-cell' },
            { label: t('list.state') },
            { label: t('list.size'), className: 'd-none d-md-table-cell text-end' },
            { label: t('list.expires'), className: 'd-none d-lg-table-cell' },
            { label: <span className="visually-hidden">{t('list.actions')}</span> },
          ]}
        >
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={6} className="text-body-secondary">
                  {exports.isLoading ? t('list.loading') : t('list.empty')}
                </td>
              </tr>
            ) : null}
            {rows.map((row) => (
              <tr key={row.id} data-testid={`clinic-export-row-${row.id}`}>
                <td className="small">{format(row.createdAt)}</td>
                <td className="d-none d-md-table-cell small">{row.createdByName ?? ''}</td>
                <td style={{ minWidth: '8rem' }}>
                  <ExportState row={row} />
                </td>
                <td className="d-none d-md-table-cell small text-end">
                  {row.byteSize === null
                    ? ''
                    : t('list.megabytes', { size: megabytes.format(row.byteSize / 1_048_576) })}
                </td>
                <td className="d-none d-lg-table-cell small">{row.expiresAt ? format(row.expiresAt) : ''}</td>
                <td className="text-end">{row.state === 'done' ? <ExportDownload row={row} /> : null}</td>
              </tr>
            ))}
          </tbody>
        </CaptionedTable>
        {exports.data ? (
          <PaginationFooter
            page={page}
            pageSize={pageSize}
            total={exports.data.total}
            onPage={setPage}
            label={t('list.title')}
          />
        ) : null}
      </IconCard>
    </div>
  );
}
