import type {
  ClinicSettings,
  NumberingRow,
  SetNextNumber,
  UpdateClinicSettings,
} from '@odontia/shared/schemas/clinic-settings';
import { useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';
import { sessionQueryKey } from '../../session/session';

/** The clinic's system settings and its sales' numbering (issue 19): /api/settings/clinic and /numbering. */

export const settingsKeys = {
  clinic: ['settings', 'clinic'] as const,
  numbering: ['settings', 'numbering'] as const,
};

type SettingsAnswer = { data: ClinicSettings; code?: string };

export function useClinicSettings() {
  return useQuery({ queryKey: settingsKeys.clinic, queryFn: () => http.get<SettingsAnswer>('settings/clinic') });
}

export function useSaveClinicSettings() {
  return useMutation({
    mutationFn: (body: UpdateClinicSettings) => http.put<SettingsAnswer>('settings/clinic', body),
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
    queryFn: () => http.get<{ data: NumberingRow[] }>('settings/numbering'),
  });
}

export function useSetNextNumber() {
  return useMutation({
    mutationFn: (body: SetNextNumber) => http.put<{ data: NumberingRow; code: string }>('settings/numbering', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.numbering }),
  });
}
