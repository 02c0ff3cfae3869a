import type { RecallUnit } from '@odontia/shared/enums';
import type {
  Treatment,
  TreatmentImportResult,
  treatmentContracts,
  treatmentsExportQuerySchema,
  treatmentsQuerySchema,
} from '@odontia/shared/schemas/schedules';
import Big from 'big.js';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { guardUnique } from '../../db/errors.ts';
import { presentStamps } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import { audit } from '../audit/audit.repository.ts';
import { auditedRecords, clinicRecordService } from '../audit/audited-records.ts';
import {
  sortedTreatments,
  treatmentGroups,
  treatmentsByCode,
  treatmentsFilter,
  treatmentsRepository,
} from './schedules.repository.ts';
import { buildTreatmentsCsv, parseTreatmentsCsv } from './treatments.csv.ts';

/**
 * What the clinic does, how long it usually takes (issue 16: the reason of an appointment and
 * its default duration) and what it costs (issue 18: the price list — group, price, VAT rate).
 * settings.manage writes them; audited (entity 'treatment'); soft delete (appointments booked
 * and attendance lines keep theirs). The code is unique per clinic (any case): 409
 * treatment_code_exists on the field. CSV export of the list as filtered; CSV import matched by
 * code (a known code updates that treatment, any other row creates one), all rows or none.
 */

type Input = z.output<typeof treatmentContracts.create>;
type Columns = Pick<
  Input,
  'code' | 'name' | 'groupName' | 'price' | 'vatRate' | 'durationMinutes' | 'color' | 'active'
> & { recallInterval: number | null; recallUnit: RecallUnit | null; recallReason: string | null; labCost: string };
type RecallRule = Pick<Columns, 'recallInterval' | 'recallUnit' | 'recallReason' | 'labCost'>;
type ColumnsInput = Omit<Columns, keyof RecallRule> & Partial<RecallRule>;
/**
 * The stored columns of an input. The recall rule (issue 38) left out of the input (an older
 * client, the CSV import) keeps what `current` has.
 */
const columnsOf = (input: ColumnsInput, current?: Partial<RecallRule>): Columns => {
  const ruleGiven = input.recallInterval !== undefined || input.recallUnit !== undefined;
  return {
    code: input.code ?? null,
    name: input.name,
    groupName: input.groupName ?? null,
    price: input.price,
    vatRate: input.vatRate,
    durationMinutes: input.durationMinutes,
    color: input.color ?? null,
    active: input.active,
    recallInterval: (ruleGiven ? input.recallInterval : current?.recallInterval) ?? null,
    recallUnit: ((ruleGiven ? input.recallUnit : current?.recallUnit) as RecallUnit | null | undefined) ?? null,
    recallReason: (input.recallReason !== undefined ? input.recallReason : current?.recallReason) ?? null,
    labCost: new Big(input.labCost ?? current?.labCost ?? '0').toFixed(2),
  };
};

type Row = NonNullable<Awaited<ReturnType<typeof treatmentsRepository.find>>>;
const present = (row: Row): Treatment => ({
  id: row.id,
  code: row.code,
  name: row.name,
  groupName: row.groupName,
  price: row.price,
  vatRate: row.vatRate,
  durationMinutes: row.durationMinutes,
  color: row.color,
  active: row.active,
  recallInterval: row.recallInterval,
  recallUnit: row.recallUnit as RecallUnit | null,
  recallReason: row.recallReason,
  labCost: new Big(row.labCost).toFixed(2),
  ...presentStamps(row),
});

const records = auditedRecords({
  repository: treatmentsRepository,
  entity: 'treatment',
  notFound: 'treatment_not_found',
  // Amounts compare as stored ('1500.00'), whatever the input wrote ('1500').
  columnsOf: (row: Omit<Columns, 'recallUnit'> & { recallUnit: string | null }) => ({
    ...columnsOf(row as Columns),
    price: Number(row.price).toFixed(2),
    vatRate: Number(row.vatRate).toFixed(2),
  }),
  present,
});

type Filters = z.output<typeof treatmentsExportQuerySchema>;

/** The only unique index of a treatment is its code's (issue 18). */
async function codeTaken(): Promise<never> {
  throw new AppError('treatment_code_exists', { fields: [{ path: 'code', code: 'treatment_code_exists' }] });
}

