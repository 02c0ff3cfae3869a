import { apiRoute } from '../api-route.ts';
import {
  affiliationContracts,
  coverageQuerySchema,
  coverageResponseSchema,
  createPresentationSchema,
  payerContracts,
  payerInvoiceRequestSchema,
  payerInvoiceResultSchema,
  payerParamsSchema,
  payerPlanContracts,
  payerRecordParamsSchema,
  presentationLinesQuerySchema,
  presentationListQuerySchema,
  presentationPageSchema,
  presentationPaySchema,
  presentationResponseSchema,
  presentationStepSchema,
  rejectionRequestSchema,
  splitLinePageSchema,
} from '../schemas/payers.ts';
import { patientParamsSchema, patientRecordParamsSchema, recordParamsSchema } from '../schemas/records.ts';
import { recordApiRoutes } from './records.ts';

/** Third-party payers (issue 40): /api/payers, their plans, affiliations, split invoicing, presentations. */
export const payerRecord = recordApiRoutes({ path: '/payers', contracts: payerContracts });

export const payerPlanRecord = recordApiRoutes({
  path: '/payers/:payerId/plans',
  contracts: payerPlanContracts,
  params: { list: payerParamsSchema, record: payerRecordParamsSchema },
});

export const affiliationRecord = recordApiRoutes({
  path: '/patients/:patientId/affiliations',
  contracts: affiliationContracts,
  params: { list: patientParamsSchema, record: patientRecordParamsSchema },
});

export const payerRoutes = {
  /** What invoicing these attendances would split (the screen's preview runs splitLines on it). */
  coverage: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/payer-coverage',
    params: patientParamsSchema,
    query: coverageQuerySchema,
    answer: coverageResponseSchema,
  }),
  /** Issues the patient's invoice and the payer's invoice of these attendances (or all not yet invoiced). */
  invoice: apiRoute({
    method: 'POST',
    path: '/patients/:patientId/payer-invoices',
    params: patientParamsSchema,
    body: payerInvoiceRequestSchema,
    answer: payerInvoiceResultSchema,
    status: 201,
    idempotent: 'payers.invoice',
  }),
  presentations: apiRoute({
    method: 'GET',
    path: '/payer-presentations',
    query: presentationListQuerySchema,
    answer: presentationPageSchema,
  }),
  presentation: apiRoute({
    method: 'GET',
    path: '/payer-presentations/:id',
    params: recordParamsSchema,
    answer: presentationResponseSchema,
  }),
  presentationLines: apiRoute({
    method: 'GET',
    path: '/payer-presentations/:id/lines',
    params: recordParamsSchema,
    query: presentationLinesQuerySchema,
    answer: splitLinePageSchema,
  }),
  createPresentation: apiRoute({
    method: 'POST',
    path: '/payer-presentations',
    body: createPresentationSchema,
    answer: presentationResponseSchema,
    status: 201,
    idempotent: 'payers.presentation',
  }),
  sendPresentation: apiRoute({
    method: 'POST',
    path: '/payer-presentations/:id/send',
    params: recordParamsSchema,
    body: presentationStepSchema,
    answer: presentationResponseSchema,
  }),
  acceptPresentation: apiRoute({
    method: 'POST',
    path: '/payer-presentations/:id/accept',
    params: recordParamsSchema,
    body: presentationStepSchema,
    answer: presentationResponseSchema,
  }),
  payPresentation: apiRoute({
    method: 'POST',
    path: '/payer-presentations/:id/pay',
    params: recordParamsSchema,
    body: presentationPaySchema,
    answer: presentationResponseSchema,
    idempotent: 'payers.presentation-pay',
  }),
  reject: apiRoute({
    method: 'POST',
    path: '/payer-presentations/:id/rejections',
    params: recordParamsSchema,
    body: rejectionRequestSchema,
    answer: presentationResponseSchema,
    idempotent: 'payers.rejection',
  }),
  presentationPdf: apiRoute({
    method: 'GET',
    path: '/payer-presentations/:id/presentation.pdf',
    params: recordParamsSchema,
    produces: ['application/pdf'],
  }),
  presentationXlsx: apiRoute({
    method: 'GET',
    path: '/payer-presentations/:id/presentation.xlsx',
    params: recordParamsSchema,
    produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  }),
};
