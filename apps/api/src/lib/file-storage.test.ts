import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiskStorage, type FileStorage } from './file-storage.ts';

describe('disk storage', () => {
  let root: string;
  let storage: FileStorage;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'odontia-storage-'));
    storage = createDiskStorage(root);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const files = async () =>
    (await readdir(root, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());

  it('stores a stream under a generated key with its size and SHA-256, and reads it back', async () => {
    const stored = await storage.put(Readable.from([Buffer.from('hola '), Buffer.from('mundo')]));
    expect(stored.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.sizeBytes).toBe(10);
    expect(stored.sha256).toBe(createHash('sha256').update('hola mundo').digest('hex'));
    expect(await storage.exists(stored.key)).toBe(true);
    expect(await text(await storage.open(stored.key))).toBe('hola mundo');
    expect((await files()).map((entry) => entry.name)).toEqual([stored.key]);
    await storage.remove(stored.key);
    expect(await storage.exists(stored.key)).toBe(false);
  });

  it('leaves nothing behind when the source fails half way', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(storage.put(failing)).rejects.toThrow('connection lost');
    expect(await files()).toEqual([]);
  });

  it('refuses a key that is not its own (no path from outside)', async () => {
    await expect(storage.open('../../etc/passwd')).rejects.toThrow('Invalid storage key');
    expect(await storage.exists('../secret')).toBe(false);
  });
});
