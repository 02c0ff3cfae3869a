import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, inject } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { createServerDatabase } from './server-database.ts';

/**
 * A fresh, migrated database per test file: a new database on the server when DATABASE_URL
 * is set (a copy of the template global-setup.ts migrated once, dropped at close), an in-memory
 * PGlite otherwise (started from the migrated snapshot that global-setup.ts made once).
 */

export type Backend = 'pglite' | 'postgres';

export function defaultBackend(): Backend {
  return process.env.DATABASE_URL ? 'postgres' : 'pglite';
}

/** PGlite always; PostgreSQL too when DATABASE_URL is set (CI). */
export function availableBackends(): Backend[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

let snapshot: Promise<Blob> | undefined;
function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= readFile(inject('pgliteSnapshotPath')).then((bytes) => new Blob([bytes]));
  return snapshot;
}

export async function createTestDatabase(
  backend: Backend = defaultBackend(),
  { selfReplica = false }: { selfReplica?: boolean } = {},
): Promise<Database> {
  if (backend === 'pglite') return openDatabase({ pgliteSnapshot: await pgliteSnapshot() });

  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is needed for PostgreSQL tests');
  // Copied from the run's migrated template (global-setup.ts) when there is one.
  const { name, url, admin } = await createServerDatabase(
    serverUrl,
    'odontia_test',
    inject('postgresTemplate') || undefined,
  );
  try {
    const db = await openDatabase({ databaseUrl: url, poolMax: 5, ...(selfReplica ? { replicaUrl: url } : {}) });
    let closing: Promise<void> | undefined;
    const dropDatabase = async () => {
      await db.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
    // Idempotent like Database.close: a test may close early (e.g. to see the database gone).
    return {
      ...db,
      close() {
        closing ??= dropDatabase();
        return closing;
      },
    };
  } catch (error) {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    throw error;
  }
}

/**
 * A describe block's own database (see createTestDatabase): created before its tests, after
 * `prepare` (probe tables, seed rows) has run on it, and closed after them. Read `.db` in the tests.
 */
export function useTestDatabase(
  backend: Backend,
  prepare?: (db: Database) => Promise<void>,
): { readonly db: Database } {
  let db: Database | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(backend);
    await prepare?.(db);
  });
  afterAll(async () => {
    await db?.close();
  });
  return {
    get db() {
      if (!db) throw new Error('the test database is opened in beforeAll');
      return db;
    },
  };
}
