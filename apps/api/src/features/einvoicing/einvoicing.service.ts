import type {
  EinvoiceCertificateUpload,
  EinvoiceSettings,
  EinvoiceSettingsUpdate,
} from '@odontia/shared/schemas/einvoicing';
import type { RequestContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { auditClinicSettings } from '../audit/audit.repository.ts';
import { ArcaRefused, ArcaUnreachable } from '../sales/einvoicing/arca/index.ts';
import { arcaClientFor, loadEinvoiceSettings, verifactuClientFor } from '../sales/einvoicing/authorities.ts';
import { VerifactuRefused, VerifactuUnreachable } from '../sales/einvoicing/verifactu/index.ts';
import { readCertificate } from './certificates.ts';
import * as repository from './einvoicing.repository.ts';

/**
 * The clinic's electronic invoicing (issue 39): the regime, the environment, the certificate
 * (sealed; only what it says is answered) and ARCA's number for each point of sale. ARCA needs an
 * Argentine clinic with its CUIT, Verifactu a Spanish one with its NIF, and either a certificate
 * first: a regime that could not send is refused here rather than failing at every issue.
 */

type Ctx = RequestContext;

async function present(ctx: Ctx): Promise<EinvoiceSettings> {
  const [settings, points, series, queue] = [
    await repository.findSettings(ctx),
    await repository.livePointsOfSale(ctx),
    await repository.seriesOf(ctx),
    await repository.queueCounts(ctx),
  ];
  const info = settings?.certificateInfo ?? null;
  return {
    regime: settings?.regime ?? 'local',
    environment: settings?.environment ?? 'homologation',
    certificate: info,
    pointsOfSale: points.map((point) => ({
      code: point.code,
      name: point.name,
      active: point.active,
      authorityNumber: point.authorityNumber ?? Number(point.code),
    })),
    series: series.map((row) => {
      const [, pos, type] = row.series.split(':');
      return {
        series: row.series,
        pointOfSale: pos ? Number(pos) : null,
        voucherType: type ? Number(type) : null,
        lastNumber: row.lastNumber,
        authorityLastNumber: row.authorityLastNumber,
        difference: row.difference ?? null,
        checkedAt: row.checkedAt?.toISOString() ?? null,
      };
    }),
    queue,
    updatedAt: settings?.updatedAt.toISOString() ?? null,
    version: settings?.version ?? 1,
  };
}

const normalized = (taxId: string | null | undefined) => (taxId ?? '').replace(/[^0-9A-Z]/gi, '').toUpperCase();

export function createEinvoicingService(deps: { sealer: Sealer }) {
  return {
    get: ({ ctx }: { ctx: Ctx }) => present(ctx),

    async update({ ctx, input }: { ctx: Ctx; input: EinvoiceSettingsUpdate }) {
      const current = await repository.lockSettings(ctx);
      if (current.version !== input.version) throw new AppError('version_conflict', { current: await present(ctx) });
      const clinic = await repository.clinicFiscal(ctx);
      if (input.regime === 'arca' && !(clinic?.country === 'AR' && clinic.taxIdKind === 'cuit' && clinic.taxId)) {
        throw new AppError('einvoice_regime_invalid', { reason: 'country', regime: 'arca' });
      }
      if (input.regime === 'verifactu' && !(clinic?.country === 'ES' && clinic.taxIdKind === 'nif' && clinic.taxId)) {
        throw new AppError('einvoice_regime_invalid', { reason: 'country', regime: 'verifactu' });
      }
      if (input.regime !== 'local' && !current.certificateSealed) throw new AppError('einvoice_certificate_required');
      const mapped: { code: string; authorityNumber: number | null }[] = [];
      for (const [index, point] of input.pointsOfSale.entries()) {
        if (!(await repository.setAuthorityNumber(ctx, point.code, point.authorityNumber))) {
          throw new AppError('validation_error', {
            fields: [{ path: `pointsOfSale.${index}.code`, code: 'not_found' }],
          });
        }
        mapped.push(point);
      }
      await repository.writeSettings(ctx, { regime: input.regime, environment: input.environment });
      await auditClinicSettings(
        ctx,
        'einvoice_settings_updated',
        {
          before: { regime: current.regime, environment: current.environment },
          after: { regime: input.regime, environment: input.environment, pointsOfSale: mapped },
        },
        current.version,
      );
      return present(ctx);
    },

    async uploadCertificate({ ctx, input }: { ctx: Ctx; input: EinvoiceCertificateUpload }) {
      const current = await repository.lockSettings(ctx);
      const clinic = await repository.clinicFiscal(ctx);
      const certificate = readCertificate(input, normalized(clinic?.taxId) || null);
      await repository.writeSettings(ctx, {
        certificateSealed: deps.sealer.seal(certificate.certificatePem),
        privateKeySealed: deps.sealer.seal(certificate.privateKeyPem),
        certificateInfo: certificate.info,
      });
      await repository.dropTickets(ctx);
      // Never the key in the trail: what the certificate says.
      await auditClinicSettings(
        ctx,
        'einvoice_certificate_updated',
        { before: { certificate: current.certificateInfo ?? null }, after: { certificate: certificate.info } },
        current.version,
      );
      return present(ctx);
    },

    async removeCertificate({ ctx }: { ctx: Ctx }) {
      const current = await repository.lockSettings(ctx);
      if (current.regime !== 'local') throw new AppError('einvoice_certificate_required', { regime: current.regime });
      await repository.writeSettings(ctx, { certificateSealed: null, privateKeySealed: null, certificateInfo: null });
      await repository.dropTickets(ctx);
      await auditClinicSettings(
        ctx,
        'einvoice_certificate_removed',
        { before: { certificate: current.certificateInfo ?? null }, after: { certificate: null } },
        current.version,
      );
      return present(ctx);
    },

    /** Asks the authority of the regime chosen: its servers, the certificate, ARCA's points of sale. */
    async testConnection({ ctx }: { ctx: Ctx }) {
      const settings = await loadEinvoiceSettings(ctx.tx, ctx.accountId);
      const regime = settings?.regime ?? 'local';
      const answer = { regime, pointsOfSale: [] as { number: number; blocked: boolean }[] };
      if (!settings || regime === 'local') {
        return { ...answer, ok: true, code: 'einvoice_connection_local', detail: null };
      }
      if (!settings.certificateSealed) throw new AppError('einvoice_certificate_required');
      const clinic = await repository.clinicFiscal(ctx);
      try {
        if (regime === 'arca') {
          const client = arcaClientFor(ctx.tx, ctx.accountId, settings, normalized(clinic?.taxId));
          const found = await client?.checkConnection();
          return {
            ...answer,
            ok: true,
            code: 'einvoice_connection_ok',
            detail: found
              ? `AppServer ${found.appServer} · DbServer ${found.dbServer} · AuthServer ${found.authServer}`
              : null,
            pointsOfSale: found?.pointsOfSale ?? [],
          };
        }
        await verifactuClientFor(settings)?.checkConnection({
          nif: normalized(clinic?.taxId),
          nombre: clinic?.legalName || clinic?.clinicName || normalized(clinic?.taxId),
        });
        return { ...answer, ok: true, code: 'einvoice_connection_ok', detail: null };
      } catch (error) {
        if (error instanceof ArcaUnreachable || error instanceof VerifactuUnreachable) {
          return { ...answer, ok: false, code: 'einvoice_authority_unreachable', detail: error.message };
        }
        if (error instanceof ArcaRefused || error instanceof VerifactuRefused) {
          return {
            ...answer,
            ok: false,
            code: 'einvoice_authority_refused',
            detail: `${error.code}: ${error.message}`,
          };
        }
        throw error;
      }
    },
  };
}
