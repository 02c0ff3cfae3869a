import { fiscalRoutes as declared, pointOfSaleRecord } from '@odontia/shared/routes/fiscal';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/app-error.ts';
import { multipartBodies, multipartParts } from '../../plugins/multipart.ts';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { fiscalService, maxLogoBytes, pointsOfSaleService } from './fiscal.service.ts';

/**
 * The clinic's business and fiscal data (issue 17): /api/settings/fiscal (read by whoever reads
 * the commercial area, written by settings.manage), its logo and /api/points-of-sale. The logo's
 * upload is multipart: this plugin registers `multipartBodies` for its own routes (one file of at
 * most 1 MB), like the patient files' plugin does for theirs.
 */
export const fiscalRoutes: FastifyPluginAsync = async (app) => {
  await app.register(multipartBodies, {
    limits: { fileSize: maxLogoBytes + 1, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
  });
  const route = routes(app, { tags: ['settings'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_fiscal_data' } as const;
  const write = { permission: 'settings.manage', failureCode: 'error_update_fiscal_data' } as const;

  route.serve(
    declared.get,
    {
      ...read,
      summary: "The clinic's business and fiscal data (legal name, tax id, fiscal condition, address…) and its version",
    },
    async ({ ctx }) => ({ data: await fiscalService.get({ ctx }) }),
  );

  route.serve(
    declared.save,
    {
      ...write,
      summary:
        "Edit the clinic's fiscal data: the tax id's check digits are checked by its kind (400 invalid_tax_id on taxId), the kind and condition must be the country's; 409 version_conflict with details.current when stale",
    },
    async ({ ctx, body }) => ({
      data: await fiscalService.update({ ctx, input: body }),
      code: 'fiscal_data_updated' as const,
    }),
  );

  route.serve(
    declared.logo,
    { ...read, summary: "The clinic's logo (PNG, at most 600 px wide); 404 not_found without one" },
    async ({ ctx, reply }) => {
      const logo = await fiscalService.logo({ ctx });
      return reply
        .type(logo.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('etag', `"${logo.sha256}"`)
        .header('cache-control', 'private, no-cache')
        .send(logo.bytes);
    },
  );

  route.serve(
    declared.uploadLogo,
    {
      ...write,
      summary:
        'Replace the logo (multipart, one file part `logo`): a PNG or JPEG by its content, at most 1 MB (415 logo_invalid otherwise, details.maxBytes); stored as a PNG at most 600 px wide',
      consumes: ['multipart/form-data'],
      // The bytes are read first; the service stores them in its own transaction.
      transaction: false,
    },
    async ({ actor, request }) => {
      if (!request.isMultipart()) throw new AppError('logo_invalid', { maxBytes: maxLogoBytes });
      const data = await fiscalService.uploadLogo({ db: app.db, actor, parts: () => multipartParts(request) });
      return { data, code: 'logo_updated' as const };
    },
  );

  route.serve(
    declared.removeLogo,
    { ...write, summary: 'Remove the logo (documents print without one)' },
    async ({ ctx }) => ({ data: await fiscalService.removeLogo({ ctx }), code: 'logo_removed' as const }),
  );

  recordRoutes(route, {
    declared: pointOfSaleRecord,
    service: pointsOfSaleService,
    list: { ...read, summary: "The clinic's points of sale (puntos de venta), by code" },
    get: { ...read, summary: 'One point of sale' },
    create: {
      ...write,
      summary: 'Add a point of sale: code of 1 to 5 digits, stored with 4 (0001); 409 point_of_sale_exists',
    },
    update: { ...write, summary: 'Edit or deactivate a point of sale; 409 when stale or the code is taken' },
    remove: { ...write, summary: 'Delete a point of sale (soft)' },
    changes: { ...read, summary: "The point of sale's history of changes, newest first" },
  });
};
