import { type Currency, currencies, currencyIsoCodes } from '@odontia/shared/enums';
import { importFields } from '@odontia/shared/schemas/imports';
import { providerContracts } from '@odontia/shared/schemas/providers';
import { type TaxIdKind, taxIdKinds } from '@odontia/shared/tax-ids';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { providers } from '../../db/schema/index.ts';
import { clinicDecimalSeparator } from './import-amounts.ts';
import { normalizeHeader } from './import-columns.ts';
import {
  batches,
  type ChunkClinic,
  createdEvent,
  pick,
  readTexts,
  readWholeNumber,
  recordEvents,
  recordsImporter,
  updatedEvent,
} from './import-records.ts';

/**
 * Providers (issue 42): each row read with the providers' create contract (the tax id's check
 * digits of its kind, the currency), the tax id unique among the clinic's live providers as the
 * feature keeps it (`providers_tax_id_unique`: refused `already_exists` on `nif`), audited as the
 * providers' service does (`provider_created`, `provider_updated` with what changed). Fields the
 * import does not carry (fiscal condition, bank key…) are left as they are on an update.
 */

const fields = importFields.providers.filter((field) => field !== 'externalId');
const textFields = fields.filter((field) => !['taxIdKind', 'currency', 'paymentTermDays'].includes(field));

/** The tax id's key as the unique index compares it: letters and digits, upper case. */
const taxIdKey = (nif: string) => nif.replace(/[^0-9A-Za-z]/g, '').toUpperCase() || null;

/** The kind of a tax id the row does not name, from the clinic's country and the id's length. */
function defaultTaxIdKind(nif: string, clinic: ChunkClinic): TaxIdKind {
  const digits = nif.replace(/\D/g, '').length;
  switch (clinic.country?.toUpperCase()) {
    case 'AR':
      return 'cuit';
    case 'ES':
      return 'nif';
    case 'BR':
      return digits === 11 ? 'cpf' : 'cnpj';
    case 'FR':
      return digits === 9 ? 'siren' : 'siret';
    default:
      return 'other';
  }
}

/** Signs and words another system writes a currency with. */
const currencyWords: Record<string, Currency> = {
  '€': 'euro',
  euros: 'euro',
  $: 'us_dollar',
  us$: 'us_dollar',
  dolar: 'us_dollar',
  dolares: 'us_dollar',
  dollar: 'us_dollar',
  dollars: 'us_dollar',
  r$: 'brazilian_real',
  real: 'brazilian_real',
  reais: 'brazilian_real',
  ar$: 'argentine_peso',
  peso: 'argentine_peso',
  pesos: 'argentine_peso',
};

/** "EUR", "€", "euro", "R$" → the clinic's currency names; null when unknown. */
function currencyOf(text: string): Currency | null {
  const word = text
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '');
  const byName = currencies.find((currency) => currency === word || currencyIsoCodes[currency].toLowerCase() === word);
  return byName ?? currencyWords[word] ?? null;
}

type Values = Record<string, unknown>;
type Current = typeof providers.$inferSelect;

export const importProvidersChunk = recordsImporter<Values, Current>({
  kind: 'providers',
  read(cell, clinic) {
    const input: Record<string, unknown> = {};
    const reasons: { field: string; code: string }[] = [];
    readTexts(input, textFields, cell);
    const kindText = normalizeHeader(cell('taxIdKind')).replace(/ /g, '');
    if (kindText !== '') {
      const kind = taxIdKinds.find((known) => known === kindText);
      if (kind) input.taxIdKind = kind;
      else reasons.push({ field: 'taxIdKind', code: 'invalid_value' });
    } else if (typeof input.nif === 'string') input.taxIdKind = defaultTaxIdKind(input.nif, clinic);
    const currencyText = cell('currency');
    const currency = currencyText === '' ? clinic.currency : currencyOf(currencyText);
    if (currency) input.currency = currency;
    else reasons.push({ field: 'currency', code: 'invalid_value' });
    readWholeNumber(input, reasons, 'paymentTermDays', cell('paymentTermDays'), clinicDecimalSeparator(clinic));
    return { input, reasons, label: cell('fantasyName') || null };
  },
  schema: () => providerContracts.create,
  values: (parsed) => pick(parsed, fields),
  uniques: [
    {
      field: 'nif',
      key: (values) => (typeof values.nif === 'string' ? taxIdKey(values.nif) : null),
      async holders({ tx, accountId }, keys) {
        if (keys.length === 0) return new Map();
        const rows = await tx
          .select({ id: providers.id, key: providers.taxIdKey })
          .from(providers)
          .where(
            and(
              eq(providers.accountId, accountId),
              isNull(providers.deletedAt),
              inArray(providers.taxIdKey, [...keys]),
            ),
          );
        return new Map(rows.map((row) => [row.key ?? '', row.id]));
      },
    },
  ],
  async current({ tx, accountId }, ids, lock) {
    if (ids.length === 0) return new Map();
    const query = tx
      .select()
      .from(providers)
      .where(and(eq(providers.accountId, accountId), inArray(providers.id, [...ids]), isNull(providers.deletedAt)));
    const rows = lock ? await query.for('update') : await query;
    return new Map(rows.map((row) => [row.id, row]));
  },
  async create(ctx, run, rows) {
    for (const batch of batches(rows)) {
      await ctx.tx.insert(providers).values(
        batch.map(
          (row) =>
            ({
              ...row.values,
              id: row.id,
              accountId: ctx.accountId,
              createdBy: ctx.userId,
              updatedBy: ctx.userId,
            }) as typeof providers.$inferInsert,
        ),
      );
    }
    await recordEvents(
      ctx,
      rows.map((row) => createdEvent(ctx, run, 'provider', row.id, row.values)),
    );
  },
  async update(ctx, run, rows, current) {
    const events = [];
    for (const row of rows) {
      const before = current.get(row.id);
      if (!before) continue;
      await ctx.tx
        .update(providers)
        .set({
          ...(row.values as Partial<typeof providers.$inferInsert>),
          version: sql`${providers.version} + 1`,
          updatedBy: ctx.userId,
          updatedAt: sql`now()`,
        })
        .where(and(eq(providers.accountId, ctx.accountId), eq(providers.id, row.id)));
      events.push(updatedEvent(ctx, run, 'provider', row.id, before as unknown as Values, row.values));
    }
    await recordEvents(ctx, events);
  },
});
