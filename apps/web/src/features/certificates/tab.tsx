import type { Patient } from '@odontia/shared/schemas/patients';
import { useTranslation } from 'react-i18next';
import { RecordLink, RecordListTab } from '../medical-history/record-list-tab';

/** The "Certificados" tab of the medical history: newest first, voided ones marked. */
export function CertificatesTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('certificates');
  return (
    <RecordListTab
      kind="certificate"
      patientId={patient.id}
      ns="certificates"
      code={{
        header: t('fields.verificationCode'),
        after: (record) =>
          record.voidedAt ? (
            <span className="badge text-bg-danger ms-2" data-testid="certificate-row-voided">
              {t('status.voided')}
            </span>
          ) : null,
      }}
      columns={[
        {
          key: 'kind',
          header: t('fields.kind'),
          primary: true,
          cell: (record) => (
            <RecordLink kind="certificate" patientId={patient.id} id={record.id}>
              {t(`kinds.${record.kind}`)}
            </RecordLink>
          ),
        },
        {
          key: 'addressee',
          header: t('fields.addressee'),
          className: 'mh-text-cell',
          cell: (record) => record.addressee ?? '—',
        },
      ]}
    />
  );
}
