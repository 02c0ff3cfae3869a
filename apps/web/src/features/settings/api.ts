import { settingsRoutes } from '@odontia/shared/routes/settings';
import type { SetNextNumber, UpdateClinicSettings } from '@odontia/shared/schemas/clinic-settings';
import type { UpdateOnlineBookingSettings } from '@odontia/shared/schemas/online-booking';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { sessionQueryKey } from '../../session/session';

/** The clinic's system settings and its sales' numbering (issue 19): /api/settings/clinic and /numbering. */

export const settingsKeys = {
  clinic: ['settings', 'clinic'] as const,
  numbering: ['settings', 'numbering'] as const,
  onlineBooking: ['settings', 'online-booking'] as const,
};

const settingsApi = apiClient(settingsRoutes);

export function useClinicSettings() {
  return useQuery({ queryKey: settingsKeys.clinic, queryFn: () => settingsApi.clinic() });
}

export function useSaveClinicSettings() {
  return useMutation({
    mutationFn: (body: UpdateClinicSettings) => settingsApi.saveClinic({ body }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(settingsKeys.clinic, { data: answer.data });
      // The clinic's version is shared with online booking's rules: read them again (not waited for).
      void queryClient.invalidateQueries({ queryKey: settingsKeys.onlineBooking });
      // The session carries the time zone and the lock minutes: read them again.
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}

export function useNumbering() {
  return useQuery({
    queryKey: settingsKeys.numbering,
    queryFn: () => settingsApi.numbering(),
  });
}

export function useSetNextNumber() {
  return useMutation({
    mutationFn: (body: SetNextNumber) => settingsApi.setNextNumber({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.numbering }),
  });
}

/** Online booking's rules (issue 37), saved apart from the other settings but on the clinic's version. */
export function useOnlineBookingSettings() {
  return useQuery({ queryKey: settingsKeys.onlineBooking, queryFn: () => settingsApi.onlineBooking() });
}

export function useSaveOnlineBookingSettings() {
  return useMutation({
    mutationFn: (body: UpdateOnlineBookingSettings) => settingsApi.saveOnlineBooking({ body }),
    onSuccess: (answer) => {
      queryClient.setQueryData(settingsKeys.onlineBooking, { data: answer.data });
      void queryClient.invalidateQueries({ queryKey: settingsKeys.clinic });
    },
  });
}
