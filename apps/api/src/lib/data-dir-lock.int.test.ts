import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDataDirLock, DataDirLockedError, lockFileName, readDataDirLock } from './data-dir-lock.ts';

/** One process at a time on an embedded DATA_DIR (issue 20): server, backup and restore take its lock. */
describe('the DATA_DIR lock', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-lock-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a second holder while the first is alive, naming it', async () => {
    // Another live process holds it: this test's parent.
    const holder = { pid: process.ppid, hostname: os.hostname(), purpose: 'server', since: '2026-11-28T09:00:00.000Z' };
    await writeFile(path.join(dataDir, lockFileName), JSON.stringify(holder));
    const refusal = claimDataDirLock(dataDir, 'backup');
    await expect(refusal).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(refusal).rejects.toThrow(`in use by the Odontia server (process ${process.ppid}`);
    expect(await readDataDirLock(dataDir)).toEqual(holder);
    await rm(path.join(dataDir, lockFileName));
  });

  it('is free again once released', async () => {
    const server = await claimDataDirLock(dataDir, 'server');
    expect(await readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, purpose: 'server' });
    await server.release();
    expect(await readDataDirLock(dataDir)).toBeUndefined();
    const backup = await claimDataDirLock(dataDir, 'backup');
    await backup.release();
  });

  it('takes over the lock of a process that is gone (kill -9, power cut)', async () => {
    // A pid that existed and has exited: a child that ran `true`.
    const gone = spawnSync('true').pid;
    await writeFile(
      path.join(dataDir, lockFileName),
      JSON.stringify({ pid: gone, hostname: os.hostname(), purpose: 'server', since: '2026-01-01T00:00:00.000Z' }),
    );
    const lock = await claimDataDirLock(dataDir, 'server');
    expect(await readDataDirLock(dataDir)).toMatchObject({ pid: process.pid, purpose: 'server' });
    await lock.release();
  });
});
