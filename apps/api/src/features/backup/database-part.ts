import { spawn } from 'node:child_process';
import { createReadStream, openAsBlob } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, pgliteExtensions } from '../../db/client.ts';
import { BackupArchiveError } from './archive.ts';
import { type DatabaseFacts, type Query, readDatabaseFacts } from './manifest.ts';

/**
 * The database half of a backup (issue 20): a dump and the facts the manifest states about it,
 * both from one snapshot; and the way back, into an empty target.
 *
 * - PGlite: its own data-dir tarball (`dumpDataDir`), taken while a transaction that read the
 *   facts holds PGlite's transaction lock, so no other transaction commits in between. PGlite
 *   answers the tarball as one Blob: the embedded database is in memory once while it is written.
 * - PostgreSQL: `pg_dump -Fc` in a snapshot exported by the transaction that read the facts.
 *   Row-level security is forced on the clinics' tables, so the DATABASE_URL user must be a
 *   superuser or have BYPASSRLS, or the dump would hold no clinic's rows.
 */

export interface DatabaseDump extends DatabaseFacts {
  format: 'pglite-data-dir' | 'pg_dump-custom';
  /** The name of the part in the archive. */
  name: string;
  sizeBytes: number;
  open(): Readable;
}

export const pgliteDumpName = 'database/pglite-data-dir.tar';
export const postgresDumpName = 'database/postgres.dump';

/** A PGlite that answers plain SQL: the server's Database or a raw PGlite the command opened. */
export interface PgliteSource {
  /** Runs `read` in one PGlite transaction. */
  transaction<T>(read: (query: Query) => Promise<T>): Promise<T>;
  dump(): Promise<Blob>;
}

/** The server's open Database as a PGlite source (the scheduled backup: the server owns the files). */
export function pgliteSourceOf(db: Database): PgliteSource {
  const dump = db.dump;
  if (db.kind !== 'pglite' || !dump) throw new Error('Not an embedded database');
  return {
    transaction: (read) =>
      db.orm.transaction((tx) =>
        read(async (text) => (await tx.execute(sql.raw(text))).rows as Record<string, unknown>[]),
      ),
    dump,
  };
}

/** A raw PGlite as a source (the command: it does not migrate what it backs up). */
export function pgliteSourceOfClient(client: PGlite): PgliteSource {
  return {
    transaction: (read) =>
      client.transaction((tx) => read(async (text) => (await tx.query<Record<string, unknown>>(text)).rows)),
    dump: () => client.dumpDataDir('none'),
  };
}

/** Opens the embedded database of `dbDir` as it is (no migrations), for a backup. */
export async function openPgliteForBackup(dbDir: string): Promise<PGlite> {
  const present = await readdir(dbDir).catch(() => [] as string[]);
  if (!present.includes('PG_VERSION')) throw new BackupArchiveError(`There is no embedded database in ${dbDir}`);
  return PGlite.create({ dataDir: dbDir, extensions: pgliteExtensions });
}

export async function dumpPglite(source: PgliteSource): Promise<DatabaseDump> {
  let blob: Blob | undefined;
  // The dump waits only for PGlite's query lock, which this transaction releases between its
  // statements; its transaction lock keeps every other writer out until the dump is taken.
  const facts = await source.transaction(async (query) => {
    const read = await readDatabaseFacts(query);
    blob = await source.dump();
    return read;
  });
  if (!blob) throw new Error('PGlite gave no dump');
  const taken = blob;
  return {
    ...facts,
    format: 'pglite-data-dir',
    name: pgliteDumpName,
    sizeBytes: taken.size,
    open: () => Readable.fromWeb(taken.stream() as WebReadableStream<Uint8Array>),
  };
}

