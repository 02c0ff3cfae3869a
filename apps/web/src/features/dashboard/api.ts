import { clinicalRoutes } from '@odontia/shared/routes/clinical';
import { dashboardRoutes } from '@odontia/shared/routes/dashboard';
import { inventoryRoutes } from '@odontia/shared/routes/inventory';
import type { Appointment } from '@odontia/shared/schemas/appointments';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';
import { appointmentsApi, appointmentsKey } from '../appointments/api';

/**
 * The dashboard's own reads (issue 16): the reorder list, the latest attendances and the period's
 * figures; today's agenda and the free slots are read through `features/appointments/api.ts`.
 */

const dashboardApi = apiClient(dashboardRoutes);
const inventoryApi = apiClient(inventoryRoutes);
const clinicalApi = apiClient(clinicalRoutes);

/** The inventory's "to order" list, first page (the dashboard shows its top few). */
export function useReorderTop(pageSize: number, enabled: boolean) {
  return useQuery({
    queryKey: ['inventory', 'reorder', '', 1, pageSize],
    queryFn: () => inventoryApi.reorder({ query: { page: 1, pageSize } }),
    enabled,
  });
}

/** The clinic's latest attendances across patients. */
export function useRecentAttendances(limit: number) {
  return useQuery({
    queryKey: ['clinical', 'recent-attendances', limit],
    queryFn: () => clinicalApi.recentAttendances({ query: { limit } }).then((answer) => answer.data),
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
      action === 'confirm'
        ? appointmentsApi.confirm(appointment.id, { channel: 'phone', version: appointment.version })
        : appointmentsApi.action(appointment.id, action, appointment.version),
  });
}

/** The dashboard's figures for a period (issue 19): `from`/`to` empty = this month so far. */
export function useDashboardFigures(from: string, to: string) {
  return useQuery({
    // Under the appointments' family: today's agenda in it follows every appointment's write.
    queryKey: [...appointmentsKey, 'dashboard', from, to],
    // Empty dates are left out of the query string (this month so far).
    queryFn: () => dashboardApi.get({ query: { from, to } }).then((answer) => answer.data),
    placeholderData: keepPreviousData,
  });
}
