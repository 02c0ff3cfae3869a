import { settlementRoutes, settlementRuleRecord } from '@odontia/shared/routes/settlements';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type CallAnswer, type CallInput } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

/** Professional settlements (issue 40): /settlements over /api/settlement-rules and /api/settlements. */

export const rulesApi = apiClient(settlementRuleRecord.routes);
export const settlementsApi = apiClient(settlementRoutes);

export type RuleAnswer = CallAnswer<typeof settlementRuleRecord.routes.get>['data'];
export type RuleBody = CallInput<typeof settlementRuleRecord.routes.create>['body'];
export type PreviewAnswer = CallAnswer<typeof settlementRoutes.preview>['data'];
export type SettlementRow = CallAnswer<typeof settlementRoutes.list>['data'][number];

const key = ['settlements'] as const;

export function useRules(professionalId: string) {
  return useQuery({
    queryKey: [...key, 'rules', professionalId],
    queryFn: () => rulesApi.list({ query: { professionalId, page: 1, pageSize: 100 } }),
    enabled: Boolean(professionalId),
  });
}

export function useSettlements(professionalId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: [...key, 'list', professionalId, page],
    queryFn: () => settlementsApi.list({ query: { ...(professionalId ? { professionalId } : {}), page, pageSize } }),
    placeholderData: keepPreviousData,
  });
}

export function usePreview(period: { professionalId: string; from: string; to: string } | null) {
  return useQuery({
    queryKey: [...key, 'preview', period],
    queryFn: () =>
      settlementsApi.preview({ query: period as NonNullable<typeof period> }).then((answer) => answer.data),
    enabled: period !== null,
    staleTime: 0,
  });
}

/** After a write: the rules, previews and lists again (and the money screens the payable sits in). */
export const refreshSettlements = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: key }),
    queryClient.invalidateQueries({ queryKey: ['purchases'] }),
  ]);
