import { customerRecord } from '@odontia/shared/routes/parties';
import type { FastifyPluginAsync } from 'fastify';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { customersService } from './customers.service.ts';

/**
 * /api/customers (issue 18): commercial.read reads, commercial.write creates and edits (fiscal
 * data included), commercial.delete deletes (only a company or insurer without documents).
 */
export const customersRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['customers'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_customer' } as const;
  const write = { permission: 'commercial.write' } as const;
  recordRoutes(route, {
    declared: customerRecord,
    service: customersService,
    list: {
      ...read,
      summary:
        "The clinic's customers (patients billed, companies, insurers): search as you type (name, tax id, e-mail, phone), kind, active, sort name|taxId|updatedAt",
    },
    get: { ...read, summary: 'One customer, with hasDocuments' },
    create: {
      ...write,
      failureCode: 'error_create_customer',
      summary:
        'Add a company or an insurer with its fiscal data; 409 customer_tax_id_exists (details.customer) when the clinic has the tax id',
    },
    update: {
      ...write,
      failureCode: 'error_update_customer',
      summary:
        "Edit a customer (a patient's row: its billing data only); 409 version_conflict when stale, customer_tax_id_exists for a taken tax id",
    },
    remove: {
      permission: 'commercial.delete',
      failureCode: 'error_delete_customer',
      summary:
        "Delete a company or insurer (soft); 409 customer_has_documents when a document or collection names it (deactivate it), customer_is_patient for a patient's row",
    },
    changes: { ...read, summary: "The customer's history of changes, newest first" },
  });
};
