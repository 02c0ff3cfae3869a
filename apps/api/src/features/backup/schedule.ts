import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../../db/client.ts';
import { type BackupDatabase, writeBackup } from './backup.ts';
import { pgliteSourceOf } from './database-part.ts';

/**
 * The scheduled backup (issue 20), run by the server itself: with the embedded database it is
 * the only process that may read the files. A backup is due when the newest archive in the
 * folder is older than the interval (or there is none), so a clinic's computer that is off at
 * night still gets its daily copy soon after it starts; the oldest archives past `keep` go.
 */

export interface BackupScheduleOptions {
  db: Database;
  databaseUrl?: string | undefined;
  dataDir: string;
  folder: string;
  keep: number;
  intervalMs: number;
  /** The first look, after start-up (a server that only starts and stops makes no backup). */
  firstCheckMs: number;
  log: { info(data: object, message: string): void; error(data: object, message: string): void };
  now?: () => Date;
}

export interface BackupSchedule {
  /** Looks now: makes a backup when one is due; answers its file, if any. */
  runDue(): Promise<string | undefined>;
  /** Stops the timer and waits for a backup in progress. */
  stop(): Promise<void>;
}

const archivePrefix = 'odontia-backup-';
const archiveSuffix = '.tar.gz';
const retryAfterFailureMs = 60 * 60 * 1000;
const archiveNamePattern = /^odontia-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.tar\.gz$/;

/** `odontia-backup-2026-11-28T03-00-00Z.tar.gz`: sorts by time, and is a valid file name everywhere. */
export function scheduledArchiveName(at: Date): string {
  return `${archivePrefix}${at.toISOString().slice(0, 19).replaceAll(':', '-')}Z${archiveSuffix}`;
}

export function startBackupSchedule(options: BackupScheduleOptions): BackupSchedule {
  const { db, folder, keep, intervalMs, log, now = () => new Date() } = options;
  const database: BackupDatabase =
    db.kind === 'pglite'
      ? { kind: 'pglite', source: pgliteSourceOf(db) }
      : { kind: 'postgres', databaseUrl: requireUrl(options.databaseUrl) };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<string | undefined> | undefined;
  let stopped = false;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    // The timer must not keep a stopping process alive.
    timer = setTimeout(() => void tick(), Math.max(0, delayMs)).unref();
  };

  async function tick() {
    try {
      await runDue();
      schedule(Math.max(60_000, (await nextDueAt()) - now().getTime()));
    } catch (error) {
      log.error({ err: error, retryInMinutes: retryAfterFailureMs / 60_000 }, 'the scheduled backup failed');
      schedule(retryAfterFailureMs);
    }
  }

  async function nextDueAt(): Promise<number> {
    const [newest] = (await listArchives(folder)).slice(-1);
    return newest ? newest.takenAt + intervalMs : now().getTime();
  }

  async function runOnce(): Promise<string | undefined> {
    if ((await nextDueAt()) > now().getTime()) return undefined;
    const startedAt = now();
    const file = path.join(folder, scheduledArchiveName(startedAt));
    const manifest = await writeBackup({ database, dataDir: options.dataDir, to: file, now: startedAt });
    const removed = await pruneArchives(folder, keep);
    log.info(
      { file, files: manifest.files.length, removed, ms: now().getTime() - startedAt.getTime() },
      'scheduled backup written',
    );
    return file;
  }

  function runDue(): Promise<string | undefined> {
    running ??= runOnce().finally(() => {
      running = undefined;
    });
    return running;
  }

  schedule(options.firstCheckMs);
  return {
    runDue,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}

/** Keeps the newest `keep` scheduled archives of `folder` (and removes leftovers of an interrupted one). */
export async function pruneArchives(folder: string, keep: number): Promise<number> {
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith(archivePrefix) && name.endsWith('.part')) await rm(path.join(folder, name), { force: true });
  }
  const archives = await listArchives(folder);
  const old = archives.slice(0, Math.max(0, archives.length - keep));
  for (const archive of old) await rm(archive.file, { force: true });
  return old.length;
}

/** The scheduled archives of `folder`, oldest first, with the time their name carries. */
async function listArchives(folder: string): Promise<{ file: string; takenAt: number }[]> {
  const archives: { file: string; takenAt: number }[] = [];
  for (const name of (await readdir(folder).catch(() => [] as string[])).sort()) {
    const stamp = archiveNamePattern.exec(name);
    if (!stamp) continue;
    const takenAt = Date.parse(`${stamp[1]}T${stamp[2]}:${stamp[3]}:${stamp[4]}Z`);
    if (Number.isFinite(takenAt)) archives.push({ file: path.join(folder, name), takenAt });
  }
  return archives;
}

function requireUrl(url: string | undefined): string {
  if (!url) throw new Error('A PostgreSQL backup needs DATABASE_URL');
  return url;
}
