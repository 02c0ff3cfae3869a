import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { DataDirLock } from '../../lib/data-dir-lock.ts';
import {
  type ArchiveEntry,
  BackupArchiveError,
  digestOf,
  isPartName,
  manifestEntry,
  type PartDigest,
  readArchive,
  writePart,
} from './archive.ts';
import { fileFolders } from './backup.ts';
import { assertPostgresEmpty, restorePglite, restorePostgres } from './database-part.ts';
import {
  type BackupManifest,
  type DatabaseFacts,
  factsDifference,
  knownMigrations,
  manifestSchema,
} from './manifest.ts';

/**
 * Restores a backup archive (issue 20) into an empty target: the embedded database of an empty
 * DATA_DIR, or an empty PostgreSQL database (DATABASE_URL) and DATA_DIR's files. The whole
 * archive is read and every part checked against the manifest before anything is written; the
 * restored database is then checked against the manifest's migrations and row counts.
 */

export type RestoreTarget =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'postgres'; databaseUrl: string; dataDir: string };

export interface RestoreResult {
  manifest: BackupManifest;
  restored: DatabaseFacts;
}

const manifestMaxBytes = 256 * 1024 * 1024;

export interface RestoreOptions {
  /**
   * Takes DATA_DIR's lock once the archive is verified (the command: no server may start on the
   * target meanwhile). Nothing, not even the folder, is made before.
   */
  lock?: (dataDir: string) => Promise<DataDirLock>;
}

export async function restoreBackup(
  archive: string,
  target: RestoreTarget,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  const manifest = await verifyArchive(archive);
  if (manifest.backend !== target.kind) {
    throw new BackupArchiveError(
      manifest.backend === 'pglite'
        ? 'This archive holds an embedded (PGlite) database: restore it with DATABASE_URL unset'
        : 'This archive holds a PostgreSQL database: restore it with DATABASE_URL set to an empty database',
    );
  }
  const known = new Set(knownMigrations().values());
  const newer = manifest.migrations.find((tag) => !known.has(tag));
  if (newer) {
    throw new BackupArchiveError(
      `This archive was made by a newer Odontia (${manifest.appVersion}; migration ${newer} is unknown here): restore it with that version`,
    );
  }
  const { dataDir } = target;
  await mkdir(dataDir, { recursive: true });
  const lock = await options.lock?.(dataDir);
  try {
    await assertTargetEmpty(target);
    return await restoreInto(archive, manifest, target);
  } finally {
    await lock?.release();
  }
}

