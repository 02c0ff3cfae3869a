import { clinicToday } from '@odontia/shared/clinic-time';
import type { Currency } from '@odontia/shared/enums';
import type { Page } from '@odontia/shared/schemas/common';
import type {
  Provider,
  ProviderListQuery,
  providerContracts,
  providerExportQuerySchema,
} from '@odontia/shared/schemas/providers';
import type { PageQuery, RecordChange } from '@odontia/shared/schemas/records';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { guardUnique, violatedConstraint } from '../../db/errors.ts';
import type { RowWithNames } from '../../db/records.ts';
import type { providers } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { buildProvidersCsv } from './providers.csv.ts';
import * as repository from './providers.repository.ts';

/**
 * Providers (issue 17, spec §3 "Provider"): a clinic's suppliers, versioned, audited (entity
 * 'provider'), soft-deleted. The tax id is unique among the clinic's live providers whatever its
 * separators (409 provider_tax_id_exists naming the holder); a provider that any document or
 * payment names is never deleted (409 provider_has_documents): it is deactivated.
 */

type Input = z.output<typeof providerContracts.create>;
type UpdateInput = z.output<typeof providerContracts.update>;
type Columns = Omit<Input, never>;

/** The audited, editable columns of an input or a stored row. */
function columnsOf(value: Input | repository.ProviderRow): Columns {
  return {
    nif: value.nif ?? null,
    taxIdKind: value.taxIdKind ?? null,
    fantasyName: value.fantasyName,
    bussinesName: value.bussinesName ?? null,
    companyName: value.companyName ?? null,
    fiscalCondition: value.fiscalCondition ?? null,
    bankName: value.bankName ?? null,
    bankAccount: value.bankAccount ?? null,
    bankKey: value.bankKey ?? null,
    currency: value.currency as Currency,
    contactName: value.contactName ?? null,
    commercialAddress: value.commercialAddress ?? null,
    phoneAreaBussines: value.phoneAreaBussines ?? null,
    phoneBusiness: value.phoneBusiness ?? null,
    phoneMobile: value.phoneMobile ?? null,
    email: value.email ?? null,
    paymentTermDays: value.paymentTermDays,
    notes: value.notes ?? null,
    active: value.active,
  } as Columns;
}

type Stored = repository.ProviderRow & Partial<Pick<RowWithNames<typeof providers>, 'createdByName' | 'updatedByName'>>;

/** The record as answered, given whether documents name it. */
export function toProvider(row: Stored, hasDocuments: boolean): Provider {
  return {
    id: row.id,
    nif: row.nif,
    taxIdKind: row.taxIdKind,
    fantasyName: row.fantasyName,
    bussinesName: row.bussinesName,
    companyName: row.companyName,
    fiscalCondition: row.fiscalCondition,
    bankName: row.bankName,
    bankAccount: row.bankAccount,
    bankKey: row.bankKey,
    currency: row.currency as Currency,
    contactName: row.contactName,
    commercialAddress: row.commercialAddress,
    phoneAreaBussines: row.phoneAreaBussines,
    phoneBusiness: row.phoneBusiness,
    phoneMobile: row.phoneMobile,
    email: row.email,
    paymentTermDays: row.paymentTermDays,
    notes: row.notes,
    active: row.active,
    hasDocuments,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName ?? null,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName ?? null,
    version: row.version,
  };
}

const records = auditedRecords({
  repository: repository.providersRepository,
  entity: 'provider',
  notFound: 'provider_not_found',
  columnsOf,
  // hasDocuments is read apart (withDocuments): one probe per record.
  present: (row) => toProvider(row, false),
  patientOf: () => null,
});

async function withDocuments(ctx: RequestContext, provider: Provider): Promise<Provider> {
  const found = await repository.providersWithDocuments(ctx, [provider.id]);
  return { ...provider, hasDocuments: found.has(provider.id) };
}

function taxIdTaken(holder: { id: string; fantasyName: string }, cause?: unknown): AppError {
  return new AppError(
    'provider_tax_id_exists',
    { provider: { id: holder.id, fantasyName: holder.fantasyName } },
    cause ? { cause } : undefined,
  );
}