const filterOf = (query: Filters) =>
  treatmentsFilter({
    q: query.q,
    group: query.group,
    active: query.active ? query.active === 'true' : undefined,
  });

export const treatmentsService = {
  async list({ ctx, query }: { ctx: RequestContext; query: z.output<typeof treatmentsQuerySchema> }) {
    const { rows, total } = await sortedTreatments[query.sort].page(ctx, {}, query, filterOf(query));
    return { data: rows.map(present), total, page: query.page, pageSize: query.pageSize };
  },
  groups: ({ ctx }: { ctx: RequestContext }) => treatmentGroups(ctx),
  // A code another live treatment has: 409 treatment_code_exists (codeTaken).
  ...clinicRecordService(
    records,
    (input: Input) => columnsOf(input),
    (ctx, _input, write) => guardUnique(ctx.tx, write, codeTaken),
  ),
  /** An edit; a recall rule left out of the body stays as it is. */
  update: ({ ctx, id, input }: { ctx: RequestContext; id: string; input: Input & { version: number } }) =>
    guardUnique(
      ctx.tx,
      () =>
        records.update(ctx, {}, id, {
          version: input.version,
          next: (current) => columnsOf(input, current as Partial<RecallRule>),
        }),
      codeTaken,
    ),

  /** The list as filtered and sorted, every row, as CSV (`lista-de-precios-YYYY-MM-DD.csv`). */
  async exportCsv({ ctx, query }: { ctx: RequestContext; query: Filters }) {
    const rows: Treatment[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await sortedTreatments[query.sort].page(ctx, {}, { page, pageSize: 500 }, filterOf(query));
      rows.push(...answer.rows.map(present));
      if (answer.rows.length < 500) break;
    }
    return { csv: buildTreatmentsCsv(rows), fileName: `lista-de-precios-${new Date().toISOString().slice(0, 10)}.csv` };
  },

  /** Checks (dryRun) or applies a CSV of the price list: a known code updates, any other row creates. */
  async importCsv({
    ctx,
    input,
  }: {
    ctx: RequestContext;
    input: { content: string; dryRun: boolean };
  }): Promise<TreatmentImportResult> {
    const parsed = parseTreatmentsCsv(input.content);
    const existing = new Map(
      (
        await treatmentsByCode(
          ctx,
          parsed.rows.flatMap((row) => (row.value?.code ? [row.value.code] : [])),
        )
      ).map((row) => [(row.code ?? '').toLowerCase(), row] as const),
    );
    const errors = [...parsed.errors].sort((a, b) => a.line - b.line);
    const total = parsed.rows.length;
    const planned = parsed.rows.flatMap((row) => {
      if (!row.value) return [];
      const match = row.value.code ? existing.get(row.value.code.toLowerCase()) : undefined;
      return [{ line: row.line, value: row.value, match }];
    });
    const result: TreatmentImportResult = {
      total,
      valid: errors.length > 0 ? 0 : total,
      errors,
      ignoredColumns: parsed.ignoredColumns,
      preview: planned.slice(0, 10).map((row) => ({
        line: row.line,
        code: row.value.code ?? null,
        name: row.value.name,
        price: Number(row.value.price).toFixed(2),
        action: row.match ? ('update' as const) : ('create' as const),
      })),
      created: 0,
      updated: 0,
    };
    if (input.dryRun) return result;
    if (errors.length > 0) throw new AppError('import_has_errors', { errors, total });
    let created = 0;
    let updated = 0;
    await guardUnique(
      ctx.tx,
      async () => {
        for (const row of planned) {
          if (row.match) {
            const next = columnsOf(
              { ...row.value, durationMinutes: row.value.durationMinutes ?? row.match.durationMinutes },
              row.match as Partial<RecallRule>,
            );
            await records.update(ctx, {}, row.match.id, { version: row.match.version, next });
            updated += 1;
          } else {
            await records.create(
              ctx,
              {},
              columnsOf({ ...row.value, durationMinutes: row.value.durationMinutes ?? 30 }),
            );
            created += 1;
          }
        }
      },
      codeTaken,
    );
    await audit(ctx, { action: 'treatments_imported', entity: 'treatment', after: { created, updated } });
    return { ...result, created, updated };
  },
};
