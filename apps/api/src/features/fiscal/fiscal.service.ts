import { createHash } from 'node:crypto';
import type { Multipart } from '@fastify/multipart';
import type {
  FiscalData,
  PointOfSale,
  pointOfSaleContracts,
  UpdateFiscalData,
} from '@odontia/shared/schemas/clinic-fiscal';
import sharp from 'sharp';
import type { z } from 'zod';
import type { Actor, RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { guardUnique } from '../../db/errors.ts';
import { presentStamps } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import { inTransaction } from '../../plugins/routes.ts';
import { audit, auditClinicSettings } from '../audit/audit.repository.ts';
import { auditedRecords, clinicRecordService } from '../audit/audited-records.ts';
import { changedColumns } from '../audit/record-changes.ts';
import * as repository from './fiscal.repository.ts';

/**
 * The clinic's business and fiscal data (issue 17, spec §1). They are columns of `accounts`,
 * versioned by `accounts.version` (the reminder settings that write the address and phone bump
 * it too, so a stale form answers 409 rather than undoing them). Each edit is audited
 * (`fiscal_data_updated`, entity `account` as the reminder settings, only the fields that
 * changed). The logo is one PNG per clinic, at most 600 px wide, made from the PNG or JPEG
 * uploaded (≤ 1 MB, read by its content).
 */

/** The largest logo accepted, as uploaded. */
export const maxLogoBytes = 1024 * 1024;
/** The stored logo's largest width (it prints at most ~110 pt wide). */
export const logoMaxWidth = 600;

function present(row: repository.FiscalRow): FiscalData {
  return {
    clinicName: row.clinicName,
    legalName: row.legalName,
    tradeName: row.tradeName,
    country: row.country as FiscalData['country'],
    taxIdKind: row.taxIdKind as FiscalData['taxIdKind'],
    taxId: row.taxId,
    fiscalCondition: row.fiscalCondition,
    address: row.address,
    city: row.city,
    province: row.province,
    postalCode: row.postalCode,
    phone: row.phone,
    phoneMobile: row.phoneMobile,
    email: row.email,
    website: row.website,
    currency: row.currency,
    logoSha256: row.logoSha256,
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

function columnsOf(input: repository.FiscalColumns): repository.FiscalColumns {
  return Object.fromEntries(
    repository.fiscalColumnNames.map((name) => [name, input[name] ?? null]),
  ) as unknown as repository.FiscalColumns;
}

/** The fields whose value changes, before and after. */
const changed = (before: repository.FiscalColumns, after: repository.FiscalColumns) =>
  changedColumns(repository.fiscalColumnNames, before, after);

/** Reads the uploaded file's bytes (the first file part; others drained), stopping past the limit. */
async function readLogo(parts: () => AsyncIterable<Multipart>): Promise<Buffer | undefined> {
  let bytes: Buffer | undefined;
  for await (const part of parts()) {
    if (part.type !== 'file') continue;
    if (bytes) {
      part.file.resume();
      continue;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxLogoBytes) {
        part.file.resume();
        throw new AppError('logo_invalid', { maxBytes: maxLogoBytes });
      }
      chunks.push(chunk);
    }
    if (part.file.truncated) throw new AppError('logo_invalid', { maxBytes: maxLogoBytes });
    bytes = Buffer.concat(chunks);
  }
  return bytes;
}

/** A PNG or JPEG by its content, made a PNG at most `logoMaxWidth` wide; 415 logo_invalid otherwise. */
export async function normalizeLogo(bytes: Buffer) {
  const refused = () => new AppError('logo_invalid', { maxBytes: maxLogoBytes });
  if (bytes.length === 0 || bytes.length > maxLogoBytes) throw refused();
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { failOn: 'error', limitInputPixels: 40_000_000 }).metadata()).format;
  } catch {
    throw refused();
  }
  if (format !== 'png' && format !== 'jpeg') throw refused();
  try {
    const { data, info } = await sharp(bytes, { failOn: 'error', limitInputPixels: 40_000_000 })
      .rotate()
      .resize({ width: logoMaxWidth, withoutEnlargement: true })
      .png()
      .toBuffer({ resolveWithObject: true });
    return {
      bytes: data,
      sha256: createHash('sha256').update(data).digest('hex'),
      width: info.width,
      height: info.height,
    };
  } catch {
    throw refused();
  }
}

