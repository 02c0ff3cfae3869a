import { createHash } from 'node:crypto';
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { AppError } from '../lib/app-error.ts';
import { newId } from '../lib/ids.ts';
import { authFailures } from './schema/index.ts';
import type { SystemTx } from './tenancy.ts';

/**
 * Sliding-window counters in PostgreSQL (`auth_failures`), so every API process sees the same
 * counts (ARCHITECTURE §8): the auth throttle's (features/auth/auth.throttle.ts), the online
 * booking's and an API token's requests per minute (plugins/auth.ts) count here. Kept below the
 * features, so the authentication plugin counts without importing a feature.
 */

/** How long a count is kept: the longest window of any counter (the auth throttle's e-mail, an hour). */
export const throttleKeepMs = 60 * 60_000;

export interface ThrottleCounter {
  keyHash: string;
  limit: number;
  windowMs: number;
}

export const throttleKeyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * Counts one attempt against each counter (their keys locked until the transaction ends), or
 * throws 429 `too_many_requests` when one is full (`exempt` may spare a counter), counting nothing.
 * Answers the ids of the counted rows (to forgive them).
 */
export async function countAttempt<T extends ThrottleCounter>(
  tx: SystemTx,
  counters: readonly T[],
  at: number,
  exempt: (counter: T) => Promise<boolean> = () => Promise.resolve(false),
): Promise<string[]> {
  await lockKeys(
    tx,
    counters.map((counter) => counter.keyHash),
  );
  let retryAfterMs = 0;
  for (const counter of counters) {
    const oldest = await limitthRecentFailure(tx, counter.keyHash, new Date(at - counter.windowMs), counter.limit);
    if (!oldest) continue;
    if (await exempt(counter)) continue;
    retryAfterMs = Math.max(retryAfterMs, oldest.getTime() + counter.windowMs - at);
  }
  if (retryAfterMs > 0) {
    const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    throw new AppError('too_many_requests', {
      retryAfterSeconds,
      retryAfterMinutes: Math.ceil(retryAfterSeconds / 60),
    });
  }
  const rows = counters.map((counter) => ({ id: newId(), keyHash: counter.keyHash, failedAt: new Date(at) }));
  if (rows.length > 0) await tx.insert(authFailures).values(rows);
  // Counts too old for any window: the table stays as small as the traffic of the last hour.
  await tx.delete(authFailures).where(lt(authFailures.failedAt, new Date(at - throttleKeepMs)));
  return rows.map((row) => row.id);
}

/**
 * Serialises the attempts that share a counter until the transaction ends, so that concurrent
 * attempts cannot all pass the check before any of them is counted. Keys in one order: no deadlock.
 */
async function lockKeys(tx: SystemTx, keyHashes: string[]): Promise<void> {
  for (const keyHash of [...new Set(keyHashes)].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${keyHash}, 7240771002))`);
  }
}

/** When the `limit`-th most recent failure since `since` happened: the one whose expiry frees a try. */
async function limitthRecentFailure(
  tx: SystemTx,
  keyHash: string,
  since: Date,
  limit: number,
): Promise<Date | undefined> {
  const [row] = await tx
    .select({ failedAt: authFailures.failedAt })
    .from(authFailures)
    .where(and(eq(authFailures.keyHash, keyHash), gt(authFailures.failedAt, since)))
    .orderBy(desc(authFailures.failedAt))
    .offset(limit - 1)
    .limit(1);
  return row?.failedAt;
}
