import { useTranslation } from 'react-i18next';
import { RecordChanges } from '../../components/record-changes';
import { useListState } from '../../lib/use-list-state';
import { usePatientChanges } from './api';
import { useDateFormat, useDateTimeFormat } from './format';

const pageSize = 10;

/** The order of the form: a change lists its fields in it (the audit keeps no order). */
const fieldOrder = [
  'skuPatient',
  'firstName',
  'lastName',
  'sex',
  'birthdate',
  'ssn',
  'medicalHistory',
  'language',
  'active',
  'email',
  'phoneArea',
  'phone',
  'street',
  'complement',
  'zipCode',
  'city',
  'state',
  'country',
  'district',
  'address',
  'allergies',
  'chronicConditions',
  'currentMedication',
  'obs',
];
/** How a patient's own values read (the rest: components/record-changes.tsx). */
function useValueText() {
  const { t } = useTranslation('patients');
  const date = useDateFormat();
  return (field: string, value: unknown): string | undefined => {
    if (typeof value !== 'string') return undefined;
    if (field === 'sex') return t(`sexes.${value}`, { defaultValue: value });
    if (field === 'birthdate') return date(value);
    if (field === 'language') return t(`languages.${value}`, { defaultValue: value });
    return undefined;
  };
}

/** The patient record's history of changes, newest first: when, who, what, and each field before → after. */
export function PatientChanges({ patientId }: { patientId: string }) {
  const { t, i18n } = useTranslation('patients');
  const { page, setPage } = useListState();
  const query = usePatientChanges(patientId, page, pageSize);
  const dateTime = useDateTimeFormat();
  const valueText = useValueText();
  return (
    <RecordChanges
      query={query}
      page={page}
      pageSize={pageSize}
      onPage={setPage}
      formatInstant={dateTime}
      fieldLabel={(field) => (i18n.exists(`patients:fields.${field}`) ? t(`fields.${field}`) : field)}
      valueText={valueText}
      fieldOrder={fieldOrder}
      actionLabel={(action) =>
        i18n.exists(`patients:changes.actions.${action}`) ? t(`changes.actions.${action}`) : undefined
      }
      card={false}
      testId="patient-changes"
    />
  );
}
