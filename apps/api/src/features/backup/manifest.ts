import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { migrationsFolder } from '../../db/client.ts';

/**
 * What a backup says about itself (issue 20): enough to refuse a damaged archive before writing
 * anything (each part's SHA-256 and size) and to check a restored database (its migrations and
 * every table's row count, read from the same snapshot as the dump).
 */

const digest = z.object({
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  sizeBytes: z.number().int().min(0),
});

export const databaseFormats = ['pglite-data-dir', 'pg_dump-custom'] as const;

export const manifestSchema = z.object({
  format: z.literal('odontia-backup'),
  formatVersion: z.literal(1),
  createdAt: z.string(),
  appVersion: z.string(),
  /** Which database the dump is of: it restores into the same kind. */
  backend: z.enum(['pglite', 'postgres']),
  database: digest.extend({ format: z.enum(databaseFormats) }),
  /** Tags of the applied migrations, oldest first (`unknown:<when>` for one this version lacks). */
  migrations: z.array(z.string()),
  /** Rows of every table of the `public` schema. */
  rowCounts: z.record(z.string(), z.number().int().min(0)),
  /** Every file of DATA_DIR/uploads and DATA_DIR/exports, by its path in the archive. */
  files: z.array(digest),
});

export type BackupManifest = z.infer<typeof manifestSchema>;

const rootPackage = path.resolve(import.meta.dirname, '../../../../../package.json');

/** The installation's version (the root package.json). */
export function appVersion(): string {
  return (JSON.parse(readFileSync(rootPackage, 'utf8')) as { version: string }).version;
}

interface JournalEntry {
  tag: string;
  when: number;
}

/** This version's migrations, from drizzle's journal: tag by the `created_at` drizzle records. */
export function knownMigrations(): Map<string, string> {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return new Map(journal.entries.map((entry) => [String(entry.when), entry.tag]));
}

/** Runs one SQL statement (no parameters) and answers its rows; each backend gives its own. */
export type Query = (text: string) => Promise<Record<string, unknown>[]>;

export interface DatabaseFacts {
  migrations: string[];
  rowCounts: Record<string, number>;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The applied migrations and every public table's row count. Run it in the snapshot the dump is
 * made of, as a role that row-level security does not filter (a superuser or BYPASSRLS).
 */
export async function readDatabaseFacts(query: Query): Promise<DatabaseFacts> {
  const known = knownMigrations();
  const applied = await query('select created_at::text as "when" from drizzle.__drizzle_migrations order by id');
  const migrations = applied.map(({ when }) => known.get(String(when)) ?? `unknown:${String(when)}`);
  const tables = await query(
    `select c.relname as name from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') order by c.relname`,
  );
  const rowCounts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await query(`select count(*)::text as n from public.${quoteIdent(String(name))}`);
    rowCounts[String(name)] = Number(row?.n ?? 0);
  }
  return { migrations, rowCounts };
}

/** The first difference between the facts a manifest promised and a restored database's, if any. */
export function factsDifference(expected: DatabaseFacts, actual: DatabaseFacts): string | undefined {
  if (expected.migrations.join(',') !== actual.migrations.join(',')) {
    return `its migrations are ${actual.migrations.length}, the manifest lists ${expected.migrations.length}`;
  }
  const tables = new Set([...Object.keys(expected.rowCounts), ...Object.keys(actual.rowCounts)]);
  for (const table of [...tables].sort()) {
    if (expected.rowCounts[table] !== actual.rowCounts[table]) {
      return `table ${table} has ${actual.rowCounts[table] ?? 'no'} rows, the manifest says ${expected.rowCounts[table] ?? 'none'}`;
    }
  }
  return undefined;
}
