import { apiRoute } from '../api-route.ts';
import {
  createOdontogramEntriesRequestSchema,
  odontogramChartResponseSchema,
  odontogramEntriesCreatedSchema,
  odontogramEntriesPageSchema,
  odontogramEntryParamsSchema,
  odontogramEntryVoidedSchema,
  odontogramQuerySchema,
  voidOdontogramEntryRequestSchema,
} from '../schemas/odontogram.ts';
import { pageQuerySchema, patientParamsSchema } from '../schemas/records.ts';

/** /api/patients/:patientId/odontogram (issue 6): the chart, its printout and its entries. */
export const odontogramRoutes = {
  chart: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/odontogram',
    params: patientParamsSchema,
    query: odontogramQuerySchema,
    answer: odontogramChartResponseSchema,
  }),
  pdf: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/odontogram.pdf',
    params: patientParamsSchema,
    query: odontogramQuerySchema,
    produces: ['application/pdf'],
  }),
  entries: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/odontogram/entries',
    params: patientParamsSchema,
    query: pageQuerySchema,
    answer: odontogramEntriesPageSchema,
  }),
  createEntries: apiRoute({
    method: 'POST',
    path: '/patients/:patientId/odontogram/entries',
    params: patientParamsSchema,
    body: createOdontogramEntriesRequestSchema,
    answer: odontogramEntriesCreatedSchema,
    status: 201,
  }),
  voidEntry: apiRoute({
    method: 'DELETE',
    path: '/patients/:patientId/odontogram/entries/:entryId',
    params: odontogramEntryParamsSchema,
    body: voidOdontogramEntryRequestSchema,
    answer: odontogramEntryVoidedSchema,
  }),
};
