import type { InventoryKind } from '@odontia/shared/enums';
import {
  type CatalogueRoutes,
  inventoryRoutes as inventoryApiRoutes,
  medicationRoutes,
  supplyRoutes,
} from '@odontia/shared/routes/inventory';
import { inventoryImportResponseSchema } from '@odontia/shared/schemas/inventory';
import type { FastifyPluginAsync } from 'fastify';
import { sendCsv } from '../../lib/csv.ts';
import { routes } from '../../plugins/routes.ts';
import { type ItemInput, inventoryService as service } from './inventory.service.ts';

/**
 * One catalogue's routes, registered twice: medicines at /medications, supplies at /supplies.
 * An id of another clinic or of the other kind answers `<kind>_not_found`.
 */
export const inventoryRoutes: FastifyPluginAsync<{ kind: InventoryKind; uploadMaxBytes: number }> = async (
  app,
  { kind, uploadMaxBytes },
) => {
  const medication = kind === 'medication';
  const label = medication ? 'medicine' : 'supply';
  const route = routes(app, { tags: [medication ? 'medications' : 'supplies'] });
  const read = { permission: 'inventory.read' } as const;
  const write = { permission: 'inventory.write' } as const;
  const declared: CatalogueRoutes = medication ? medicationRoutes : supplyRoutes;
  const created = medication ? ('medication_created' as const) : ('supply_created' as const);
  const updated = medication ? ('medication_updated' as const) : ('supply_updated' as const);

  route.serve(
    declared.list,
    { ...read, summary: `List ${label} items: search (name, SKU, barcode, active principle), filters, sort` },
    ({ ctx, query }) => service.list({ ctx, kind, query }),
  );

  route.serve(
    declared.export,
    { ...read, summary: `The ${label} list as CSV (same search, filters and sort, every page)` },
    async ({ ctx, query, reply }) => sendCsv(reply, await service.exportCsv({ ctx, kind, query })),
  );

  route.serve(
    declared.import,
    {
      ...write,
      summary: `Import ${label} items from CSV: dryRun previews; otherwise all rows or none`,
      bodyLimit: uploadMaxBytes,
      otherAnswers: { 201: inventoryImportResponseSchema },
    },
    async ({ ctx, body, reply }) => {
      const data = await service.importCsv({ ctx, kind, input: body });
      if (body.dryRun) return { data };
      reply.status(201);
      return { data, code: 'inventory_imported' as const };
    },
  );

  route.serve(declared.get, { ...read, summary: `One ${label} item` }, async ({ ctx, params }) => ({
    data: await service.get({ ctx, kind, ...params }),
  }));

  route.serve(
    declared.create,
    { ...write, summary: `Create a ${label} item; its stock becomes an 'initial' movement` },
    async ({ ctx, body }) => ({ data: await service.create({ ctx, kind, input: body as ItemInput }), code: created }),
  );

  route.serve(
    declared.update,
    { ...write, summary: `Edit a ${label} item (not its stock); 409 when the version is stale` },
    async ({ ctx, params, body }) => ({
      data: await service.update({ ctx, kind, ...params, input: body }),
      code: updated,
    }),
  );

  route.serve(
    declared.movements,
    { ...read, summary: `Stock movements of a ${label} item, newest first` },
    ({ ctx, params, query }) => service.listMovements({ ctx, kind, ...params, query }),
  );

  route.serve(
    declared.adjust,
    { ...write, summary: `Adjust the stock of a ${label} item (in or out, with a reason)` },
    async ({ ctx, params, body }) => ({
      data: await service.adjust({ ctx, kind, ...params, input: body }),
      code: 'stock_adjusted' as const,
    }),
  );
};

/** GET /api/inventory/reorder: the "to order" list of both catalogues. */
export const reorderRoutes: FastifyPluginAsync = async (app) => {
  routes(app, { tags: ['inventory'] }).serve(
    inventoryApiRoutes.reorder,
    {
      permission: 'inventory.read',
      summary: 'Active items at or below their reorder level, critical first, with a suggested quantity',
    },
    ({ ctx, query }) => service.reorder({ ctx, query }),
  );
};
