import { createReadStream } from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { BackupArchiveError, createArchiveWriter, isPartName } from './archive.ts';
import { type DatabaseDump, dumpPglite, dumpPostgres, type PgliteSource } from './database-part.ts';
import { appVersion, type BackupManifest } from './manifest.ts';

/**
 * Writes one backup archive (issue 20): the database, then DATA_DIR's uploads and exports, then
 * the manifest. The database goes first: a file is on disk before the row that names it commits,
 * so every file the snapshot refers to is already there when the folders are walked.
 */

export type BackupDatabase = { kind: 'pglite'; source: PgliteSource } | { kind: 'postgres'; databaseUrl: string };

export interface WriteBackupOptions {
  database: BackupDatabase;
  dataDir: string;
  /** The archive to write; it must not exist yet. */
  to: string;
  now?: Date;
}

/** The folders of DATA_DIR a backup carries, by their name in the archive. */
export const fileFolders = ['uploads', 'exports'] as const;

export async function writeBackup({
  database,
  dataDir,
  to,
  now = new Date(),
}: WriteBackupOptions): Promise<BackupManifest> {
  const target = path.resolve(to);
  if (await exists(target)) throw new BackupArchiveError(`${target} already exists: choose another file`);
  await mkdir(path.dirname(target), { recursive: true });
  // Written beside the target and renamed once complete: a half-written backup never has its name.
  const partial = `${target}.part`;
  const dumpFile = `${target}.dump.part`;
  await rm(partial, { force: true });
  let writer: ReturnType<typeof createArchiveWriter> | undefined;
  try {
    const dump: DatabaseDump =
      database.kind === 'pglite'
        ? await dumpPglite(database.source)
        : await dumpPostgres(database.databaseUrl, dumpFile);
    writer = createArchiveWriter(partial);
    const databaseDigest = await writer.add(dump.name, dump.sizeBytes, dump.open());
    const files: BackupManifest['files'] = [];
    for (const folder of fileFolders) {
      for (const relative of await listFiles(folder, path.join(dataDir, folder))) {
        const file = path.join(dataDir, folder, relative);
        const info = await stat(file).catch(() => undefined);
        // Gone since the listing (a temporary file): nothing refers to it.
        if (!info) continue;
        const name = `${folder}/${relative.split(path.sep).join('/')}`;
        files.push({ path: name, ...(await writer.add(name, info.size, createReadStream(file))) });
      }
    }
    const manifest: BackupManifest = {
      format: 'odontia-backup',
      formatVersion: 1,
      createdAt: now.toISOString(),
      appVersion: appVersion(),
      backend: database.kind,
      database: { path: dump.name, format: dump.format, ...databaseDigest },
      migrations: dump.migrations,
      rowCounts: dump.rowCounts,
      files,
    };
    await writer.finish(manifest);
    await rename(partial, target);
    return manifest;
  } catch (error) {
    await writer?.abort(error as Error);
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(dumpFile, { force: true });
  }
}

/**
 * Every file under `root` (DATA_DIR/`folder`), relative, sorted. Dot folders and files (`.tmp`,
 * `.spool`: uploads and exports in progress) are left out, and so is any name the application
 * never gives (the archive refuses it).
 */
async function listFiles(folder: string, root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((relative) => isPartName(`${folder}/${relative.split(path.sep).join('/')}`))
    .sort();
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
