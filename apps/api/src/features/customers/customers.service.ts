import type { FiscalCountry } from '@odontia/shared/commercial';
import type { Language } from '@odontia/shared/enums';
import type { Page } from '@odontia/shared/schemas/common';
import type {
  CustomerListQuery,
  CustomerRecord,
  customerRecordContracts,
} from '@odontia/shared/schemas/customer-records';
import type { PageQuery, RecordChange } from '@odontia/shared/schemas/records';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { guardUnique, violatedConstraint } from '../../db/errors.ts';
import type { RowWithNames } from '../../db/records.ts';
import type { customers } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { auditedRecords } from '../audit/audited-records.ts';
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
    kind: value.kind,
    name: value.name,
    tradeName: value.tradeName ?? null,
    country: (value.country ?? null) as FiscalCountry | null,
    taxIdKind: value.taxIdKind ?? null,
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
    kind: row.kind,
    patientId: row.patientId,
    name: row.name,
    tradeName: row.tradeName,
    country: row.country as FiscalCountry | null,
    taxIdKind: row.taxIdKind,
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
    hasDocuments,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName ?? null,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName ?? null,
    version: row.version,
  };
}

const records = auditedRecords({
  repository: repository.customersRepository,
  entity: 'customer',
  notFound: 'customer_not_found',
  columnsOf,
  present: (row) => toCustomer(row, false),
  patientOf: () => null,
});

async function withDocuments(ctx: RequestContext, customer: CustomerRecord): Promise<CustomerRecord> {
  const found = await repository.customersWithDocuments(ctx, [customer.id]);
  return { ...customer, hasDocuments: found.has(customer.id) };
}

function taxIdTaken(holder: { id: string; name: string }, cause?: unknown): AppError {
  return new AppError(
    'customer_tax_id_exists',
    { customer: { id: holder.id, name: holder.name }, fields: [{ path: 'taxId', code: 'customer_tax_id_exists' }] },
    cause ? { cause } : undefined,
  );
}

/** Patients' rows are not in the unique index: only a company's or an insurer's tax id is checked. */
async function refuseTakenTaxId(ctx: RequestContext, columns: Columns, exceptId?: string): Promise<void> {
  if (!columns.taxId || columns.kind === 'patient') return;
  const holder = await repository.findByTaxId(ctx, columns.taxId, exceptId);
  if (holder) throw taxIdTaken(holder);
}

function guardTaxId<T>(ctx: RequestContext, columns: Columns, write: () => Promise<T>, exceptId?: string) {
  return guardUnique(ctx.tx, write, async (error) => {
    if (!columns.taxId || violatedConstraint(error) !== 'customers_tax_id_unique') throw error;
    const holder = await repository.findByTaxId(ctx, columns.taxId, exceptId);
    if (holder) throw taxIdTaken(holder, error);
    throw new AppError('customer_tax_id_exists', {}, { cause: error });
  });
}

const kindField = () => new AppError('validation_error', { fields: [{ path: 'kind', code: 'invalid_value' }] });

/** A printed tax id (30-12345678-9) is searched without its separators, as stored. */
const printedTaxId = /^[0-9A-Za-z]*\d[0-9A-Za-z]*(?:[./-][0-9A-Za-z]+)+$/;
const searchQuery = (q: string | undefined) =>
  q
    ?.split(/\s+/)
    .map((word) => (printedTaxId.test(word) ? word.replace(/[./-]/g, '') : word))
    .join(' ');

type One = { ctx: RequestContext; id: string };

export const customersService = {
  async list({ ctx, query }: { ctx: RequestContext; query: CustomerListQuery }): Promise<Page<CustomerRecord>> {
    const { rows, total } = await repository.listCustomers(ctx, {
      q: searchQuery(query.q),
      sort: query.sort,
      kind: query.kind,
      active: query.active === undefined ? undefined : query.active === 'true',
      page: query.page,
      pageSize: query.pageSize,
    });
    const documented = await repository.customersWithDocuments(
      ctx,
      rows.map((row) => row.id),
    );
    return {
      data: rows.map((row) => toCustomer(row, documented.has(row.id))),
      total,
      page: query.page,
      pageSize: query.pageSize,
    };
  },

  async get({ ctx, id }: One): Promise<CustomerRecord> {
    return withDocuments(ctx, await records.get(ctx, {}, id));
  },

  /** A company or an insurer (a patient's row is made on first billing). */
  async create({ ctx, input }: { ctx: RequestContext; input: Input }): Promise<CustomerRecord> {
    if (input.kind === 'patient') throw kindField();
    const columns = columnsOf(input);
    await refuseTakenTaxId(ctx, columns);
    const created = await guardTaxId(ctx, columns, () => records.create(ctx, {}, columns));
    return { ...created, hasDocuments: false };
  },

  async update({ ctx, id, input }: One & { input: UpdateInput }): Promise<CustomerRecord> {
    const requested = columnsOf(input);
    let columns = requested;
    const updated = await guardTaxId(
      ctx,
      requested,
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
          await refuseTakenTaxId(ctx, columns, id);
        }),
      id,
    );
    return withDocuments(ctx, updated);
  },

  async remove({ ctx, id }: One): Promise<void> {
    await records.remove(ctx, {}, id, async (current) => {
      if (current.kind === 'patient') throw new AppError('customer_is_patient');
      const documented = await repository.customersWithDocuments(ctx, [current.id]);
      if (documented.has(current.id)) throw new AppError('customer_has_documents');
    });
  },

  changes: ({ ctx, id, query }: One & { query: PageQuery }): Promise<Page<RecordChange>> =>
    records.changes(ctx, {}, id, query),
};