export const fiscalService = {
  async get({ ctx }: { ctx: RequestContext }): Promise<FiscalData> {
    return present(await repository.findFiscalData(ctx));
  },

  /** A new version of the fiscal data; 409 version_conflict with the current data when stale. */
  async update({ ctx, input }: { ctx: RequestContext; input: UpdateFiscalData }): Promise<FiscalData> {
    const current = await repository.findFiscalData(ctx, { lock: true });
    if (current.version !== input.version) throw new AppError('version_conflict', { current: present(current) });
    const next = columnsOf(input);
    await repository.updateFiscalData(ctx, next);
    await auditClinicSettings(ctx, 'fiscal_data_updated', changed(columnsOf(current), next), current.version);
    return present(await repository.findFiscalData(ctx));
  },

  /** Streams the upload first (≤ 1 MB), checks and scales it, then stores it in its own transaction. */
  async uploadLogo({
    db,
    actor,
    parts,
  }: {
    db: Database;
    actor: Actor;
    parts: () => AsyncIterable<Multipart>;
  }): Promise<FiscalData> {
    const bytes = await readLogo(parts);
    if (!bytes) throw new AppError('logo_invalid', { maxBytes: maxLogoBytes });
    const logo = await normalizeLogo(bytes);
    return inTransaction(db, actor, async (ctx) => {
      const previous = await repository.findLogo(ctx);
      await repository.saveLogo(ctx, logo);
      await audit(ctx, {
        action: 'logo_updated',
        entity: 'account',
        entityId: ctx.accountId,
        before: previous ? { sha256: previous.sha256, width: previous.width, height: previous.height } : null,
        after: { sha256: logo.sha256, width: logo.width, height: logo.height },
      });
      return present(await repository.findFiscalData(ctx));
    });
  },

  async removeLogo({ ctx }: { ctx: RequestContext }): Promise<FiscalData> {
    const previous = await repository.findLogo(ctx);
    if (previous) {
      await repository.deleteLogo(ctx);
      await audit(ctx, {
        action: 'logo_removed',
        entity: 'account',
        entityId: ctx.accountId,
        before: { sha256: previous.sha256, width: previous.width, height: previous.height },
        after: null,
      });
    }
    return present(await repository.findFiscalData(ctx));
  },

  /** The logo's PNG; 404 not_found without one. */
  async logo({ ctx }: { ctx: RequestContext }) {
    const logo = await repository.findLogo(ctx);
    if (!logo) throw new AppError('not_found');
    return { bytes: Buffer.from(logo.bytes), contentType: logo.contentType, sha256: logo.sha256 };
  },
};

// ———————————————————————————————————————————— points of sale

type PointOfSaleInput = z.output<typeof pointOfSaleContracts.create>;
type PointOfSaleColumns = { code: string; name: string; active: boolean };
const pointOfSaleColumns = (input: PointOfSaleColumns): PointOfSaleColumns => ({
  code: input.code,
  name: input.name,
  active: input.active,
});

const pointsOfSale = auditedRecords({
  repository: repository.pointsOfSaleRepository,
  entity: 'point_of_sale',
  notFound: 'point_of_sale_not_found',
  columnsOf: pointOfSaleColumns,
  present: (row): PointOfSale => ({
    id: row.id,
    code: row.code,
    name: row.name,
    active: row.active,
    ...presentStamps(row),
  }),
});

/** A code another live point of sale has: 409 point_of_sale_exists naming it. */
function uniqueCode<T>(ctx: RequestContext, code: string, write: () => Promise<T>): Promise<T> {
  return guardUnique(ctx.tx, write, async (error) => {
    const holder = await repository.findPointOfSaleByCode(ctx, code);
    if (!holder) throw error;
    throw new AppError('point_of_sale_exists', { field: 'code', pointOfSale: holder });
  });
}

/** The clinic's points of sale (puntos de venta), by code; settings.manage writes them; audited; soft delete. */
export const pointsOfSaleService = {
  list: ({ ctx, query }: { ctx: RequestContext; query: { page: number; pageSize: number } }) =>
    pointsOfSale.page(ctx, {}, query),
  ...clinicRecordService(pointsOfSale, pointOfSaleColumns, (ctx, input: PointOfSaleInput, write) =>
    uniqueCode(ctx, input.code, write),
  ),
};
