import type { Patient } from '@odontia/shared/schemas/patients';
import { useTranslation } from 'react-i18next';
import { RecordLink, RecordListTab } from '../medical-history/record-list-tab';

/** The "Recetas" tab of the medical history: newest first, paginated on the server. */
export function PrescriptionsTab({ patient }: { patient: Patient }) {
  const { t } = useTranslation('prescriptions');
  return (
    <RecordListTab
      kind="prescription"
      patientId={patient.id}
      ns="prescriptions"
      code={{ header: t('code') }}
      columns={[
        {
          key: 'lines',
          header: t('fields.lines'),
          primary: true,
          className: 'mh-text-cell',
          cell: (record) => (
            <RecordLink kind="prescription" patientId={patient.id} id={record.id}>
              {record.lines.map((line) => line.medicine).join(', ')}
            </RecordLink>
          ),
        },
        {
          key: 'diagnosis',
          header: t('fields.diagnosis'),
          className: 'mh-text-cell',
          cell: (record) => record.diagnosis ?? '—',
        },
      ]}
    />
  );
}
