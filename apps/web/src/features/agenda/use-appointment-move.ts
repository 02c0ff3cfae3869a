import type { CalendarAppointment } from '@odontia/shared/schemas/appointments';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastApiError, toastErrorText, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { appointmentsApi } from '../appointments/api';
import { overlapText } from './status';

export type MoveBody = Parameters<typeof appointmentsApi.update>[1];

/** A move the server refused as outside the schedule, waiting for "book anyway". */
export interface PendingMove {
  appointment: CalendarAppointment;
  body: MoveBody;
  reasons: string[];
}

/**
 * Moving an appointment on the calendar (drag or resize): saved at once; outside the schedule it
 * waits in `pendingMove` for the user's confirmation, an overlap names the other appointment.
 */
export function useAppointmentMove(timeZone: string, language: string) {
  const { t } = useTranslation('agenda');
  const [pendingMove, setPendingMove] = useState<PendingMove | null>(null);
  const move = async (appointment: CalendarAppointment, body: MoveBody) => {
    try {
      const answer = await appointmentsApi.update(appointment.id, body);
      toastSuccess(answer.code ?? 'appointment_updated');
    } catch (error) {
      if (isApiError(error) && error.code === 'appointment_outside_schedule') {
        const reasons = ((error.details?.reasons as string[] | undefined) ?? []).slice();
        setPendingMove({ appointment, body, reasons });
      } else if (isApiError(error) && error.code === 'appointment_overlaps') {
        toastErrorText(overlapText(t, error.details, timeZone, language));
      } else toastApiError(error);
    }
  };
  /** The pending move saved outside the schedule. */
  const confirmPending = () => {
    if (!pendingMove) return;
    const { appointment, body } = pendingMove;
    setPendingMove(null);
    void move(appointment, { ...body, allowOutsideSchedule: true });
  };
  return { move, pendingMove, confirmPending, cancelPending: () => setPendingMove(null) };
}
