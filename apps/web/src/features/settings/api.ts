import { settingsRoutes } from '@odontia/shared/routes/settings';
import type { SetNextNumber, UpdateClinicSettings } from '@odontia/shared/schemas/clinic-settings';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';
import { sessionQueryKey } from '../../session/session';

/** The clinic's system settings and its sales' numbering (issue 19): /api/settings/clinic and /numbering. */

export const settingsKeys = {
  clinic: ['settings', 'clinic'] as const,
  numbering: ['settings', 'numbering'] as const,
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
