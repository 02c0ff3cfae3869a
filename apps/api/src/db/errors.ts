import type { TenantTx } from './tenancy.ts';

/** What a failed statement means, whichever driver raised it (the code may sit on a `cause`). */

/** A unique constraint refused the write (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** A number does not fit its column (SQLSTATE 22003): a total above numeric(14,2). */
export function isNumericOverflow(error: unknown): boolean {
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === '22003') return true;
  }
  return false;
}

/** The name of the constraint a statement violated ('patients_ssn_unique'), if the driver says. */
export function violatedConstraint(error: unknown): string | undefined {
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
  }
  return undefined;
}

/**
 * Runs `write` under a savepoint of the request's transaction (it keeps using that transaction:
 * the savepoint is the connection's). When a unique index refuses it — two requests raced past
 * the check — only `write` is undone, and `refused` can still read in the same transaction to
 * say who holds the value; any other error goes on.
 */
export async function guardUnique<T>(
  tx: TenantTx,
  write: () => Promise<T>,
  refused: (error: unknown) => Promise<never>,
): Promise<T> {
  try {
    return await tx.transaction(() => write());
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return refused(error);
  }
}
