import path from 'node:path';
import type { Env } from '../../env.ts';
import { claimDataDirLock, type DataDirLock, DataDirLockedError } from '../../lib/data-dir-lock.ts';
import { BackupArchiveError } from './archive.ts';
import { writeBackup } from './backup.ts';
import { openPgliteForBackup, pgliteSourceOfClient } from './database-part.ts';
import { restoreBackup } from './restore.ts';
import { scheduledArchiveName } from './schedule.ts';

/**
 * `npm run backup -- --to FILE` and `npm run restore -- FILE` (issue 20), against the same
 * database as the server: DATABASE_URL, or the embedded PGlite in DATA_DIR, which they open only
 * when no server holds it. Each answers its exit code.
 */

export interface CommandContext {
  env: Pick<Env, 'DATA_DIR' | 'DATABASE_URL' | 'BACKUP_DIR' | 'BACKUP_INTERVAL_HOURS'>;
  out: (line: string) => void;
  err: (line: string) => void;
}

const backupUsage = 'Usage: npm run backup -- [--to FILE]   (default: BACKUP_DIR/odontia-backup-<time>.tar.gz)';
const restoreUsage = 'Usage: npm run restore -- FILE   (into an empty DATA_DIR, or the empty database of DATABASE_URL)';

export async function runBackupCommand(argv: string[], { env, out, err }: CommandContext): Promise<number> {
  const args = parseBackupArgs(argv);
  if (!args) {
    err(backupUsage);
    return 2;
  }
  const to = path.resolve(args.to ?? path.join(env.BACKUP_DIR, scheduledArchiveName(new Date())));
  let lock: DataDirLock | undefined;
  try {
    if (env.DATABASE_URL) {
      const manifest = await writeBackup({
        database: { kind: 'postgres', databaseUrl: env.DATABASE_URL },
        dataDir: env.DATA_DIR,
        to,
      });
      out(summary(to, manifest.files.length, manifest.rowCounts));
      return 0;
    }
    lock = await claimDataDirLock(env.DATA_DIR, 'backup');
    const client = await openPgliteForBackup(path.join(env.DATA_DIR, 'db'));
    try {
      const manifest = await writeBackup({
        database: { kind: 'pglite', source: pgliteSourceOfClient(client) },
        dataDir: env.DATA_DIR,
        to,
      });
      out(summary(to, manifest.files.length, manifest.rowCounts));
      return 0;
    } finally {
      await client.close();
    }
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      err(
        `Backup refused: ${error.message}. Stop the server to back up now, or rely on its scheduled backup ` +
          `(every ${env.BACKUP_INTERVAL_HOURS} h into ${env.BACKUP_DIR}).`,
      );
      return 1;
    }
    err(`${error instanceof BackupArchiveError ? 'Backup refused' : 'Backup failed'}: ${(error as Error).message}`);
    return 1;
  } finally {
    await lock?.release();
  }
}

export async function runRestoreCommand(argv: string[], { env, out, err }: CommandContext): Promise<number> {
  const [file, ...rest] = argv;
  if (!file || rest.length > 0 || file.startsWith('-')) {
    err(restoreUsage);
    return 2;
  }
  try {
    const { manifest, restored } = await restoreBackup(
      path.resolve(file),
      env.DATABASE_URL
        ? { kind: 'postgres', databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR }
        : { kind: 'pglite', dataDir: env.DATA_DIR },
      // No server may start on the embedded target while it is being written.
      env.DATABASE_URL ? {} : { lock: (dataDir) => claimDataDirLock(dataDir, 'restore') },
    );
    const rows = Object.values(restored.rowCounts).reduce((sum, count) => sum + count, 0);
    out(
      `Restored ${path.resolve(file)} (made ${manifest.createdAt} by Odontia ${manifest.appVersion}): ` +
        `${Object.keys(restored.rowCounts).length} tables, ${rows} rows and ${manifest.files.length} files, ` +
        `all as the manifest says, into ${env.DATABASE_URL ? 'the database of DATABASE_URL and ' : ''}${env.DATA_DIR}.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      err(`Restore refused: ${error.message}. Restore into a new, empty DATA_DIR that no server uses.`);
      return 1;
    }
    err(`${error instanceof BackupArchiveError ? 'Restore refused' : 'Restore failed'}: ${(error as Error).message}`);
    return 1;
  }
}

function parseBackupArgs(argv: string[]): { to?: string } | undefined {
  if (argv.length === 0) return {};
  const [flag, value, ...rest] = argv;
  if (flag?.startsWith('--to=') && value === undefined) return { to: flag.slice('--to='.length) };
  if (flag === '--to' && value && rest.length === 0) return { to: value };
  return undefined;
}

function summary(file: string, files: number, rowCounts: Record<string, number>): string {
  const rows = Object.values(rowCounts).reduce((sum, count) => sum + count, 0);
  return `Backup written: ${file} (${Object.keys(rowCounts).length} tables, ${rows} rows, ${files} files)`;
}
