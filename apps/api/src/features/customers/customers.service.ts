import type { CustomerKind, FiscalCountry } from '@odontia/shared/commercial';
import type { Language } from '@odontia/shared/enums';
import type { Page } from '@odontia/shared/schemas/common';
import type {
  CustomerListQuery,
  CustomerRecord,
  customerRecordContracts,
} from '@odontia/shared/schemas/customer-records';
import type { TaxIdKind } from '@odontia/shared/tax-ids';
import type { z } from 'zod';
import type { RowWithNames } from '../../db/records.ts';
import type { customers } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { partyBook, partySearchWords, partyStamps } from '../commercial/side-parties.ts';
import * as repository from './customers.repository.ts';

/**
 * The clinic's customers (issue 18): companies and insurers made here, patients' rows made on
 * first billing (customer-parties.ts) whose billing data are edited here too. Versioned, audited
 * (entity 'customer'), soft-deleted. The tax id is unique among the clinic's live companies and
 * insurers whatever its separators (409 customer_tax_id_exists naming the holder). A patient's
 * row keeps its kind and its name (they follow the patient); a company or insurer never becomes
 * a patient (400 on kind). A customer a document or a collection names is deactivated, never
 * deleted (409 customer_has_documents); a patient's row is never deleted (409 customer_is_patient).
 */

type Input = z.output<typeof customerRecordContracts.create>;
type UpdateInput = z.output<typeof customerRecordContracts.update>;
type Columns = Omit<Input, never>;

function columnsOf(value: Input | repository.CustomerRow): Columns {
  return {
    kind: value.kind as CustomerKind,
    name: value.name,
    tradeName: value.tradeName ?? null,
    country: (value.country ?? null) as FiscalCountry | null,
    taxIdKind: (value.taxIdKind ?? null) as TaxIdKind | null,
    taxId: value.taxId ?? null,
    fiscalCondition: value.fiscalCondition ?? null,
    address: value.address ?? null,
    city: value.city ?? null,
    province: value.province ?? null,
    postalCode: value.postalCode ?? null,
    email: value.email ?? null,
    phone: value.phone ?? null,
    language: value.language as Language,
    paymentTermDays: value.paymentTermDays,
    notes: value.notes ?? null,
    active: value.active,
  };
}

type Stored = repository.CustomerRow & Partial<Pick<RowWithNames<typeof customers>, 'createdByName' | 'updatedByName'>>;

function toCustomer(row: Stored, hasDocuments: boolean): CustomerRecord {
  return {
    id: row.id,
    kind: row.kind as CustomerKind,
    patientId: row.patientId,
    name: row.name,
    tradeName: row.tradeName,
    country: row.country as FiscalCountry | null,
    taxIdKind: row.taxIdKind as TaxIdKind | null,
    taxId: row.taxId,
    fiscalCondition: row.fiscalCondition,
    address: row.address,
    city: row.city,
    province: row.province,
    postalCode: row.postalCode,
    email: row.email,
    phone: row.phone,
    language: row.language as Language,
    paymentTermDays: row.paymentTermDays,
    notes: row.notes,
    active: row.active,
    ...partyStamps(row, hasDocuments),
  };
}

const { records, parties, taxIds } = partyBook({
  party: 'customer',
  repository: repository.customersRepository,
  columnsOf,
  present: (row) => toCustomer(row, false),
  withDocuments: repository.customersWithDocuments,
  findTaxIdHolder: repository.findByTaxId,
  taxIdHolder: (holder) => ({
    customer: { id: holder.id, name: holder.name },
    fields: [{ path: 'taxId', code: 'customer_tax_id_exists' }],
  }),
});

/** Patients' rows are not in the unique index: only a company's or an insurer's tax id is checked. */
const checkedTaxId = (columns: Columns) => (columns.kind === 'patient' ? null : columns.taxId);

const kindField = () => new AppError('validation_error', { fields: [{ path: 'kind', code: 'invalid_value' }] });

type One = { ctx: RequestContext; id: string };

export const customersService = {
  async list({ ctx, query }: { ctx: RequestContext; query: CustomerListQuery }): Promise<Page<CustomerRecord>> {
    const found = await repository.listCustomers(ctx, {
      q: partySearchWords(query.q),
      sort: query.sort,
      kind: query.kind,
      active: query.active === undefined ? undefined : query.active === 'true',
      page: query.page,
      pageSize: query.pageSize,
    });
    return parties.page(ctx, query, found, toCustomer);
  },

  get: parties.get,

  /** A company or an insurer (a patient's row is made on first billing). */
  async create({ ctx, input }: { ctx: RequestContext; input: Input }): Promise<CustomerRecord> {
    if (input.kind === 'patient') throw kindField();
    const columns = columnsOf(input);
    await taxIds.refuseTaken(ctx, checkedTaxId(columns));
    const created = await taxIds.guard(ctx, columns.taxId, () => records.create(ctx, {}, columns));
    return { ...created, hasDocuments: false };
  },

  async update({ ctx, id, input }: One & { input: UpdateInput }): Promise<CustomerRecord> {
    const requested = columnsOf(input);
    let columns = requested;
    const updated = await taxIds.guard(
      ctx,
      requested.taxId,
      () =>
        records.update(ctx, {}, id, { version: input.version, next: () => columns }, async (current) => {
          if (current.kind === 'patient') {
            // Its kind and name follow the patient (a trigger keeps name, e-mail and language).
            columns = {
              ...requested,
              kind: 'patient',
              name: current.name,
              email: current.email,
              language: current.language as Language,
            };
          } else if (requested.kind === 'patient') {
            throw kindField();
          }
          await taxIds.refuseTaken(ctx, checkedTaxId(columns), id);
        }),
      id,
    );
    return parties.withDocuments(ctx, updated);
  },

  remove: (one: One) =>
    parties.remove(one, (current) => {
      if (current.kind === 'patient') throw new AppError('customer_is_patient');
    }),

  changes: parties.changes,
};
