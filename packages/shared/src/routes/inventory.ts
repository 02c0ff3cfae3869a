import type { z } from 'zod';
import { apiRoute } from '../api-route.ts';
import { csvImportRequestSchema } from '../schemas/common.ts';
import {
  createMedicationRequestSchema,
  createSupplyRequestSchema,
  inventoryExportQuerySchema,
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
} from '../schemas/inventory.ts';
import { recordParamsSchema as params } from '../schemas/records.ts';

/**
 * One catalogue's routes (issue 11), declared twice: medicines at /medications, supplies at
 * /supplies; they differ in their fields and their answers' codes.
 */
function catalogueRoutes<TCreate extends z.ZodType, TUpdate extends z.ZodType, TAnswer extends z.ZodType>(
  base: '/medications' | '/supplies',
  contracts: { create: TCreate; update: TUpdate; answer: TAnswer },
) {
  const one = `${base}/:id` as const;
  return {
    list: apiRoute({ method: 'GET', path: base, query: inventoryListQuerySchema, answer: inventoryPageSchema }),
    export: apiRoute({
      method: 'GET',
      path: `${base}/export`,
      query: inventoryExportQuerySchema,
      produces: ['text/csv'],
    }),
    /** A dry run answers 200, the import 201 (the server states both). */
    import: apiRoute({
      method: 'POST',
      path: `${base}/import`,
      body: csvImportRequestSchema,
      answer: inventoryImportResponseSchema,
    }),
    get: apiRoute({ method: 'GET', path: one, params, answer: contracts.answer }),
    create: apiRoute({ method: 'POST', path: base, body: contracts.create, answer: contracts.answer, status: 201 }),
    update: apiRoute({ method: 'PUT', path: one, params, body: contracts.update, answer: contracts.answer }),
    movements: apiRoute({
      method: 'GET',
      path: `${one}/stock-movements`,
      params,
      query: stockMovementsQuerySchema,
      answer: stockMovementsPageSchema,
    }),
    adjust: apiRoute({
      method: 'POST',
      path: `${one}/stock-movements`,
      params,
      body: stockAdjustmentRequestSchema,
      answer: stockAdjustmentResponseSchema,
      status: 201,
    }),
  };
}

export const medicationRoutes = catalogueRoutes('/medications', {
  create: createMedicationRequestSchema,
  update: updateMedicationRequestSchema,
  answer: medicationResponseSchema,
});

export const supplyRoutes = catalogueRoutes('/supplies', {
  create: createSupplyRequestSchema,
  update: updateSupplyRequestSchema,
  answer: supplyResponseSchema,
});

/** What concerns both catalogues: the "to order" list. */
export const inventoryRoutes = {
  reorder: apiRoute({
    method: 'GET',
    path: '/inventory/reorder',
    query: reorderQuerySchema,
    answer: reorderPageSchema,
  }),
};

/** Either catalogue's routes: for what serves or calls both the same way. */
export type CatalogueRoutes = ReturnType<
  typeof catalogueRoutes<
    typeof createMedicationRequestSchema | typeof createSupplyRequestSchema,
    typeof updateMedicationRequestSchema | typeof updateSupplyRequestSchema,
    typeof medicationResponseSchema | typeof supplyResponseSchema
  >
>;
