import { apiRoute } from '../api-route.ts';
import { csvImportRequestSchema } from '../schemas/common.ts';
import {
  treatmentContracts,
  treatmentGroupsResponseSchema,
  treatmentImportResponseSchema,
  treatmentsExportQuerySchema,
  treatmentsQuerySchema,
} from '../schemas/schedules.ts';
import { recordApiRoutes } from './records.ts';

/** The clinic's treatments, which are also its price list (issues 16, 18): /api/treatments. */
export const treatmentRecord = recordApiRoutes({
  path: '/treatments',
  contracts: treatmentContracts,
  listQuery: treatmentsQuerySchema,
});

/** What the price list adds to the treatments' usual routes: its groups, its CSV out and in. */
export const priceListRoutes = {
  export: apiRoute({
    method: 'GET',
    path: '/treatments/export',
    query: treatmentsExportQuerySchema,
    produces: ['text/csv'],
  }),
  groups: apiRoute({ method: 'GET', path: '/treatments/groups', answer: treatmentGroupsResponseSchema }),
  /** A dry run answers 200, the import 201 (the server states both). */
  import: apiRoute({
    method: 'POST',
    path: '/treatments/import',
    body: csvImportRequestSchema,
    answer: treatmentImportResponseSchema,
  }),
};
