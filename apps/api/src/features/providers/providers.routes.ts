import { providerRoutes as declared, providerRecord } from '@odontia/shared/routes/parties';
import type { FastifyPluginAsync } from 'fastify';
import { sendCsv } from '../../lib/csv.ts';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { providersService } from './providers.service.ts';

/**
 * /api/providers (issue 17): commercial.read reads, commercial.write creates and edits,
 * commercial.delete deletes (only a provider without documents or payments).
 */
export const providersRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['providers'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_provider' } as const;
  const write = { permission: 'commercial.write' } as const;

  route.serve(
    declared.exportCsv,
    {
      ...read,
      summary: 'The providers as CSV (UTF-8 with BOM, ";"): the list\'s search, filter and sort, every page',
    },
    async ({ ctx, query, reply }) => sendCsv(reply, await providersService.exportCsv({ ctx, query })),
  );

  recordRoutes(route, {
    declared: providerRecord,
    service: providersService,
    list: {
      ...read,
      summary:
        "The clinic's providers: search as you type (names, tax id, contact), active=true|false, sort fantasyName|nif|updatedAt",
    },
    get: { ...read, summary: 'One provider, with hasDocuments' },
    create: {
      ...write,
      failureCode: 'error_create_provider',
      summary: 'Add a provider; 409 provider_tax_id_exists (details.provider) when the clinic has the tax id',
    },
    update: {
      ...write,
      failureCode: 'error_update_provider',
      summary: 'Edit a provider; 409 version_conflict when stale, provider_tax_id_exists for a taken tax id',
    },
    remove: {
      permission: 'commercial.delete',
      failureCode: 'error_delete_provider',
      summary:
        'Delete a provider (soft); 409 provider_has_documents when a document or payment names it (deactivate it)',
    },
    changes: { ...read, summary: "The provider's history of changes, newest first" },
  });
};
