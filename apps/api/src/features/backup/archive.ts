import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { digestTap } from '../../lib/file-storage.ts';

/**
 * The backup archive (issue 20): a gzip'd tar, written and read as streams (a part is never held
 * in memory whole). Entries: the database part under `database/`, the files under `uploads/` and
 * `exports/` as they lie in DATA_DIR, and `manifest.json` last, because it carries every part's
 * SHA-256 and those are known only once the part is written.
 */

export const manifestEntry = 'manifest.json';

/** A part's digest as the manifest records it. */
export interface PartDigest {
  sha256: string;
  sizeBytes: number;
}

export class BackupArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupArchiveError';
  }
}

// Relative, forward slashes, no dot segments or dot files: an archive must not write outside its target.
const entryNamePattern = /^(database|uploads|exports)(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/;

/** Whether `name` is a part an archive may hold (a damaged or hostile archive may name anything). */
export function isPartName(name: string): boolean {
  return entryNamePattern.test(name) && !name.split('/').includes('..');
}

export interface ArchiveWriter {
  /** Adds a part of `sizeBytes` bytes from `source`; answers its digest. */
  add(name: string, sizeBytes: number, source: Readable): Promise<PartDigest>;
  /** Adds the manifest and finishes the archive once every byte is on disk. */
  finish(manifest: unknown): Promise<void>;
  /** Stops writing after a failure (the caller removes the file). */
  abort(error: Error): Promise<void>;
}

/** Starts an archive at `file` (created exclusively: never overwrites). */
export function createArchiveWriter(file: string): ArchiveWriter {
  const pack = tar.pack();
  const output = createWriteStream(file, { flags: 'wx', mode: 0o600, flush: true });
  const written = pipeline(pack, createGzip({ level: 6 }), output);
  // Noticed by add/finish; a failure before then must not be unhandled.
  written.catch(() => {});
  const mtime = new Date();

  const entry = (name: string, size: number): Writable =>
    pack.entry({ name, size, mode: 0o600, mtime, type: 'file' }) as unknown as Writable;

  return {
    async add(name, sizeBytes, source) {
      if (!isPartName(name)) throw new BackupArchiveError(`Not a part name: ${name}`);
      const { tap, digest } = digestTap();
      await Promise.race([pipeline(source, tap, entry(name, sizeBytes)), written]);
      const result = digest();
      if (result.sizeBytes !== sizeBytes) {
        throw new BackupArchiveError(`${name} changed size while it was archived`);
      }
      return result;
    },
    async finish(manifest) {
      const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
      pack.entry({ name: manifestEntry, size: bytes.length, mode: 0o600, mtime, type: 'file' }, bytes);
      pack.finalize();
      await written;
    },
    async abort(error) {
      pack.destroy(error);
      await written.catch(() => {});
      if (!output.closed) await new Promise<void>((resolve) => output.once('close', () => resolve()));
    },
  };
}

export interface ArchiveEntry {
  name: string;
  sizeBytes: number;
  /** Must be consumed (or resumed) before the next entry comes. */
  stream: Readable;
}

/**
 * Every entry of the archive at `file`, in order. A damaged gzip (its CRC), a truncated file and
 * a malformed tar all end the iteration with a BackupArchiveError.
 */
export async function* readArchive(file: string): AsyncGenerator<ArchiveEntry> {
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract as unknown as Writable);
  let failure: Error | undefined;
  reading.catch((error: Error) => {
    failure = error;
  });
  let finished = false;
  try {
    for await (const item of extract as AsyncIterable<Readable & { header: tar.Header }>) {
      if (item.header.type !== 'file') {
        throw new BackupArchiveError(`The archive holds ${item.header.type} "${item.header.name}", not a file`);
      }
      yield { name: item.header.name, sizeBytes: item.header.size ?? 0, stream: item };
    }
    await reading;
    finished = true;
  } catch (error) {
    if (error instanceof BackupArchiveError) throw error;
    throw new BackupArchiveError(`The archive is damaged or incomplete (${(failure ?? (error as Error)).message})`);
  } finally {
    // A reader that stopped early (a refused part) must not leave the file open.
    if (!finished) extract.destroy();
  }
}

/** Writes `source` to `target` (its folder made), answering the digest of what was written. */
export async function writePart(source: Readable, target: string): Promise<PartDigest> {
  await mkdir(path.dirname(target), { recursive: true });
  const { tap, digest } = digestTap();
  await pipeline(source, tap, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
  return digest();
}

/** Reads a stream to its end, answering its digest (verifying without writing). */
export async function digestOf(source: Readable): Promise<PartDigest> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    hash.update(chunk);
    sizeBytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), sizeBytes };
}
