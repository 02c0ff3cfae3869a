import type { InventoryKind } from '@odontia/shared/enums';
import {
  createMedicationRequestSchema,
  createSupplyRequestSchema,
  inventoryExportQuerySchema,
  inventoryImportRequestSchema,
  inventoryImportResponseSchema,
  inventoryListQuerySchema,
  inventoryPageSchema,
  medicationResponseSchema,
  reorderPageSchema,
  reorderQuerySchema,
  stockAdjustmentRequestSchema,
  stockAdjustmentResponseSchema,
  stockMovementsPageSchema,
  stockMovementsQuerySchema,
  supplyResponseSchema,
  updateMedicationRequestSchema,
  updateSupplyRequestSchema,
} from '@odontia/shared/schemas/inventory';
import { recordParamsSchema as params } from '@odontia/shared/schemas/records';
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
  const base = medication ? '/medications' : '/supplies';
  const label = medication ? 'medicine' : 'supply';
  const route = routes(app, { tags: [medication ? 'medications' : 'supplies'] });
  const read = { permission: 'inventory.read' } as const;
  const write = { permission: 'inventory.write' } as const;
  const answer = medication ? medicationResponseSchema : supplyResponseSchema;
  const created = medication ? ('medication_created' as const) : ('supply_created' as const);
  const updated = medication ? ('medication_updated' as const) : ('supply_updated' as const);

  route.get(
    base,
    {
      ...read,
      summary: `List ${label} items: search (name, SKU, barcode, active principle), filters, sort`,
      querystring: inventoryListQuerySchema,
      answer: inventoryPageSchema,
    },
    ({ ctx, query }) => service.list({ ctx, kind, query }),
  );

  route.get(
    `${base}/export`,
    {
      ...read,
      summary: `The ${label} list as CSV (same search, filters and sort, every page)`,
      querystring: inventoryExportQuerySchema,
      produces: ['text/csv'],
    },
    async ({ ctx, query, reply }) => sendCsv(reply, await service.exportCsv({ ctx, kind, query })),
  );

  route.post(
    `${base}/import`,
    {
      ...write,
      summary: `Import ${label} items from CSV: dryRun previews; otherwise all rows or none`,
      bodyLimit: uploadMaxBytes,
      body: inventoryImportRequestSchema,
      answer: inventoryImportResponseSchema,
      otherAnswers: { 201: inventoryImportResponseSchema },
    },
    async ({ ctx, body, reply }) => {
      const data = await service.importCsv({ ctx, kind, input: body });
      if (body.dryRun) return { data };
      reply.status(201);
      return { data, code: 'inventory_imported' as const };
    },
  );

  route.get(`${base}/:id`, { ...read, summary: `One ${label} item`, params, answer }, async ({ ctx, params }) => ({
    data: await service.get({ ctx, kind, ...params }),
  }));

  route.post(
    base,
    {
      ...write,
      summary: `Create a ${label} item; its stock becomes an 'initial' movement`,
      body: medication ? createMedicationRequestSchema : createSupplyRequestSchema,
      answer,
      status: 201,
    },
    async ({ ctx, body }) => ({ data: await service.create({ ctx, kind, input: body as ItemInput }), code: created }),
  );

  route.put(
    `${base}/:id`,
    {
      ...write,
      summary: `Edit a ${label} item (not its stock); 409 when the version is stale`,
      params,
      body: medication ? updateMedicationRequestSchema : updateSupplyRequestSchema,
      answer,
    },
    async ({ ctx, params, body }) => ({
      data: await service.update({ ctx, kind, ...params, input: body }),
      code: updated,
    }),
  );

  route.get(
    `${base}/:id/stock-movements`,
    {
      ...read,
      summary: `Stock movements of a ${label} item, newest first`,
      params,
      querystring: stockMovementsQuerySchema,
      answer: stockMovementsPageSchema,
    },
    ({ ctx, params, query }) => service.listMovements({ ctx, kind, ...params, query }),
  );

  route.post(
    `${base}/:id/stock-movements`,
    {
      ...write,
      summary: `Adjust the stock of a ${label} item (in or out, with a reason)`,
      params,
      body: stockAdjustmentRequestSchema,
      answer: stockAdjustmentResponseSchema,
      status: 201,
    },
    async ({ ctx, params, body }) => ({
      data: await service.adjust({ ctx, kind, ...params, input: body }),
      code: 'stock_adjusted' as const,
    }),
  );
};

/** GET /api/inventory/reorder: the "to order" list of both catalogues. */
export const reorderRoutes: FastifyPluginAsync = async (app) => {
  routes(app, { tags: ['inventory'] }).get(
    '/inventory/reorder',
    {
      permission: 'inventory.read',
      summary: 'Active items at or below their reorder level, critical first, with a suggested quantity',
      querystring: reorderQuerySchema,
      answer: reorderPageSchema,
    },
    ({ ctx, query }) => service.reorder({ ctx, query }),
  );
};
