import { dashboardRoutes } from '@odontia/shared/routes/dashboard';
import type { Appointment } from '@odontia/shared/schemas/appointments';
import type { RecentAttendance } from '@odontia/shared/schemas/attendances';
import type { Page } from '@odontia/shared/schemas/common';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';
import { http } from '../../lib/http';
import { appointmentsApi, appointmentsKey } from '../appointments/api';

/**
 * The dashboard's own reads (issue 16): the reorder list, the latest attendances and the period's
 * figures; today's agenda and the free slots are read through `features/appointments/api.ts`.
 */

const dashboardApi = apiClient(dashboardRoutes);

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
