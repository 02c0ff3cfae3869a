import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';

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
  const name = `odontia_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  // Copied from the run's migrated template (global-setup.ts) when there is one.
  const template = inject('postgresTemplate');
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const db = await openDatabase({
      databaseUrl: url.toString(),
      poolMax: 5,
      ...(selfReplica ? { replicaUrl: url.toString() } : {}),
    });
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
