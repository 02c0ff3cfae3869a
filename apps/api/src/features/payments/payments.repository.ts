import type { PaymentListQuery } from '@odontia/shared/schemas/payments';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { TxContext as Ctx } from '../../context.ts';
import { nextCounterValue } from '../../db/counters.ts';
import { sameClinicRow } from '../../db/records.ts';
import { payments, providers } from '../../db/schema/index.ts';
import type { PartyJoin } from '../commercial/party-join.ts';

/**
 * Payments to providers (issue 17): what is the provider side's own. The payments' rows, lists and
 * open documents are the shared features/commercial/side-payments.repository.ts.
 */

/** The clinic's next proof-of-payment number: OP-000001, OP-000002… (account_counters 'payment_provider'). */
export async function nextPaymentNumber(ctx: Ctx): Promise<string> {
  const value = await nextCounterValue(ctx, 'payment_provider');
  return `OP-${String(value).padStart(6, '0')}`;
}

/** A live provider of the clinic. */
export async function findProvider(ctx: Ctx, id: string) {
  const [row] = await ctx.tx
    .select()
    .from(providers)
    .where(and(eq(providers.accountId, ctx.accountId), eq(providers.id, id), isNull(providers.deletedAt)));
  return row;
}

/** A payment's provider for its name: the trade name, or the copied name when it has none. */
export const providerJoin: PartyJoin<{ providerName: string | null }> = {
  table: providers,
  on: sameClinicRow(providers, payments, payments.providerId),
  fields: {
    providerName: sql<string | null>`coalesce(${providers.fantasyName}, ${payments.counterpartySnapshot} ->> 'name')`,
  },
};

/** The payments list's own filter (the shared list adds status, dates and the search). */
export const providerFilters = (query: PaymentListQuery): (SQL | undefined)[] => [
  query.providerId ? eq(payments.providerId, query.providerId) : undefined,
];
