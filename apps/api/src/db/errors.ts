import type { TenantTx } from './tenancy.ts';

/** What a failed statement means, whichever driver raised it (the code may sit on a `cause`). */

/** The error of the chain (the error, then each `cause`) that carries SQLSTATE `code`, if any. */
export function pgErrorOf(error: unknown, code: string): { code: string } | undefined {
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === code) return current as { code: string };
  }
  return undefined;
}

/** A unique constraint refused the write (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return pgErrorOf(error, '23505') !== undefined;
}

/**
 * Runs `run` once more when it loses a race on a unique key (two requests writing one new row at
 * once): the second try finds the row the first one made.
 */
export async function againIfRaced<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return run();
  }
}

/** PostgreSQL's exclusion constraint refused the write (SQLSTATE 23P01). */
export function isExclusionViolation(error: unknown): boolean {
  return pgErrorOf(error, '23P01') !== undefined;
}

/**
 * PostgreSQL broke a deadlock by failing this statement (SQLSTATE 40P01). Two inserts of the same
 * time under an exclusion constraint each wait for the other (unlike a unique index, an exclusion
 * constraint has no "the later one waits"): one of them fails this way instead of 23P01.
 */
export function isDeadlock(error: unknown): boolean {
  return pgErrorOf(error, '40P01') !== undefined;
}

/** A number does not fit its column (SQLSTATE 22003): a total above numeric(14,2). */
export function isNumericOverflow(error: unknown): boolean {
  return pgErrorOf(error, '22003') !== undefined;
}

/** The name of the constraint a statement violated ('patients_ssn_unique'), if the driver says. */
export function violatedConstraint(error: unknown): string | undefined {
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    const constraint = (current as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
  }
  return undefined;
}

/** The keys of migration 0028 (features/commercial/clinic-currency.ts) that say "not the clinic's currency", for the error handler. */
export const currencyConstraints = new Set(['commercial_documents_currency_fk', 'payments_currency_fk']);

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