/** 409 when another live provider of the clinic has the tax id (the check before the write). */
async function refuseTakenTaxId(ctx: RequestContext, nif: string | null, exceptId?: string): Promise<void> {
  if (!nif) return;
  const holder = await repository.findByTaxId(ctx, nif, exceptId);
  if (holder) throw taxIdTaken(holder);
}

/** The write under a savepoint: two requests that raced past the check meet the unique index, and the second is told who won. */
function guardTaxId<T>(ctx: RequestContext, nif: string | null, write: () => Promise<T>, exceptId?: string) {
  return guardUnique(ctx.tx, write, async (error) => {
    if (!nif || violatedConstraint(error) !== 'providers_tax_id_unique') throw error;
    const holder = await repository.findByTaxId(ctx, nif, exceptId);
    if (holder) throw taxIdTaken(holder, error);
    throw new AppError('provider_tax_id_exists', {}, { cause: error });
  });
}

/** A word typed as a tax id is printed (20-12345678-6, 11.222.333/0001-81): searched without its separators, as stored. */
const printedTaxId = /^[0-9A-Za-z]*\d[0-9A-Za-z]*(?:[./-][0-9A-Za-z]+)+$/;
function searchQuery(q: string | undefined): string | undefined {
  return q
    ?.split(/\s+/)
    .map((word) => (printedTaxId.test(word) ? word.replace(/[./-]/g, '') : word))
    .join(' ');
}

function filtersOf(query: {
  q?: string | undefined;
  sort?: string | undefined;
  active?: 'true' | 'false' | undefined;
}) {
  return {
    q: searchQuery(query.q),
    sort: query.sort,
    active: query.active === undefined ? undefined : query.active === 'true',
  };
}

type One = { ctx: RequestContext; id: string };

export const providersService = {
  async list({ ctx, query }: { ctx: RequestContext; query: ProviderListQuery }): Promise<Page<Provider>> {
    const { rows, total } = await repository.listProviders(ctx, {
      ...filtersOf(query),
      page: query.page,
      pageSize: query.pageSize,
    });
    const documented = await repository.providersWithDocuments(
      ctx,
      rows.map((row) => row.id),
    );
    return {
      data: rows.map((row) => toProvider(row, documented.has(row.id))),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  },

  async get({ ctx, id }: One): Promise<Provider> {
    return withDocuments(ctx, await records.get(ctx, {}, id));
  },

  async create({ ctx, input }: { ctx: RequestContext; input: Input }): Promise<Provider> {
    const columns = columnsOf(input);
    await refuseTakenTaxId(ctx, columns.nif);
    const created = await guardTaxId(ctx, columns.nif, () => records.create(ctx, {}, columns));
    return { ...created, hasDocuments: false };
  },

  async update({ ctx, id, input }: One & { input: UpdateInput }): Promise<Provider> {
    const columns = columnsOf(input);
    const updated = await guardTaxId(
      ctx,
      columns.nif,
      () =>
        records.update(ctx, {}, id, { version: input.version, next: columns }, () =>
          refuseTakenTaxId(ctx, columns.nif, id),
        ),
      id,
    );
    return withDocuments(ctx, updated);
  },

  async remove({ ctx, id }: One): Promise<void> {
    await records.remove(ctx, {}, id, async (current) => {
      const documented = await repository.providersWithDocuments(ctx, [current.id]);
      if (documented.has(current.id)) throw new AppError('provider_has_documents');
    });
  },

  changes: ({ ctx, id, query }: One & { query: PageQuery }): Promise<Page<RecordChange>> =>
    records.changes(ctx, {}, id, query),

  async exportCsv({
    ctx,
    query,
  }: {
    ctx: RequestContext;
    query: z.output<typeof providerExportQuerySchema>;
  }): Promise<{ csv: string; fileName: string }> {
    const rows = await repository.exportProviders(ctx, filtersOf(query));
    const documented = await repository.providersWithDocuments(
      ctx,
      rows.map((row) => row.id),
    );
    const csv = buildProvidersCsv(rows.map((row) => toProvider(row, documented.has(row.id))));
    return { csv, fileName: `proveedores-${clinicToday(ctx.timeZone)}.csv` };
  },
};
