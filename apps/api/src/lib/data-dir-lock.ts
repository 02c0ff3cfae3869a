import { open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Who has the embedded database of a DATA_DIR open (issue 20). PGlite is one process: a server,
 * a backup or a restore that opened the same files as another would corrupt them. The holder
 * writes `DATA_DIR/odontia.lock` (created exclusively) and removes it when done; a lock whose
 * process is gone (kill -9, power cut) is stale and taken over.
 */

export interface DataDirLockHolder {
  pid: number;
  hostname: string;
  /** What holds it: 'server', 'backup', 'restore'. */
  purpose: string;
  since: string;
}

export interface DataDirLock {
  release(): Promise<void>;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirLockHolder,
  ) {
    const where =
      holder.hostname === os.hostname() ? `process ${holder.pid}` : `process ${holder.pid} on ${holder.hostname}`;
    super(
      `${dataDir} is in use by ${holder.purpose === 'server' ? 'the Odontia server' : `a ${holder.purpose}`} (${where}, since ${holder.since})`,
    );
    this.name = 'DataDirLockedError';
  }
}

export const lockFileName = 'odontia.lock';

/** Takes the DATA_DIR's lock for `purpose`, or throws DataDirLockedError naming who holds it. */
export async function claimDataDirLock(dataDir: string, purpose: string): Promise<DataDirLock> {
  const file = path.join(dataDir, lockFileName);
  const holder: DataDirLockHolder = {
    pid: process.pid,
    hostname: os.hostname(),
    purpose,
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(file, 'wx', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(holder)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          await rm(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const current = await readDataDirLock(dataDir);
      if (current && !isStale(current)) throw new DataDirLockedError(dataDir, current);
      // Stale or unreadable (a crash while writing it): take it over once; a race loses to EEXIST.
      await rm(file, { force: true });
    }
  }
  const current = await readDataDirLock(dataDir);
  throw new DataDirLockedError(dataDir, current ?? { ...holder, pid: -1, purpose: 'another process' });
}

/** The holder of the DATA_DIR's lock, or undefined when there is none (or it is unreadable). */
export async function readDataDirLock(dataDir: string): Promise<DataDirLockHolder | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path.join(dataDir, lockFileName), 'utf8')) as DataDirLockHolder;
    return typeof parsed.pid === 'number' && typeof parsed.hostname === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isStale(holder: DataDirLockHolder): boolean {
  // Another machine's process (a shared folder) cannot be checked from here: treat it as alive.
  if (holder.hostname !== os.hostname()) return false;
  // Our own pid: left by an earlier run that had the same pid (a container's pid 1 after a restart).
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // EPERM: it exists but belongs to another user, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
