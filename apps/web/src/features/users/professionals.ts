import { clinicalRoutes } from '@odontia/shared/routes/clinical';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client';

const formsApi = apiClient(clinicalRoutes);

/**
 * The clinic's professionals (active users who are not customers): every form that names one —
 * clinical records, the agenda, sale lines, registers, settlements, reports — reads this one list.
 */
export function useProfessionals() {
  return useQuery({
    queryKey: ['professionals'],
    queryFn: () => formsApi.professionals().then((answer) => answer.data),
    staleTime: 5 * 60_000,
  });
}
