import { sql } from 'drizzle-orm';
import { type Database, migrationLockKey } from '../../db/client.ts';

/** How long a probe waits for the database before it says it did not answer. */
export const probeTimeoutMs = 2_000;

/** Rejects when `work` has not settled within `ms` (the work itself is left to finish or fail). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** One database round trip; answers its duration in milliseconds, or rejects after the probe's time. */
export async function measureDatabaseRoundTrip(db: Database, ms = probeTimeoutMs): Promise<number> {
  const started = performance.now();
  await within(db.ping(), ms);
  return performance.now() - started;
}

/**
 * Whether an instance holds the migrations' advisory lock (db/client.ts) right now: it is
 * migrating the database, and this instance's statements may meet a schema half changed. A bigint
 * advisory lock shows in pg_locks as its high and low 32 bits, with objsubid 1, in its database
 * (other databases of the server migrate under the same key). PGlite is one
 * process: it migrated before it listened.
 */
export async function migrationsRunning(db: Database, ms = probeTimeoutMs): Promise<boolean> {
  if (db.kind !== 'postgres') return false;
  const high = Math.floor(migrationLockKey / 2 ** 32);
  const low = migrationLockKey % 2 ** 32;
  const { rows } = await within(
    db.orm.execute<{ running: boolean }>(sql`
      select exists (
        select 1 from pg_locks
        where locktype = 'advisory' and classid = ${high}::oid and objid = ${low}::oid and objsubid = 1 and granted
          and database = (select d.oid from pg_database d where d.datname = current_database())
      ) as running`),
    ms,
  );
  return Boolean(rows[0]?.running);
}
