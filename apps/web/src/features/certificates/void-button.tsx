import type { HealthCertificate } from '@odontia/shared/schemas/health-certificates';
import { Ban } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ReasonDialogButton } from '../../components/dialog-frame';
import { queryClient } from '../../lib/query-client';
import { clinicalApi, recordKey, refreshClinical } from '../medical-history/api';

/** Voids an issued certificate with a reason (a dialog, not a record form: one field, its own error). */
export function VoidButton({ patientId, record }: { patientId: string; record: HealthCertificate }) {
  const { t } = useTranslation(['certificates', 'common']);
  return (
    <ReasonDialogButton
      icon={Ban}
      buttonTestId="void-certificate"
      testIdPrefix="void"
      maxLength={500}
      texts={{
        action: t('void.action'),
        title: t('void.title'),
        text: t('void.text'),
        reason: t('fields.voidReason'),
        confirm: t('void.confirm'),
        close: t('common:close'),
        cancel: t('common:cancel'),
      }}
      onConfirm={async (reason) => {
        const answer = await clinicalApi.voidCertificate(patientId, record.id, { reason, version: record.version });
        queryClient.setQueryData(recordKey('certificate', patientId, record.id), answer.data);
        await refreshClinical();
        return answer;
      }}
    />
  );
}
