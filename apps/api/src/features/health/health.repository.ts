import type { Database } from '../../db/client.ts';

/** One database round trip; answers its duration in milliseconds. */
export async function measureDatabaseRoundTrip(db: Database): Promise<number> {
  const started = performance.now();
  await db.ping();
  return performance.now() - started;
}
