import { customerRoutes as declared } from '@odontia/shared/routes/parties';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { lookupCustomers } from './customer-lookup.ts';

/** GET /api/customers/lookup (issue 18): who a sale or a collection can bill, searched as you type. */
export const customerLookupRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['customers'] });
  route.serve(
    declared.lookup,
    {
      permission: 'commercial.read',
      failureCode: 'error_get_customer',
      summary:
        "Patients, companies and insurers matching q (name, clinic number, ID, tax id, e-mail), with each one's balance and credit on account",
    },
    async ({ ctx, query }) => ({ data: await lookupCustomers(ctx, query) }),
  );
};