async function restoreInto(archive: string, manifest: BackupManifest, target: RestoreTarget): Promise<RestoreResult> {
  const { dataDir } = target;
  const staging = path.join(dataDir, `.restore-${randomBytes(6).toString('hex')}`);
  const dbDir = path.join(dataDir, 'db');
  let databaseWritten = false;
  try {
    await mkdir(staging, { recursive: true });
    const dumpFile = await extractParts(archive, manifest, staging);
    databaseWritten = true;
    const restored =
      target.kind === 'pglite'
        ? await restorePglite(dumpFile, dbDir)
        : await restorePostgres(dumpFile, target.databaseUrl);
    const difference = factsDifference(manifest, restored);
    if (difference) {
      throw new BackupArchiveError(
        `The restored database does not match the manifest: ${difference}` +
          (target.kind === 'postgres' ? '. Drop that database before trying again' : ''),
      );
    }
    for (const folder of fileFolders) {
      const staged = path.join(staging, folder);
      const present = await readdir(staged).catch(() => undefined);
      if (!present) continue;
      // The target folder is absent or empty (checked above): an empty one gives way.
      await rmdir(path.join(dataDir, folder)).catch(() => {});
      await rename(staged, path.join(dataDir, folder));
    }
    return { manifest, restored };
  } catch (error) {
    // The embedded target was empty: leave it so. (pg_restore ran in one transaction.)
    if (databaseWritten && target.kind === 'pglite') await rm(dbDir, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Reads the whole archive without writing anything: every entry a part the manifest lists with
 * the same SHA-256 and size, every listed part present once. Answers the manifest.
 */
export async function verifyArchive(archive: string): Promise<BackupManifest> {
  const seen = new Map<string, PartDigest>();
  let manifestText: string | undefined;
  try {
    manifestText = await readEntries(archive, seen);
  } catch (error) {
    if (error instanceof BackupArchiveError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BackupArchiveError(`There is no file ${archive}`);
    // Nothing is written in this pass: any other failure is the archive's (gzip's check, a cut tar).
    throw new BackupArchiveError(`The archive is damaged or incomplete (${(error as Error).message})`);
  }
  if (manifestText === undefined)
    throw new BackupArchiveError('The archive has no manifest: it is incomplete or not an Odontia backup');
  let manifest: BackupManifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(manifestText));
  } catch {
    throw new BackupArchiveError('The archive’s manifest is damaged or not an Odontia backup’s');
  }
  const expected = [manifest.database, ...manifest.files];
  for (const part of expected) {
    const found = seen.get(part.path);
    if (!found) throw new BackupArchiveError(`The archive lacks ${part.path}, which its manifest lists`);
    if (found.sha256 !== part.sha256 || found.sizeBytes !== part.sizeBytes) {
      throw new BackupArchiveError(`${part.path} is damaged: its SHA-256 or size differs from the manifest's`);
    }
  }
  if (seen.size !== expected.length) {
    const listed = new Set(expected.map((part) => part.path));
    const extra = [...seen.keys()].find((name) => !listed.has(name));
    throw new BackupArchiveError(`The archive holds ${extra}, which its manifest does not list`);
  }
  return manifest;
}

/** Reads every entry: answers the manifest's text (unchecked) and fills `seen` with the other parts' digests. */
async function readEntries(archive: string, seen: Map<string, PartDigest>): Promise<string | undefined> {
  let manifestText: string | undefined;
  for await (const entry of readArchive(archive)) {
    if (seen.has(entry.name) || (entry.name === manifestEntry && manifestText !== undefined)) {
      throw new BackupArchiveError(`The archive holds ${entry.name} twice`);
    }
    if (entry.name === manifestEntry) {
      manifestText = await readManifest(entry);
    } else if (isPartName(entry.name)) {
      seen.set(entry.name, await digestOf(entry.stream));
    } else {
      throw new BackupArchiveError(`The archive holds an unexpected entry: ${entry.name}`);
    }
  }
  return manifestText;
}

/** Writes every part under `staging`, checking each again (the file may have changed since); answers the dump's path. */
async function extractParts(archive: string, manifest: BackupManifest, staging: string): Promise<string> {
  const expected = new Map([manifest.database, ...manifest.files].map((part) => [part.path, part]));
  for await (const entry of readArchive(archive)) {
    if (entry.name === manifestEntry) {
      entry.stream.resume();
      continue;
    }
    const part = expected.get(entry.name);
    if (!part) throw new BackupArchiveError(`The archive changed while it was restored (${entry.name})`);
    const written = await writePart(entry.stream, path.join(staging, ...entry.name.split('/')));
    if (written.sha256 !== part.sha256 || written.sizeBytes !== part.sizeBytes) {
      throw new BackupArchiveError(`The archive changed while it was restored (${entry.name})`);
    }
  }
  return path.join(staging, ...manifest.database.path.split('/'));
}

async function readManifest(entry: ArchiveEntry): Promise<string> {
  if (entry.sizeBytes > manifestMaxBytes) throw new BackupArchiveError('The archive’s manifest is too large');
  const chunks: Buffer[] = [];
  for await (const chunk of entry.stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Refuses a target that holds a database or files: a restore never mixes two installations. */
async function assertTargetEmpty(target: RestoreTarget): Promise<void> {
  const holdsSomething = async (folder: string) => ((await readdir(folder).catch(() => [])) as string[]).length > 0;
  if (target.kind === 'pglite' && (await holdsSomething(path.join(target.dataDir, 'db')))) {
    throw new BackupArchiveError(
      `${target.dataDir} already holds a database: restore into a new, empty DATA_DIR, never over one in use`,
    );
  }
  for (const folder of fileFolders) {
    if (await holdsSomething(path.join(target.dataDir, folder))) {
      throw new BackupArchiveError(
        `${path.join(target.dataDir, folder)} is not empty: restore into a new, empty DATA_DIR`,
      );
    }
  }
  if (target.kind === 'postgres') await assertPostgresEmpty(target.databaseUrl);
}
