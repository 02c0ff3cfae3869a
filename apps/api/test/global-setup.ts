import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { createServerDatabase } from './server-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshotPath: string;
    /** With DATABASE_URL: a migrated database each test file's database is copied from ('' without). */
    postgresTemplate: string;
  }
}

/**
 * Migrates once per run, so each test file's database starts migrated: one PGlite, dumped (each
 * file starts its own copy from the dump), and with DATABASE_URL one PostgreSQL database, the
 * template of every file's `create database … template …` (a file copy, where migrating a new
 * database took about 4 s: a hundred and more per CI run).
 */
export default async function setup(project: TestProject) {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'odontia-test-'));
  const db = await openDatabase({});
  const dump = await db.dump?.();
  await db.close();
  if (!dump) throw new Error('PGlite did not dump its data dir');
  const snapshotPath = path.join(folder, 'migrated.tar');
  await writeFile(snapshotPath, new Uint8Array(await dump.arrayBuffer()));
  project.provide('pgliteSnapshotPath', snapshotPath);

  const template = process.env.DATABASE_URL ? await migratedPostgresTemplate(process.env.DATABASE_URL) : undefined;
  project.provide('postgresTemplate', template?.name ?? '');
  return async () => {
    await template?.drop();
    await rm(folder, { recursive: true, force: true });
  };
}

async function migratedPostgresTemplate(serverUrl: string) {
  const { name, url, admin } = await createServerDatabase(serverUrl, 'odontia_template');
  // Migrated, then closed: a template may have no connections while it is copied.
  const migrated = await openDatabase({ databaseUrl: url, poolMax: 1 });
  await migrated.close();
  await admin.end();
  return {
    name,
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
