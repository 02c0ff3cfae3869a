import { clinicToday } from '@odontia/shared/clinic-time';
import type { Currency } from '@odontia/shared/enums';
import type { Page } from '@odontia/shared/schemas/common';
import type {
  Provider,
  ProviderListQuery,
  providerContracts,
  providerExportQuerySchema,
} from '@odontia/shared/schemas/providers';
import type { TaxIdKind } from '@odontia/shared/tax-ids';
import type { z } from 'zod';
import type { RowWithNames } from '../../db/records.ts';
import type { providers } from '../../db/schema/index.ts';
import type { RequestContext } from '../../plugins/routes.ts';

import { partyBook, partySearchWords, partyStamps } from '../commercial/side-parties.ts';
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
    taxIdKind: (value.taxIdKind ?? null) as TaxIdKind | null,
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
    taxIdKind: row.taxIdKind as TaxIdKind | null,
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
    ...partyStamps(row, hasDocuments),
  };
}

// hasDocuments is read apart (withDocuments): one probe per record.
const { records, parties, taxIds } = partyBook({
  party: 'provider',
  repository: repository.providersRepository,
  columnsOf,
  present: (row) => toProvider(row, false),
  withDocuments: repository.providersWithDocuments,
  findTaxIdHolder: repository.findByTaxId,
  taxIdHolder: (holder) => ({ provider: { id: holder.id, fantasyName: holder.fantasyName } }),
});

function filtersOf(query: {
  q?: string | undefined;
  sort?: string | undefined;
  active?: 'true' | 'false' | undefined;
}) {
  return {
    q: partySearchWords(query.q),
    sort: query.sort,
    active: query.active === undefined ? undefined : query.active === 'true',
  };
}

type One = { ctx: RequestContext; id: string };

export const providersService = {
  async list({ ctx, query }: { ctx: RequestContext; query: ProviderListQuery }): Promise<Page<Provider>> {
    const found = await repository.listProviders(ctx, {
      ...filtersOf(query),
      page: query.page,
      pageSize: query.pageSize,
    });
    return parties.page(ctx, query, found, toProvider);
  },

  get: parties.get,

  async create({ ctx, input }: { ctx: RequestContext; input: Input }): Promise<Provider> {
    const columns = columnsOf(input);
    await taxIds.refuseTaken(ctx, columns.nif);
    const created = await taxIds.guard(ctx, columns.nif, () => records.create(ctx, {}, columns));
    return { ...created, hasDocuments: false };
  },

  async update({ ctx, id, input }: One & { input: UpdateInput }): Promise<Provider> {
    const columns = columnsOf(input);
    const updated = await taxIds.guard(
      ctx,
      columns.nif,
      () =>
        records.update(ctx, {}, id, { version: input.version, next: columns }, () =>
          taxIds.refuseTaken(ctx, columns.nif, id),
        ),
      id,
    );
    return parties.withDocuments(ctx, updated);
  },

  remove: (one: One) => parties.remove(one),

  changes: parties.changes,

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
