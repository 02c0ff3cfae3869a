import { apiRoute } from '../api-route.ts';
import {
  budgetDecisionRequestSchema,
  budgetDecisionResponseSchema,
  budgetProgressResponseSchema,
  convertBudgetRequestSchema,
  invoiceDraftRequestSchema,
  patientBillingResponseSchema,
  saleDraftCreatedSchema,
} from '../schemas/budgets.ts';
import { recordParamsSchema as params, patientParamsSchema } from '../schemas/records.ts';
import {
  billablesQuerySchema,
  billablesSchema,
  correctSaleSchema,
  createSaleSchema,
  issueSaleSchema,
  saleDeletedSchema,
  saleIntegrityQuerySchema,
  saleIntegritySchema,
  saleListQuerySchema,
  salePageSchema,
  saleResponseSchema,
  saleSentSchema,
  updateSaleSchema,
} from '../schemas/sales.ts';
import { commercialDocumentRoutes } from './commercial.ts';

/** /api/sales (issue 18): the clinic's documents to its customers, on the commercial document routes. */
export const saleRoutes = {
  ...commercialDocumentRoutes({
    side: 'sales',
    path: '/sales',
    finalize: 'issue',
    contracts: {
      listQuery: saleListQuerySchema,
      page: salePageSchema,
      one: saleResponseSchema,
      create: createSaleSchema,
      update: updateSaleSchema,
      finalize: issueSaleSchema,
      deleted: saleDeletedSchema,
    },
  }),
  integrity: apiRoute({
    method: 'GET',
    path: '/sales/integrity',
    query: saleIntegrityQuerySchema,
    answer: saleIntegritySchema,
  }),
  /** The price list's treatments and the catalogue's items a sale's line may bill. */
  billables: apiRoute({ method: 'GET', path: '/billables', query: billablesQuerySchema, answer: billablesSchema }),
  correct: apiRoute({
    method: 'POST',
    path: '/sales/:id/correct',
    params,
    body: correctSaleSchema,
    answer: saleResponseSchema,
    status: 201,
    idempotent: 'sales.correct',
  }),
  send: apiRoute({ method: 'POST', path: '/sales/:id/send', params, answer: saleSentSchema }),
  /** Sends a rejected submission again (issue 39), or asks at once for one without an answer. */
  retryEinvoice: apiRoute({ method: 'POST', path: '/sales/:id/einvoice/retry', params, answer: saleResponseSchema }),
};

/** A budget's answer, progress and conversion, and invoicing a patient's attendances (issue 18). */
export const budgetRoutes = {
  decide: apiRoute({
    method: 'POST',
    path: '/sales/:id/decision',
    params,
    body: budgetDecisionRequestSchema,
    answer: budgetDecisionResponseSchema,
    status: 201,
    idempotent: 'budgets.decide',
  }),
  progress: apiRoute({ method: 'GET', path: '/sales/:id/progress', params, answer: budgetProgressResponseSchema }),
  convert: apiRoute({
    method: 'POST',
    path: '/sales/:id/convert',
    params,
    body: convertBudgetRequestSchema,
    answer: saleDraftCreatedSchema,
    status: 201,
    idempotent: 'sales.convert',
  }),
  billing: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/billing',
    params: patientParamsSchema,
    answer: patientBillingResponseSchema,
  }),
  invoiceDraft: apiRoute({
    method: 'POST',
    path: '/patients/:patientId/invoice-draft',
    params: patientParamsSchema,
    body: invoiceDraftRequestSchema,
    answer: saleDraftCreatedSchema,
    status: 201,
    idempotent: 'sales.invoice-draft',
  }),
};
