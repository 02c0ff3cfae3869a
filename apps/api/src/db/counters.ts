import { sql } from 'drizzle-orm';
import type { TenantScope } from './list-query.ts';
import { accountCounters } from './schema/index.ts';

/**
 * Per-clinic counters: the human numbers of patients, provider payments, collections… come from
 * one row per (clinic, counter) in `account_counters`.
 */

/** The clinic's next number of a counter ('patient' → 1, 2, 3…), under the counter row's lock. */
export async function nextCounterValue({ tx, accountId }: TenantScope, name: string): Promise<number> {
  const [row] = await tx
    .insert(accountCounters)
    .values({ accountId, name, value: 1 })
    .onConflictDoUpdate({
      target: [accountCounters.accountId, accountCounters.name],
      set: { value: sql`${accountCounters.value} + 1` },
    })
    .returning({ value: accountCounters.value });
  if (!row) throw new Error(`counter ${name} returned no value`);
  return row.value;
}
