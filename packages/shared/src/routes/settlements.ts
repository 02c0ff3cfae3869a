import { apiRoute } from '../api-route.ts';
import { recordParamsSchema as params } from '../schemas/records.ts';
import {
  confirmSettlementSchema,
  settlementListQuerySchema,
  settlementPageSchema,
  settlementPreviewQuerySchema,
  settlementPreviewResponseSchema,
  settlementResponseSchema,
  settlementRuleContracts,
  settlementRulesQuerySchema,
} from '../schemas/settlements.ts';
import { recordApiRoutes } from './records.ts';

/** /api/settlement-rules (issue 40): each professional's settlement rules, versioned and audited. */
export const settlementRuleRecord = recordApiRoutes({
  path: '/settlement-rules',
  contracts: settlementRuleContracts,
  listQuery: settlementRulesQuerySchema,
});

/** /api/settlements (issue 40): a period's preview, its confirmation, the list, one, its PDF. */
export const settlementRoutes = {
  list: apiRoute({
    method: 'GET',
    path: '/settlements',
    query: settlementListQuerySchema,
    answer: settlementPageSchema,
  }),
  preview: apiRoute({
    method: 'GET',
    path: '/settlements/preview',
    query: settlementPreviewQuerySchema,
    answer: settlementPreviewResponseSchema,
  }),
  one: apiRoute({ method: 'GET', path: '/settlements/:id', params, answer: settlementResponseSchema }),
  confirm: apiRoute({
    method: 'POST',
    path: '/settlements',
    body: confirmSettlementSchema,
    answer: settlementResponseSchema,
    status: 201,
    idempotent: 'settlements.confirm',
  }),
  pdf: apiRoute({ method: 'GET', path: '/settlements/:id/settlement.pdf', params, produces: ['application/pdf'] }),
};
