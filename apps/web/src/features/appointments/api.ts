import { appointmentRoutes } from '@odontia/shared/routes/appointments';
import type { Appointment, CalendarQuery, FreeSlotsQuery } from '@odontia/shared/schemas/appointments';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/*
 * Every read of appointments, whichever screen shows them (the agenda, the dashboard, the
 * patient's appointments, "start attendance"), lives under one cache key, and every write
 * refreshes all of them: a moved appointment never shows its old time on another screen.
 */

const enc = encodeURIComponent;
export const appointmentsKey = ['appointments'] as const;

/** /api/appointments through the routes declared in packages/shared (issue 36). */
const client = apiClient(appointmentRoutes);

type Body<R extends keyof typeof appointmentRoutes> = CallInput<(typeof appointmentRoutes)[R]>['body'];

/**
 * The calendar's deep link: the day view on `date`, and with `book` the booking dialog
 * pre-filled with the patient and professional.
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

/** Every appointment overlapping [from, to) that the query's filters keep, in start order. */
export function useCalendarAppointments(query: CalendarQuery, options: { refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: [...appointmentsKey, 'calendar', query],
    queryFn: () => client.calendar({ query }).then((answer) => answer.data),
    placeholderData: keepPreviousData,
    ...options,
  });
}

/** The next free times for `durationMinutes` (of one professional or chair when the query names one). */
export function useFreeSlots(query: FreeSlotsQuery, enabled = true) {
  return useQuery({
    queryKey: [...appointmentsKey, 'free-slots', query],
    queryFn: () => client.freeSlots({ query }).then((answer) => answer.data),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useAppointment(id: string | null) {
  return useQuery({
    queryKey: [...appointmentsKey, 'one', id],
    queryFn: () => client.get({ params: { id: id ?? '' } }).then((answer) => answer.data),
    enabled: Boolean(id),
  });
}

/** GET /api/appointments/:id/changes: the appointment's audit events, newest first. */
export function useAppointmentChanges(id: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...appointmentsKey, 'changes', id, page, pageSize],
    queryFn: () => client.changes({ params: { id }, query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/** A patient's appointments: the next ones soonest first, then the past ones newest first. */
export function usePatientAppointments(patientId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...appointmentsKey, 'patient', patientId, page, pageSize],
    queryFn: () => client.ofPatient({ params: { patientId }, query: { page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

/**
 * After any write of an appointment: the screen on view refetches now, and the ones seen before
 * (kept in the cache, not on view) refetch in the background, so they show the change as soon
 * as they are opened again.
 */
export async function refreshAppointments(): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: appointmentsKey });
  void queryClient.refetchQueries({ queryKey: appointmentsKey, type: 'inactive' });
}

/** A write of an appointment: the cache is refreshed when it settles (done or refused). */
async function write<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } finally {
    await refreshAppointments();
  }
}

type Versioned = { id: string; version: number };

export const appointmentsApi = {
  create: (body: Body<'create'>) => write(client.create({ body })),
  update: (id: string, body: Body<'update'>) => write(client.update({ params: { id }, body })),
  remove: ({ id }: Versioned) => write(client.remove({ params: { id } })),
  cancel: (id: string, body: Body<'cancel'>) => write(client.cancel({ params: { id }, body })),
  confirm: (id: string, body: Body<'confirm'>) => write(client.confirm({ params: { id }, body })),
  action: (id: string, action: 'unconfirm' | 'arrive' | 'complete', version: number) =>
    write(client[action]({ params: { id }, body: { version } })),
  restore: (id: string, version: number, allowOutsideSchedule = false) =>
    write(client.restore({ params: { id }, body: { version, allowOutsideSchedule } })),
};
