import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { authFailures, sessions, users } from '../../db/schema/index.ts';
import type { SystemTx } from '../../db/tenancy.ts';

/** SQL of the auth throttle (issue 14): failures per counter key, in the system context. */

export async function deleteFailures(tx: SystemTx, ids: string[]): Promise<void> {
  if (ids.length > 0) await tx.delete(authFailures).where(inArray(authFailures.id, ids));
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
