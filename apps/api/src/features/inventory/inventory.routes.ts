import type { InventoryKind } from '@odontia/shared/enums';
import { idSchema } from '@odontia/shared/schemas/common';
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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { InventoryService, ItemInput } from './inventory.service.ts';

const idParams = z.object({ id: idSchema });

/**
 * One catalogue's routes, registered twice: medicines at /medications, supplies at /supplies.
 * An id of another clinic or of the other kind answers `<kind>_not_found`.
 */
export const inventoryRoutes: FastifyPluginAsyncZod<{
  kind: InventoryKind;
  service: InventoryService;
  uploadMaxBytes: number;
}> = async (app, { kind, service, uploadMaxBytes }) => {
  const medication = kind === 'medication';
  const base = medication ? '/medications' : '/supplies';
  const label = medication ? 'medicine' : 'supply';
  const tags = [medication ? 'medications' : 'supplies'];
  const security = [{ bearerAuth: [] }];
  const createSchema = medication ? createMedicationRequestSchema : createSupplyRequestSchema;
  const updateSchema = medication ? updateMedicationRequestSchema : updateSupplyRequestSchema;
  const responseSchema = medication ? medicationResponseSchema : supplyResponseSchema;
  const created = medication ? ('medication_created' as const) : ('supply_created' as const);
  const updated = medication ? ('medication_updated' as const) : ('supply_updated' as const);

  app.get(
    base,
    {
      config: { permission: 'inventory.read' },
      schema: {
        tags,
        security,
        summary: `List ${label} items: search (name, SKU, barcode, active principle), filters, sort`,
        querystring: inventoryListQuerySchema,
        response: { 200: inventoryPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), kind, request.query),
  );

  app.get(
    `${base}/export`,
    {
      config: { permission: 'inventory.read' },
      schema: {
        tags,
        security,
        summary: `The ${label} list as CSV (same search, filters and sort, every page)`,
        querystring: inventoryExportQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { csv, fileName } = await service.exportCsv(sessionOf(request), kind, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.post(
    `${base}/import`,
    {
      bodyLimit: uploadMaxBytes,
      config: { permission: 'inventory.write' },
      schema: {
        tags,
        security,
        summary: `Import ${label} items from CSV: dryRun previews; otherwise all rows or none`,
        body: inventoryImportRequestSchema,
        response: { 200: inventoryImportResponseSchema, 201: inventoryImportResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.importCsv(sessionOf(request), kind, request.body, request.ip);
      if (request.body.dryRun) return { data };
      return reply.status(201).send({ data, code: 'inventory_imported' as const });
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { permission: 'inventory.read' },
      schema: { tags, security, summary: `One ${label} item`, params: idParams, response: { 200: responseSchema } },
    },
    async (request) => ({ data: await service.get(sessionOf(request), kind, request.params.id) }),
  );

  app.post(
    base,
    {
      config: { permission: 'inventory.write' },
      schema: {
        tags,
        security,
        summary: `Create a ${label} item; its stock becomes an 'initial' movement`,
        body: createSchema,
        response: { 201: responseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.create(sessionOf(request), kind, request.body as ItemInput, request.ip);
      return reply.status(201).send({ data, code: created });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: { permission: 'inventory.write' },
      schema: {
        tags,
        security,
        summary: `Edit a ${label} item (not its stock); 409 when the version is stale`,
        params: idParams,
        body: updateSchema,
        response: { 200: responseSchema },
      },
    },
    async (request) => ({
      data: await service.update(sessionOf(request), kind, request.params.id, request.body, request.ip),
      code: updated,
    }),
  );

  app.get(
    `${base}/:id/stock-movements`,
    {
      config: { permission: 'inventory.read' },
      schema: {
        tags,
        security,
        summary: `Stock movements of a ${label} item, newest first`,
        params: idParams,
        querystring: stockMovementsQuerySchema,
        response: { 200: stockMovementsPageSchema },
      },
    },
    async (request) => service.listMovements(sessionOf(request), kind, request.params.id, request.query),
  );

  app.post(
    `${base}/:id/stock-movements`,
    {
      config: { permission: 'inventory.write' },
      schema: {
        tags,
        security,
        summary: `Adjust the stock of a ${label} item (in or out, with a reason)`,
        params: idParams,
        body: stockAdjustmentRequestSchema,
        response: { 201: stockAdjustmentResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.adjust(sessionOf(request), kind, request.params.id, request.body, request.ip);
      return reply.status(201).send({ data, code: 'stock_adjusted' as const });
    },
  );
};

/** GET /api/inventory/reorder: the "to order" list of both catalogues. */
export const reorderRoutes: FastifyPluginAsyncZod<{ service: InventoryService }> = async (app, { service }) => {
  app.get(
    '/inventory/reorder',
    {
      config: { permission: 'inventory.read' },
      schema: {
        tags: ['inventory'],
        security: [{ bearerAuth: [] }],
        summary: 'Active items at or below their reorder level, critical first, with a suggested quantity',
        querystring: reorderQuerySchema,
        response: { 200: reorderPageSchema },
      },
    },
    async (request) => service.reorder(sessionOf(request), request.query),
  );
};
