import { apiRoute } from '../api-route.ts';
import { customerListQuerySchema, customerRecordContracts } from '../schemas/customer-records.ts';
import { customerLookupAnswerSchema, customerLookupQuerySchema } from '../schemas/customers.ts';
import { providerContracts, providerExportQuerySchema, providerListQuerySchema } from '../schemas/providers.ts';
import { recordApiRoutes } from './records.ts';

/** /api/customers (issue 18): companies, insurers and the patients billed. */
export const customerRecord = recordApiRoutes({
  path: '/customers',
  contracts: customerRecordContracts,
  listQuery: customerListQuerySchema,
});

export const customerRoutes = {
  ...customerRecord.routes,
  /** Who a sale or a collection can bill, searched as you type. */
  lookup: apiRoute({
    method: 'GET',
    path: '/customers/lookup',
    query: customerLookupQuerySchema,
    answer: customerLookupAnswerSchema,
  }),
};

/** /api/providers (issue 17). */
export const providerRecord = recordApiRoutes({
  path: '/providers',
  contracts: providerContracts,
  listQuery: providerListQuerySchema,
});

export const providerRoutes = {
  ...providerRecord.routes,
  exportCsv: apiRoute({
    method: 'GET',
    path: '/providers/export.csv',
    query: providerExportQuerySchema,
    produces: ['text/csv'],
  }),
};
