import { importFields } from '@odontia/shared/schemas/imports';
import { treatmentContracts } from '@odontia/shared/schemas/schedules';
import Big from 'big.js';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { treatments } from '../../db/schema/index.ts';
import { clinicDecimalSeparator } from './import-amounts.ts';
import {
  batches,
  createdEvent,
  pick,
  readAmount,
  readTexts,
  readWholeNumber,
  recordEvents,
  recordsImporter,
  updatedEvent,
} from './import-records.ts';

/**
 * The price list (issue 42, the `treatments` table): each row read with the treatments' create
 * contract — price net of VAT and lab cost as the clinic writes amounts (import-amounts.ts), the
 * VAT rate "21", "21%", "21,0", the duration 30 minutes when blank (as the price list's own CSV
 * import) — its code unique among the clinic's live treatments (`treatments_code_unique`: refused
 * `already_exists` on `code`), audited as the treatments' service does (`treatment_created`,
 * `treatment_updated` with what changed). The recall rule and the colour are left as they are.
 */

const fields = importFields.priceList.filter((field) => field !== 'externalId');

type Values = Record<string, unknown>;
type Current = typeof treatments.$inferSelect;

export const importPriceListChunk = recordsImporter<Values, Current>({
  kind: 'priceList',
  read(cell, clinic) {
    const separator = clinicDecimalSeparator(clinic);
    const input: Record<string, unknown> = {};
    const reasons: { field: string; code: string }[] = [];
    readTexts(input, ['code', 'name', 'groupName'], cell);
    readAmount(input, reasons, 'price', cell('price'), separator);
    if (cell('price') === '') reasons.push({ field: 'price', code: 'required' });
    readAmount(input, reasons, 'vatRate', cell('vatRate'), separator, true);
    readAmount(input, reasons, 'labCost', cell('labCost'), separator);
    readWholeNumber(input, reasons, 'durationMinutes', cell('durationMinutes'), separator);
    if (input.durationMinutes === undefined && cell('durationMinutes') === '') input.durationMinutes = 30;
    return { input, reasons, label: cell('name') || null };
  },
  schema: () => treatmentContracts.create,
  // Decimals as the numeric columns keep them ('21.00'): an unchanged rate is no change.
  values: (parsed) => {
    const values = pick(parsed, fields);
    for (const field of ['price', 'vatRate', 'labCost'])
      values[field] = new Big(String(values[field] ?? '0')).toFixed(2);
    return values;
  },
  uniques: [
    {
      field: 'code',
      key: (values) => (typeof values.code === 'string' ? values.code.toLowerCase() : null),
      async holders({ tx, accountId }, keys) {
        if (keys.length === 0) return new Map();
        const rows = await tx
          .select({ id: treatments.id, key: sql<string>`lower(${treatments.code})` })
          .from(treatments)
          .where(
            and(
              eq(treatments.accountId, accountId),
              isNull(treatments.deletedAt),
              sql`lower(${treatments.code}) in (${sql.join(
                keys.map((key) => sql`${key}`),
                sql`, `,
              )})`,
            ),
          );
        return new Map(rows.map((row) => [row.key, row.id]));
      },
    },
  ],
  async current({ tx, accountId }, ids, lock) {
    if (ids.length === 0) return new Map();
    const query = tx
      .select()
      .from(treatments)
      .where(and(eq(treatments.accountId, accountId), inArray(treatments.id, [...ids]), isNull(treatments.deletedAt)));
    const rows = lock ? await query.for('update') : await query;
    return new Map(rows.map((row) => [row.id, row]));
  },
  async create(ctx, run, rows) {
    for (const batch of batches(rows)) {
      await ctx.tx.insert(treatments).values(
        batch.map(
          (row) =>
            ({
              ...row.values,
              id: row.id,
              accountId: ctx.accountId,
              createdBy: ctx.userId,
              updatedBy: ctx.userId,
            }) as typeof treatments.$inferInsert,
        ),
      );
    }
    await recordEvents(
      ctx,
      rows.map((row) => createdEvent(ctx, run, 'treatment', row.id, row.values)),
    );
  },
  async update(ctx, run, rows, current) {
    const events = [];
    for (const row of rows) {
      const before = current.get(row.id);
      if (!before) continue;
      await ctx.tx
        .update(treatments)
        .set({
          ...(row.values as Partial<typeof treatments.$inferInsert>),
          version: sql`${treatments.version} + 1`,
          updatedBy: ctx.userId,
          updatedAt: sql`now()`,
        })
        .where(and(eq(treatments.accountId, ctx.accountId), eq(treatments.id, row.id)));
      events.push(updatedEvent(ctx, run, 'treatment', row.id, before as unknown as Values, row.values));
    }
    await recordEvents(ctx, events);
  },
});
