import { and, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { authFailures, sessions, users } from '../../db/schema/index.ts';
import type { SystemTx } from '../../db/tenancy.ts';

/** SQL of the auth throttle (issue 14): failures per counter key, in the system context. */

/**
 * Serialises the attempts that share a counter until the transaction ends, so that concurrent
 * attempts cannot all pass the check before any of them is counted. Keys in one order: no deadlock.
 */
export async function lockKeys(tx: SystemTx, keyHashes: string[]): Promise<void> {
  for (const keyHash of [...new Set(keyHashes)].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${keyHash}, 7240771002))`);
  }
}

/** When the `limit`-th most recent failure since `since` happened: the one whose expiry frees a try. */
export async function limitthRecentFailure(
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

export async function insertFailures(tx: SystemTx, rows: (typeof authFailures.$inferInsert)[]): Promise<void> {
  if (rows.length > 0) await tx.insert(authFailures).values(rows);
}

export async function deleteFailures(tx: SystemTx, ids: string[]): Promise<void> {
  if (ids.length > 0) await tx.delete(authFailures).where(inArray(authFailures.id, ids));
}

/** Failures too old for any window; keeps the table as small as the traffic of the last hour. */
export async function deleteFailuresBefore(tx: SystemTx, before: Date): Promise<void> {
  await tx.delete(authFailures).where(lt(authFailures.failedAt, before));
}

export async function deleteAllFailures(tx: SystemTx): Promise<void> {
  await tx.delete(authFailures);
}

/** Whether the person (any of their clinics, issue 19) opened a session from this address since `since`. */
export async function signedInFrom(tx: SystemTx, loginId: string, ip: string, since: Date): Promise<boolean> {
  const [row] = await tx
    .select({ one: sql<number>`1` })
    .from(users)
    .innerJoin(sessions, and(eq(sessions.accountId, users.accountId), eq(sessions.userId, users.id)))
    .where(and(eq(users.loginId, loginId), eq(sessions.ip, ip), gt(sessions.createdAt, since)))
    .limit(1);
  return row !== undefined;
}
