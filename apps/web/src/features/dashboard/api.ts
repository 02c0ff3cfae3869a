import type {
  Appointment,
  AppointmentAnswer,
  CalendarAppointment,
  FreeSlot,
} from '@odontia/shared/schemas/appointments';
import type { RecentAttendance } from '@odontia/shared/schemas/attendances';
import type { Page } from '@odontia/shared/schemas/common';
import type { Dashboard as DashboardFigures } from '@odontia/shared/schemas/dashboard';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';

/**
 * The dashboard's reads (issue 16) and the appointment reads the medical history and the
 * attendance screen share: today's agenda, the next free slots, the reorder list, the latest
 * attendances, one appointment and a patient's appointments.
 */

const enc = encodeURIComponent;
export const appointmentsKey = ['appointments'] as const;

/**
 * The calendar's deep link (owned by the calendar, branch `calendar`): the day view on `date`,
 * and with `book` the booking dialog pre-filled with the patient and professional.
 */
export function calendarPath({
  date,
  patientId,
  professionalId,
  book = true,
}: {
  date: string;
  patientId?: string | null | undefined;
  professionalId?: string | null | undefined;
  book?: boolean;
}): string {
  const params = new URLSearchParams({ date, view: 'day' });
  if (book) params.set('book', '1');
  if (patientId) params.set('patientId', patientId);
  if (professionalId) params.set('professionalId', professionalId);
  return `/calendar?${params}`;
}

/** The attendance new screen started from an appointment ("start attendance"). */
export const startAttendancePath = (appointment: Pick<Appointment, 'id' | 'patientId'>) =>
  `/patients/${enc(appointment.patientId)}/mh/attendance/new?appointmentId=${enc(appointment.id)}`;

/** Every appointment overlapping [from, to) (active ones only), in start order. */
export function useCalendarRange(from: string, to: string) {
  return useQuery({
    queryKey: [...appointmentsKey, 'calendar', from, to],
    queryFn: () =>
      http
        .get<{ data: CalendarAppointment[] }>(`appointments/calendar?${new URLSearchParams({ from, to })}`)
        .then((answer) => answer.data),
    refetchInterval: 60_000,
  });
}

/** The next free times of any professional for `durationMinutes`. */
export function useFreeSlots(durationMinutes: number, limit: number) {
  return useQuery({
    queryKey: [...appointmentsKey, 'free-slots', durationMinutes, limit],
    queryFn: () =>
      http
        .get<{ data: FreeSlot[] }>(`appointments/free-slots?durationMinutes=${durationMinutes}&limit=${limit}`)
        .then((answer) => answer.data),
  });
}

/** The inventory's "to order" list, first page (the dashboard shows its top few). */
export function useReorderTop(pageSize: number, enabled: boolean) {
  return useQuery({
    queryKey: ['inventory', 'reorder', '', 1, pageSize],
    queryFn: () =>
      http.get<Page<InventoryItem & { suggestedQuantity: number }>>(`inventory/reorder?page=1&pageSize=${pageSize}`),
    enabled,
  });
}

/** The clinic's latest attendances across patients. */
export function useRecentAttendances(limit: number) {
  return useQuery({
    queryKey: ['clinical', 'recent-attendances', limit],
    queryFn: () =>
      http.get<{ data: RecentAttendance[] }>(`attendances/recent?limit=${limit}`).then((answer) => answer.data),
  });
}

/** One appointment ("start attendance" reads it). */
export function useAppointment(id: string | null) {
  return useQuery({
    queryKey: [...appointmentsKey, 'one', id],
    queryFn: () => http.get<AppointmentAnswer>(`appointments/${enc(id ?? '')}`).then((answer) => answer.data),
    enabled: Boolean(id),
  });
}

/** A patient's appointments: the next ones soonest first, then the past ones newest first. */
export function usePatientAppointments(patientId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...appointmentsKey, 'patient', patientId, page, pageSize],
    queryFn: () =>
      http.get<Page<Appointment>>(`patients/${enc(patientId)}/appointments?page=${page}&pageSize=${pageSize}`),
    placeholderData: keepPreviousData,
  });
}

export type AppointmentAction = 'arrive' | 'confirm';

/** "Llegó" and "Confirmar" (by phone, at the desk) from the dashboard. */
export function useAppointmentAction() {
  return useMutation({
    mutationFn: ({
      appointment,
      action,
    }: {
      appointment: Pick<Appointment, 'id' | 'version'>;
      action: AppointmentAction;
    }) =>
      http.post<AppointmentAnswer>(
        `appointments/${enc(appointment.id)}/${action}`,
        action === 'confirm' ? { channel: 'phone', version: appointment.version } : { version: appointment.version },
      ),
    onSuccess: () => refreshAppointments(),
  });
}

export function refreshAppointments(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: appointmentsKey });
}

/** The dashboard's figures for a period (issue 19): `from`/`to` empty = this month so far. */
export function useDashboardFigures(from: string, to: string) {
  const params = new URLSearchParams();
  if (from) params.set('from', from);
  if (to) params.set('to', to);
  const query = params.toString();
  return useQuery({
    queryKey: [...appointmentsKey, 'dashboard', from, to],
    queryFn: () =>
      http.get<{ data: DashboardFigures }>(`dashboard${query ? `?${query}` : ''}`).then((answer) => answer.data),
    placeholderData: keepPreviousData,
  });
}
