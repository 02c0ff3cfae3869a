import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where uploaded files live (issue 6). The key is generated here (a random UUID, never the user's
 * file name); the database keeps it with the file's metadata. Bytes are never deleted by the
 * application: a deleted file is only hidden. `remove` exists to undo a put whose upload was
 * refused or failed before anything pointed to it.
 */
export interface StoredObject {
  key: string;
  sizeBytes: number;
  /** Hex SHA-256 of the content, computed while writing. */
  sha256: string;
}

/** A stream that passes bytes through and digests them: their hex SHA-256 and how many there were. */
export function digestTap(): { tap: Transform; digest: () => { sha256: string; sizeBytes: number } } {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      sizeBytes += chunk.length;
      callback(null, chunk);
    },
  });
  return { tap, digest: () => ({ sha256: hash.digest('hex'), sizeBytes }) };
}

export interface FileStorage {
  /** Stores the content; the key exists only once every byte is written (temp file, then rename). */
  put(source: Readable | Buffer): Promise<StoredObject>;
  /** The content; throws when the key does not exist. */
  open(key: string): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  /** Undoes a put that nothing refers to (a refused upload). */
  remove(key: string): Promise<void>;
}

/** The local disk also keeps partial files, which a crash can leave behind. */
export interface DiskStorage extends FileStorage {
  /**
   * Removes what is in the temp folder and was not written to for `olderThanMs` (issue 14):
   * leftovers of a process that stopped mid-upload. A recent one may be another process's
   * upload in flight, so it is left for a later sweep. Answers how many were removed.
   */
  sweepTemp(olderThanMs: number): Promise<number>;
}

const keyPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Where the patients' files are kept: `DATA_DIR/uploads` (the app and the demo seed). */
export const uploadsDirOf = (dataDir: string) => path.join(dataDir, 'uploads');
/** Where the import wizard keeps the uploaded files (issue 42): the app's and the demo seed's. */
export const importsDirOf = (dataDir: string) => path.join(dataDir, 'imports');

/**
 * The local disk: `<root>/<first two characters of the key>/<key>`, written to `<root>/.tmp/`
 * first and renamed into place (same file system, so the rename is atomic). `root` is
 * `DATA_DIR/uploads`, outside any folder the server serves.
 */
export function createDiskStorage(root: string): DiskStorage {
  const tmpDir = path.join(root, '.tmp');
  const pathOf = (key: string) => {
    // Keys come from the database, but a path is built from them: only our own shape is accepted.
    if (!keyPattern.test(key)) throw new Error('Invalid storage key');
    return path.join(root, key.slice(0, 2), key);
  };

  return {
    async put(source) {
      const key = randomUUID();
      const target = pathOf(key);
      const temp = path.join(tmpDir, `${key}.part`);
      await mkdir(tmpDir, { recursive: true });
      await mkdir(path.dirname(target), { recursive: true });
      const { tap, digest } = digestTap();
      const output = createWriteStream(temp, { flags: 'wx', mode: 0o600, flush: true });
      try {
        const input = Buffer.isBuffer(source) ? Readable.from([source]) : source;
        await pipeline(input, tap, output);
        await rename(temp, target);
      } catch (error) {
        // A source that failed at once (a refused type) can reject the pipeline before the file
        // is even opened: wait until the stream has closed, or the temp file appears after rm.
        if (!output.closed) await new Promise<void>((resolve) => output.once('close', () => resolve()));
        await rm(temp, { force: true });
        throw error;
      }
      const { sha256, sizeBytes } = digest();
      return { key, sizeBytes, sha256 };
    },

    async open(key) {
      const file = pathOf(key);
      await access(file);
      return createReadStream(file);
    },

    async exists(key) {
      try {
        await access(pathOf(key));
        return true;
      } catch {
        return false;
      }
    },

    async remove(key) {
      await rm(pathOf(key), { force: true });
    },

    async sweepTemp(olderThanMs) {
      const names = await readdir(tmpDir).catch(() => [] as string[]);
      const cutoff = Date.now() - olderThanMs;
      let removed = 0;
      for (const name of names) {
        const file = path.join(tmpDir, name);
        const info = await stat(file).catch(() => undefined);
        if (info?.isFile() && info.mtimeMs < cutoff) {
          await rm(file, { force: true });
          removed += 1;
        }
      }
      return removed;
    },
  };
}
