import { priceListRoutes, treatmentRecord } from '@odontia/shared/routes/treatments';
import type { TreatmentSort } from '@odontia/shared/schemas/schedules';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/** The price list (issue 18): /price-list on the treatments of /api/treatments. */

export type ActiveFilter = 'all' | 'true' | 'false';
export interface PriceListFilters {
  q: string;
  sort: string;
  active: ActiveFilter;
  group: string;
}

const treatmentsApi = apiClient(treatmentRecord.routes);
const priceList = apiClient(priceListRoutes);

/** The filters as the routes' query: 'all' is no filter (blank values are left out by the client). */
function filterQuery({ active, sort, ...rest }: PriceListFilters) {
  return {
    ...rest,
    // The page's sort comes from its own column list, which uses the route's sorts.
    ...(sort ? { sort: sort as TreatmentSort } : {}),
    ...(active === 'all' ? {} : { active }),
  };
}

/** Every treatments query (the agenda's, the attendance form's) starts with this key. */
const treatmentsKey = ['treatments'] as const;
export type TreatmentAnswer = CallAnswer<typeof treatmentRecord.routes.get>;

/** A treatment's fields, new or edited (with the version the edit started from). */
export type TreatmentBody =
  | CallInput<typeof treatmentRecord.routes.create>['body']
  | CallInput<typeof treatmentRecord.routes.update>['body'];

export const priceListApi = {
  list: ({ page, pageSize, ...filters }: PriceListFilters & { page: number; pageSize: number }) =>
    treatmentsApi.list({ query: { ...filterQuery(filters), page, pageSize } }),
  groups: () => priceList.groups(),
  save: (id: string | null, body: TreatmentBody): Promise<TreatmentAnswer> =>
    id
      ? treatmentsApi.update({ params: { id }, body: body as CallInput<typeof treatmentRecord.routes.update>['body'] })
      : treatmentsApi.create({ body: body as CallInput<typeof treatmentRecord.routes.create>['body'] }),
  remove: (id: string) => treatmentsApi.remove({ params: { id } }),
  export: (filters: PriceListFilters) => priceList.export({ query: filterQuery(filters) }),
  import: (body: CallInput<typeof priceListRoutes.import>['body']) => priceList.import({ body }),
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
