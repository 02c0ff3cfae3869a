import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshotPath: string;
  }
}

/** Migrates one PGlite once and dumps it; each test file starts its own copy from the dump. */
export default async function setup(project: TestProject) {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'odontia-test-'));
  const db = await openDatabase({});
  const dump = await db.dump?.();
  await db.close();
  if (!dump) throw new Error('PGlite did not dump its data dir');
  const snapshotPath = path.join(folder, 'migrated.tar');
  await writeFile(snapshotPath, new Uint8Array(await dump.arrayBuffer()));
  project.provide('pgliteSnapshotPath', snapshotPath);
  return async () => {
    await rm(folder, { recursive: true, force: true });
  };
}