/** pg_dump of DATABASE_URL into `file`, and the facts of the same snapshot. */
export async function dumpPostgres(databaseUrl: string, file: string): Promise<DatabaseDump> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await assertSeesEveryRow(client, 'back up');
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const facts = await readDatabaseFacts(async (text) => (await client.query(text)).rows);
    await runPgTool('pg_dump', ['--format=custom', `--snapshot=${rows[0]?.snapshot}`, `--file=${file}`], databaseUrl);
    await client.query('commit');
    const { size } = await stat(file);
    return {
      ...facts,
      format: 'pg_dump-custom',
      name: postgresDumpName,
      sizeBytes: size,
      open: () => createReadStream(file),
    };
  } finally {
    await client.end();
  }
}

/** The target database must hold nothing: no table, sequence, view or function of its own. */
export async function assertPostgresEmpty(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select (select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace
                where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%')
            + (select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%') as n`,
    );
    if (Number(rows[0]?.n) > 0) {
      throw new BackupArchiveError(
        `The database of DATABASE_URL is not empty: restore into a new, empty database (createdb), never over one in use`,
      );
    }
    await assertSeesEveryRow(client, 'restore');
  } finally {
    await client.end();
  }
}

/**
 * pg_restore of `file` into the empty database of DATABASE_URL, in one transaction (a failure
 * leaves it empty). `--no-owner`: the restoring user owns everything, as the user that ran the
 * migrations did; grants and row-level security policies come back as they were. Roles are
 * cluster-wide and not in a dump: they are made here when missing, as the first migration does.
 */
export async function restorePostgres(file: string, databaseUrl: string): Promise<DatabaseFacts> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(ensureRolesSql);
    await runPgTool('pg_restore', ['--no-owner', '--single-transaction', '--exit-on-error', file], databaseUrl);
    return await readDatabaseFacts(async (text) => (await client.query(text)).rows);
  } finally {
    await client.end();
  }
}

/** Loads a PGlite data-dir tarball into `dbDir` (empty) and answers the restored facts. */
export async function restorePglite(file: string, dbDir: string): Promise<DatabaseFacts> {
  const client = await PGlite.create({
    dataDir: dbDir,
    loadDataDir: await openAsBlob(file),
    extensions: pgliteExtensions,
  });
  try {
    return await readDatabaseFacts(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
  } finally {
    await client.close();
  }
}

// The roles of migration 0000_platform, which a dump names in its grants but does not hold.
const ensureRolesSql = `
DO $$
BEGIN
  BEGIN
    CREATE ROLE odontia_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
  BEGIN
    CREATE ROLE odontia_system NOLOGIN NOSUPERUSER NOBYPASSRLS NOINHERIT;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
  IF NOT pg_has_role(current_user, 'odontia_app', 'MEMBER') THEN
    EXECUTE format('GRANT odontia_app TO %I', current_user);
  END IF;
  IF NOT pg_has_role(current_user, 'odontia_system', 'MEMBER') THEN
    EXECUTE format('GRANT odontia_system TO %I', current_user);
  END IF;
END
$$`;

async function assertSeesEveryRow(client: pg.Client, action: string): Promise<void> {
  const { rows } = await client.query<{ ok: boolean }>(
    'select rolsuper or rolbypassrls as ok from pg_roles where rolname = current_user',
  );
  if (!rows[0]?.ok) {
    throw new BackupArchiveError(
      `The DATABASE_URL user must be a superuser or have BYPASSRLS to ${action}: row-level security hides the clinics' rows from any other user`,
    );
  }
}

/**
 * Runs pg_dump or pg_restore against `databaseUrl`. The password goes in PGPASSWORD, not in the
 * arguments, where any user of the machine could read it (`ps`).
 */
function runPgTool(tool: 'pg_dump' | 'pg_restore', args: string[], databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [`--dbname=${url.toString()}`, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 10_000) stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new BackupArchiveError(
              `${tool} was not found: install PostgreSQL's client tools of the server's version (e.g. postgresql-client-15)`,
            )
          : error,
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolve();
      else
        reject(
          new BackupArchiveError(`${tool} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`),
        );
    });
  });
}
