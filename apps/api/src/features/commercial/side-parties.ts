import type { ErrorBody } from '@odontia/shared/errors';
import type { Page } from '@odontia/shared/schemas/common';
import type { PageQuery, RecordChange } from '@odontia/shared/schemas/records';
import { guardUnique, violatedConstraint } from '../../db/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { type AnyRecordRepository, type AuditedRecordOptions, auditedRecords } from '../audit/audited-records.ts';

/**
 * What the clinic's two kinds of commercial party do alike (providers, issue 17; customers, issue
 * 18), written once: "has documents" beside every record, a list's page, a deletion refused while
 * a document or money names the party, the history of changes, the search of a printed tax id and
 * the unique tax id (checked first, then the unique index under a savepoint for two requests that
 * raced past the check). Their columns, kinds and rules stay in providers/ and customers/.
 */

type One = { ctx: RequestContext; id: string };

/** The records of the party as `auditedRecords` keeps them (no scope: a party is the clinic's). */
interface PartyRecords<TRecord, TRow> {
  get(ctx: RequestContext, scope: object, id: string): Promise<TRecord>;
  remove(
    ctx: RequestContext,
    scope: object,
    id: string,
    check?: (current: TRow) => Promise<void> | void,
  ): Promise<void>;
  changes(ctx: RequestContext, scope: object, id: string, query: PageQuery): Promise<Page<RecordChange>>;
}

export interface PartySide<TRecord, TRow> {
  records: PartyRecords<TRecord, TRow>;
  /** Which of these parties a live document or any payment or collection names. */
  withDocuments: (ctx: RequestContext, ids: string[]) => Promise<Set<string>>;
  /** 409 when deleting one that documents name: deactivate it instead. */
  hasDocuments: 'provider_has_documents' | 'customer_has_documents';
}

