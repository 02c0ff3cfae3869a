import type { Page } from '@odontia/shared/schemas/common';
import type { Treatment, TreatmentImportResult, treatmentContracts } from '@odontia/shared/schemas/schedules';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { http } from '../../lib/http';
import { queryClient } from '../../lib/query-client';

/** The price list (issue 18): /price-list on the treatments of /api/treatments. */

export type ActiveFilter = 'all' | 'true' | 'false';
export interface PriceListFilters {
  q: string;
  sort: string;
  active: ActiveFilter;
  group: string;
}

function filterParams(filters: PriceListFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.active !== 'all') params.set('active', filters.active);
  if (filters.group) params.set('group', filters.group);
  return params;
}

/** Every treatments query (the agenda's, the attendance form's) starts with this key. */
const treatmentsKey = ['treatments'] as const;
export type TreatmentAnswer = { data: Treatment; code?: 'treatment_created' | 'treatment_updated' };

/** A treatment's fields, new or edited (with the version the edit started from). */
export type TreatmentBody = z.input<typeof treatmentContracts.create> | z.input<typeof treatmentContracts.update>;

export const priceListApi = {
  list: (query: PriceListFilters & { page: number; pageSize: number }) => {
    const params = filterParams(query);
    params.set('page', String(query.page));
    params.set('pageSize', String(query.pageSize));
    return http.get<Page<Treatment>>(`treatments?${params}`);
  },
  groups: () => http.get<{ data: string[] }>('treatments/groups'),
  save: (id: string | null, body: TreatmentBody) =>
    id
      ? http.put<TreatmentAnswer>(`treatments/${encodeURIComponent(id)}`, body)
      : http.post<TreatmentAnswer>('treatments', body),
  remove: (id: string) => http.delete<{ code: 'treatment_deleted' }>(`treatments/${encodeURIComponent(id)}`),
  export: (filters: PriceListFilters) => {
    const params = filterParams(filters).toString();
    return http.download(`treatments/export${params ? `?${params}` : ''}`);
  },
  import: (body: { content: string; dryRun: boolean }) =>
    http.post<{ data: TreatmentImportResult; code?: 'treatments_imported' }>('treatments/import', body),
};

export function usePriceList(query: PriceListFilters & { page: number; pageSize: number }) {
  return useQuery({
    queryKey: [...treatmentsKey, 'price-list', query],
    queryFn: () => priceListApi.list(query),
    placeholderData: keepPreviousData,
  });
}

export function useTreatmentGroups() {
  return useQuery({ queryKey: [...treatmentsKey, 'groups'], queryFn: () => priceListApi.groups() });
}

const refresh = () => queryClient.invalidateQueries({ queryKey: treatmentsKey });

export function useSaveTreatment(id: string | null) {
  return useMutation({ mutationFn: (body: TreatmentBody) => priceListApi.save(id, body), onSuccess: refresh });
}

export function useDeleteTreatment(id: string) {
  return useMutation({ mutationFn: () => priceListApi.remove(id), onSuccess: refresh });
}

export function useImportTreatments() {
  return useMutation({
    mutationFn: priceListApi.import,
    onSuccess: (_answer, body) => (body.dryRun ? undefined : refresh()),
  });
}
