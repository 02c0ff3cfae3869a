import { einvoicingRoutes as declared } from '@odontia/shared/routes/einvoicing';
import type { FastifyPluginAsync } from 'fastify';
import type { Sealer } from '../../lib/secrets.ts';
import { routes } from '../../plugins/routes.ts';
import { createEinvoicingService } from './einvoicing.service.ts';

/** /api/settings/einvoicing (issue 39): administrators only; the certificate never answered back. */
export const einvoicingRoutes: FastifyPluginAsync<{ sealer: Sealer }> = async (app, { sealer }) => {
  const route = routes(app, { tags: ['settings'] });
  const service = createEinvoicingService({ sealer });
  const admin = { permission: 'settings.manage', failureCode: 'error_update_einvoicing' } as const;

  route.serve(
    declared.get,
    {
      ...admin,
      summary:
        "The clinic's e-invoicing: regime, environment, certificate (what it says), points of sale, series, queue",
    },
    async ({ ctx }) => ({ data: await service.get({ ctx }) }),
  );
  route.serve(
    declared.update,
    {
      ...admin,
      summary:
        'Choose the regime (local, ARCA, Verifactu), the environment and ARCA’s number of each point of sale (409 version_conflict, einvoice_regime_invalid, einvoice_certificate_required)',
    },
    async ({ ctx, body }) => ({
      data: await service.update({ ctx, input: body }),
      code: 'einvoice_settings_updated' as const,
    }),
  );
  route.serve(
    declared.uploadCertificate,
    {
      ...admin,
      summary:
        'Upload the certificate and key (PEM, or PKCS#12 with its password); sealed at rest (400 einvoice_certificate_invalid with the reason)',
    },
    async ({ ctx, body }) => ({
      data: await service.uploadCertificate({ ctx, input: body }),
      code: 'einvoice_certificate_updated' as const,
    }),
  );
  route.serve(
    declared.removeCertificate,
    { ...admin, summary: 'Remove the certificate (only under the local regime)' },
    async ({ ctx }) => ({
      data: await service.removeCertificate({ ctx }),
      code: 'einvoice_certificate_removed' as const,
    }),
  );
  route.serve(
    declared.testConnection,
    { ...admin, summary: "Ask the regime's authority: its servers, the certificate, ARCA's points of sale" },
    async ({ ctx }) => ({ data: await service.testConnection({ ctx }) }),
  );
};
