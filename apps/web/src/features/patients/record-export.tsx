import { can } from '@odontia/shared/permissions';
import { accessExportRoutes, fhirRoutes } from '@odontia/shared/routes/fhir';
import { isAccessExportFinished } from '@odontia/shared/schemas/fhir';
import { useQuery } from '@tanstack/react-query';
import { Download, FileJson, FolderArchive } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconTextButton } from '../../components/icon-button';
import { JobProgress } from '../../components/job-progress';
import { apiClient } from '../../lib/api-client';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { saveFile } from '../../lib/save-file';
import { useAction } from '../../lib/use-action';
import { useSessionUser } from '../../session/session';

/**
 * The patient's record to take away (issue 42): the FHIR R4 bundle at once, and the right of
 * access ZIP written in the background (its progress asked every second), then downloaded.
 */

const fhirApi = apiClient(fhirRoutes);
const accessApi = apiClient(accessExportRoutes);

export function RecordExportCard({ patientId }: { patientId: string }) {
  const { t } = useTranslation('patients');
  const user = useSessionUser();
  const allowed = Boolean(user && can(user.level, 'patients.export'));
  // The latest archive, so a reload (or a colleague's request) shows it with its progress or download.
  const latest = useQuery({
    queryKey: ['patients', 'access-exports', patientId, 'latest'],
    queryFn: () => accessApi.latest({ params: { patientId }, background: true }).then((answer) => answer.data),
    enabled: allowed,
  });
  const [askedId, setExportId] = useState<string | null>(null);
  const exportId = askedId ?? latest.data?.id ?? null;
  const fhir = useAction({
    mutationFn: async () => {
      const file = await fhirApi.export({ params: { patientId } });
      saveFile(file.blob, file.fileName ?? `patient-${patientId}.fhir.json`);
    },
    onError: toastApiError,
  });
  const ask = useAction({
    mutationFn: (_nothing: undefined, idempotencyKey: string) =>
      accessApi.queue({ params: { patientId }, idempotencyKey }),
    onSuccess: (answer) => {
      setExportId(answer.data.id);
      if (answer.code) toastSuccess(answer.code);
    },
    onError: toastApiError,
  });
  const progress = useQuery({
    queryKey: ['patients', 'access-exports', patientId, exportId],
    queryFn: () =>
      accessApi
        .get({ params: { patientId, exportId: exportId ?? '' }, background: true })
        .then((answer) => answer.data),
    enabled: Boolean(exportId),
    refetchInterval: (query) => (isAccessExportFinished(query.state.data?.state) ? false : 1000),
  });
  const download = useAction({
    mutationFn: async () => {
      const done = progress.data;
      if (!done) return;
      const file = await accessApi.file({ params: { patientId, exportId: done.id } });
      saveFile(file.blob, file.fileName ?? done.fileName);
    },
    onError: toastApiError,
  });
  if (!allowed) return null;
  const current = progress.data;
  return (
    <section className="card" data-testid="patient-record-export" aria-labelledby="patient-record-export-title">
      <div className="card-body d-flex flex-column gap-2">
        <h2 className="h5 mb-0" id="patient-record-export-title">
          {t('recordExport.title')}
        </h2>
        <p className="mb-0 text-body-secondary">{t('recordExport.intro')}</p>
        <div className="d-flex flex-wrap gap-2">
          <IconTextButton
            icon={FileJson}
            className="btn btn-outline-primary"
            disabled={fhir.isPending}
            onClick={() => fhir.mutate()}
            testId="patient-fhir-export"
          >
            {t('recordExport.fhir')}
          </IconTextButton>
          <IconTextButton
            icon={FolderArchive}
            className="btn btn-outline-primary"
            disabled={ask.isPending || (Boolean(current) && !isAccessExportFinished(current?.state))}
            onClick={() => ask.mutate(undefined)}
            testId="patient-access-export"
          >
            {t('recordExport.access')}
          </IconTextButton>
        </div>
        {current ? (
          <div className="d-flex flex-column gap-2" data-testid="patient-access-progress">
            {/* The bar while the archive is written; once finished (or found so on opening) its state alone. */}
            {isAccessExportFinished(current.state) ? null : (
              <JobProgress label={t('recordExport.progress')} progress={current.progress} />
            )}
            <span role="status" className="small">
              {current.progress} % · {t(`recordExport.states.${current.state}`)}
            </span>
            {current.state === 'done' ? (
              <IconTextButton
                icon={Download}
                className="btn btn-primary align-self-start"
                disabled={download.isPending}
                onClick={() => download.mutate()}
                testId="patient-access-download"
              >
                {t('recordExport.download')}
              </IconTextButton>
            ) : null}
          </div>
        ) : null}
      </div>
    </section>
  );
}
