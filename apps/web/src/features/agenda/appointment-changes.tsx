import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordChanges } from '../../components/record-changes';
import { useInstantFormat } from '../../session/clinic-time';
import { useAppointmentChanges } from '../appointments/api';
import { useProfessionals } from '../users/professionals';
import { useChairs, useTreatments } from './api';

const pageSize = 5;

/** The order of the booking form and the details: a change lists its fields in it. */
const fieldOrder = [
  'status',
  'startsAt',
  'endsAt',
  'professionalId',
  'chairId',
  'treatmentId',
  'reason',
  'notes',
  'confirmedAt',
  'confirmationChannel',
  'channel',
  'arrivedAt',
  'cancelReason',
  'cancelNote',
  'outsideSchedule',
  'origin',
  'rescheduledFrom',
  'rescheduledTo',
  'attendanceId',
];

/** How the appointment's own values read: times in the clinic's zone, names instead of ids, the enumerations' words. */
function useValueText() {
  const { t } = useTranslation('agenda');
  const dateTime = useInstantFormat('dateTime');
  const professionals = useProfessionals().data ?? [];
  const chairs = useChairs().data ?? [];
  const treatments = useTreatments().data ?? [];
  return (field: string, value: unknown): string | undefined => {
    if (typeof value !== 'string') return undefined;
    switch (field) {
      case 'startsAt':
      case 'endsAt':
      case 'confirmedAt':
      case 'arrivedAt':
      case 'cancelledAt':
        return dateTime(value);
      case 'professionalId':
        return professionals.find((p) => p.id === value)?.completeName ?? t('changes.unknown');
      case 'chairId':
        return chairs.find((c) => c.id === value)?.name ?? t('changes.unknown');
      case 'treatmentId':
        return treatments.find((c) => c.id === value)?.name ?? t('changes.unknown');
      case 'status':
        return t(`statuses.${value}`, { defaultValue: value });
      case 'cancelReason':
        return t(`cancelReasons.${value}`, { defaultValue: value });
      case 'confirmationChannel':
      case 'channel':
        return t(`channels.${value}`, { defaultValue: value });
      case 'origin':
        return t(`origins.${value}`, { defaultValue: value });
      case 'rescheduledFrom':
      case 'rescheduledTo':
        return t('changes.anotherAppointment');
      case 'attendanceId':
        return t('changes.attendance');
      default:
        return undefined;
    }
  };
}

/** The appointment's history of changes (who booked, moved, confirmed, cancelled it, and when). */
export function AppointmentChanges({ id }: { id: string }) {
  const { t, i18n } = useTranslation('agenda');
  const [page, setPage] = useState(1);
  const query = useAppointmentChanges(id, page, pageSize);
  const dateTime = useInstantFormat('dateTime');
  const valueText = useValueText();
  return (
    <details className="mt-3" data-testid="appointment-changes">
      <summary className="fw-semibold">{t('changes.title')}</summary>
      <div className="mt-2">
        <RecordChanges
          query={query}
          page={page}
          pageSize={pageSize}
          onPage={setPage}
          formatInstant={dateTime}
          fieldLabel={(field) => (i18n.exists(`agenda:changes.fields.${field}`) ? t(`changes.fields.${field}`) : field)}
          valueText={valueText}
          fieldOrder={fieldOrder}
          actionLabel={(action) =>
            i18n.exists(`agenda:changes.actions.${action}`) ? t(`changes.actions.${action}`) : undefined
          }
          card={false}
          testId="appointment-changes-table"
        />
      </div>
    </details>
  );
}