export function sideParties<TRecord extends { id: string; hasDocuments: boolean }, TRow extends { id: string }>({
  records,
  withDocuments,
  hasDocuments,
}: PartySide<TRecord, TRow>) {
  async function withTheirDocuments(ctx: RequestContext, party: TRecord): Promise<TRecord> {
    const found = await withDocuments(ctx, [party.id]);
    return { ...party, hasDocuments: found.has(party.id) };
  }

  return {
    withDocuments: withTheirDocuments,

    /** A list's answer, each party with whether documents name it (one probe for the page). */
    async page(
      ctx: RequestContext,
      query: { page: number; pageSize: number },
      { rows, total }: { rows: TRow[]; total: number },
      present: (row: TRow, hasDocuments: boolean) => TRecord,
    ): Promise<Page<TRecord>> {
      const documented = await withDocuments(
        ctx,
        rows.map((row) => row.id),
      );
      return {
        data: rows.map((row) => present(row, documented.has(row.id))),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    get: async ({ ctx, id }: One): Promise<TRecord> => withTheirDocuments(ctx, await records.get(ctx, {}, id)),

    /** Soft delete, refused while a document or money names it (`check`: the side's own refusals first). */
    async remove({ ctx, id }: One, check?: (current: TRow) => void): Promise<void> {
      await records.remove(ctx, {}, id, async (current) => {
        check?.(current);
        const documented = await withDocuments(ctx, [current.id]);
        if (documented.has(current.id)) throw new AppError(hasDocuments);
      });
    },

    changes: ({ ctx, id, query }: One & { query: PageQuery }): Promise<Page<RecordChange>> =>
      records.changes(ctx, {}, id, query),
  };
}

/** What every party answers after its own fields: whether documents name it and who wrote it when. */
export function partyStamps(
  row: {
    createdAt: Date;
    createdByName?: string | null;
    updatedAt: Date;
    updatedByName?: string | null;
    version: number;
  },
  hasDocuments: boolean,
) {
  return {
    hasDocuments,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName ?? null,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName ?? null,
    version: row.version,
  };
}

/** A word typed as a printed tax id (20-12345678-6, 11.222.333/0001-81) is searched without its separators, as stored. */
const printedTaxId = /^[0-9A-Za-z]*\d[0-9A-Za-z]*(?:[./-][0-9A-Za-z]+)+$/;
export const partySearchWords = (q: string | undefined): string | undefined =>
  q
    ?.split(/\s+/)
    .map((word) => (printedTaxId.test(word) ? word.replace(/[./-]/g, '') : word))
    .join(' ');

export interface TaxIdRule<THolder> {
  /** The unique index that holds the tax ids of the side's live parties. */
  constraint: string;
  /** The live party of the clinic (not `exceptId`) with this tax id, whatever its separators. */
  findHolder: (ctx: RequestContext, taxId: string, exceptId?: string) => Promise<THolder | undefined>;
  /** The 409 naming the holder. */
  taken: (holder: THolder, cause?: unknown) => AppError;
  /** The 409 when the holder is gone by the time it is looked for. */
  code: 'provider_tax_id_exists' | 'customer_tax_id_exists';
}

/** A tax id unique among the clinic's live parties of the side. */
export function uniqueTaxId<THolder>({ constraint, findHolder, taken, code }: TaxIdRule<THolder>) {
  return {
    /** 409 when another live party has it (the check before the write). */
    async refuseTaken(ctx: RequestContext, taxId: string | null | undefined, exceptId?: string): Promise<void> {
      if (!taxId) return;
      const holder = await findHolder(ctx, taxId, exceptId);
      if (holder) throw taken(holder);
    },

    /** The write under a savepoint: the second of two racing requests is told who won. */
    guard<T>(ctx: RequestContext, taxId: string | null | undefined, write: () => Promise<T>, exceptId?: string) {
      return guardUnique(ctx.tx, write, async (error) => {
        if (!taxId || violatedConstraint(error) !== constraint) throw error;
        const holder = await findHolder(ctx, taxId, exceptId);
        if (holder) throw taken(holder, error);
        throw new AppError(code, {}, { cause: error });
      });
    },
  };
}

/** Each kind of party's audit entity, its codes and the unique index of its tax ids. */
const partyCodes = {
  customer: {
    notFound: 'customer_not_found',
    hasDocuments: 'customer_has_documents',
    taxIdExists: 'customer_tax_id_exists',
    taxIdIndex: 'customers_tax_id_unique',
  },
  provider: {
    notFound: 'provider_not_found',
    hasDocuments: 'provider_has_documents',
    taxIdExists: 'provider_tax_id_exists',
    taxIdIndex: 'providers_tax_id_unique',
  },
} as const;

export interface PartyBookOptions<TRepository extends AnyRecordRepository, TRecord, TColumns, THolder>
  extends Pick<AuditedRecordOptions<TRepository, TRecord, TColumns>, 'repository' | 'columnsOf' | 'present'> {
  /** The audit entity, and the prefix of the side's codes (`customer_not_found`…). */
  party: keyof typeof partyCodes;
  withDocuments: PartySide<TRecord, never>['withDocuments'];
  findTaxIdHolder: TaxIdRule<THolder>['findHolder'];
  /** What the 409 `<party>_tax_id_exists` tells of the live party that holds the tax id. */
  taxIdHolder: (holder: THolder) => ErrorBody['details'];
}

/**
 * One kind of party's book, set up alike for both: its audited records (a party is the clinic's,
 * no patient's), what it does alike (`sideParties`) and its unique tax id.
 */
export function partyBook<
  TRepository extends AnyRecordRepository,
  TRecord extends { id: string; hasDocuments: boolean },
  TColumns extends Record<string, unknown>,
  THolder,
>({
  party,
  repository,
  columnsOf,
  present,
  withDocuments,
  findTaxIdHolder,
  taxIdHolder,
}: PartyBookOptions<TRepository, TRecord, TColumns, THolder>) {
  const codes = partyCodes[party];
  const records = auditedRecords({
    repository,
    entity: party,
    notFound: codes.notFound,
    columnsOf,
    present,
    patientOf: () => null,
  });
  return {
    records,
    parties: sideParties({ records, withDocuments, hasDocuments: codes.hasDocuments }),
    taxIds: uniqueTaxId({
      constraint: codes.taxIdIndex,
      findHolder: findTaxIdHolder,
      taken: (holder, cause) => new AppError(codes.taxIdExists, taxIdHolder(holder), cause ? { cause } : undefined),
      code: codes.taxIdExists,
    }),
  };
}
