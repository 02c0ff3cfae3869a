import type { Readable } from 'node:stream';
import { Transform, type TransformCallback, finished as whenFinished } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import { type UploadFileEntryInput, uploadMetadataSchema } from '@odontia/shared/schemas/files';
import { isFieldCode } from '@odontia/shared/validation';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error.ts';
import type { FileStorage, StoredObject } from '../../lib/file-storage.ts';
import { multipartFailure } from '../../plugins/multipart.ts';
import { detectContentType, isImage, sniffBytes } from './content-type.ts';

/**
 * Receives one multipart upload as it streams (issue 6): each file part goes straight to the
 * storage through a meter that stops it past its limit and reads its first bytes for its type;
 * nothing is held in memory but one chunk. The upload is all or nothing: on the first refusal
 * (too large, wrong type, bad metadata) the rest of the request is read and discarded so the
 * browser gets the answer, and every object already stored is removed. A request that fails on
 * its side (the client goes away, its body stops arriving or is malformed) fails the file being
 * stored, whose temp file is removed, and the upload with it (issue 14).
 */

export interface UploadLimits {
  maxFileBytes: number;
  maxTotalBytes: number;
}

export interface ReceivedFile {
  originalName: string;
  mimeType: string;
  stored: StoredObject;
  thumbnail: StoredObject | null;
  entry: UploadFileEntryInput;
}

class MeterLimit extends Error {
  constructor(readonly seen: number) {
    super('limit');
  }
}
class MeterType extends Error {}

/** Passes bytes through up to `limit`; remembers the first ones and refuses a type not allowed. */
class Meter extends Transform {
  seen = 0;
  mimeType: string | null = null;
  private head = Buffer.alloc(0);

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) {
      callback(new MeterLimit(this.seen));
      return;
    }
    if (this.mimeType === null && this.head.length < sniffBytes) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, sniffBytes - this.head.length)]);
      if (this.head.length >= sniffBytes && !this.sniff()) {
        callback(new MeterType());
        return;
      }
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.mimeType === null && !this.sniff() ? new MeterType() : null);
  }

  private sniff(): boolean {
    this.mimeType = detectContentType(this.head);
    return this.mimeType !== null;
  }
}

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });
/** Half of a UTF-16 surrogate pair: no database or JSON encoder can store it. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The name as the user knows it, without any folder, control characters, lone surrogates or excess
 * length: a long name keeps its first 160 and last 39 characters as a person sees them
 * (graphemes), so the cut never splits an emoji, an accent or a flag.
 */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').normalize('NFC').split(/[\\/]/).pop() ?? '';
  const clean = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(loneSurrogate, '')
    .trim();
  if (!clean) return 'archivo';
  const characters = Array.from(graphemes.segment(clean), (part) => part.segment);
  return characters.length > 200 ? `${characters.slice(0, 160).join('')}…${characters.slice(-39).join('')}` : clean;
}

async function drain(stream: Readable): Promise<void> {
  stream.resume();
  await finished(stream).catch(() => undefined);
}

/** The limit as configured (UPLOAD_MAX_MB…), for the message. */
const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 1000) / 1000;

/** A small JPEG preview (EXIF orientation applied, metadata dropped), 320 px at most on each side. */
async function thumbnailOf(storage: FileStorage, key: string): Promise<Buffer> {
  const source = await storage.open(key);
  const transformer = sharp({ failOn: 'error' })
    .rotate()
    .resize({ width: 320, height: 320, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 78, mozjpeg: true });
  return new Promise<Buffer>((resolve, reject) => {
    source.on('error', reject);
    source.pipe(transformer);
    transformer.toBuffer().then(resolve, reject);
  });
}

export async function receiveUpload(
  parts: AsyncIterableIterator<Multipart>,
  storage: FileStorage,
  limits: UploadLimits,
  /** Filled with the other text parts (`metadata` aside), for a route that takes more than files. */
  fields: Record<string, string> = {},
): Promise<ReceivedFile[]> {
  const files: Omit<ReceivedFile, 'entry' | 'thumbnail'>[] = [];
  const keys: string[] = [];
  let metadataText: string | undefined;
  let refusal: AppError | undefined;
  let total = 0;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value !== 'string') continue;
        if (part.fieldname === 'metadata') metadataText = part.value;
        else fields[part.fieldname] = part.value;
        continue;
      }
      const originalName = cleanFileName(part.filename);
      if (refusal || part.fieldname !== 'files') {
        await drain(part.file);
        continue;
      }
      const meter = new Meter(Math.min(limits.maxFileBytes, limits.maxTotalBytes - total));
      // Its error reaches the storage's pipeline (even one raised before the pipeline is set up).
      meter.on('error', () => undefined);
      // `pipe` passes neither an error nor a premature close on: without this the storage would
      // wait for the rest of a file that is not coming, its temp file left behind.
      let requestFailure: unknown;
      const stopWatching = whenFinished(part.file, (error) => {
        if (!error) return;
        requestFailure = error;
        meter.destroy(error);
      });
      part.file.pipe(meter);
      try {
        const stored = await storage.put(meter);
        keys.push(stored.key);
        total += stored.sizeBytes;
        files.push({ originalName, mimeType: meter.mimeType ?? 'application/octet-stream', stored });
      } catch (error) {
        part.file.unpipe(meter);
        if (requestFailure !== undefined) throw multipartFailure(requestFailure);
        await drain(part.file);
        if (error instanceof MeterLimit) {
          refusal =
            error.seen > limits.maxFileBytes
              ? new AppError('file_too_large', { file: originalName, max: megabytes(limits.maxFileBytes) })
              : new AppError('files_too_large', { max: megabytes(limits.maxTotalBytes) });
        } else if (error instanceof MeterType) {
          refusal = new AppError('file_type_not_allowed', { file: originalName });
        } else {
          throw error;
        }
      } finally {
        stopWatching();
      }
    }
    if (refusal) throw refusal;
    const entries = parseMetadata(metadataText, files.length);
    const received: ReceivedFile[] = [];
    for (const [index, file] of files.entries()) {
      let thumbnail: StoredObject | null = null;
      if (isImage(file.mimeType)) {
        let preview: Buffer;
        try {
          preview = await thumbnailOf(storage, file.stored.key);
        } catch {
          // The first bytes said image, the decoder disagrees: not an image we accept.
          throw new AppError('file_type_not_allowed', { file: file.originalName });
        }
        thumbnail = await storage.put(preview);
        keys.push(thumbnail.key);
      }
      received.push({ ...file, thumbnail, entry: entries[index] as UploadFileEntryInput });
    }
    return received;
  } catch (error) {
    await removeAll(storage, keys);
    throw error;
  }
}

/** Undoes the objects of an upload that was not recorded. */
export async function removeAll(storage: FileStorage, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => storage.remove(key).catch(() => undefined)));
}

function parseMetadata(text: string | undefined, fileCount: number): UploadFileEntryInput[] {
  if (fileCount === 0) throw new AppError('validation_error', { fields: [{ path: 'files', code: 'required' }] });
  let value: unknown;
  try {
    value = text === undefined ? undefined : JSON.parse(text);
  } catch {
    throw new AppError('validation_error', { fields: [{ path: 'metadata', code: 'invalid_value' }] });
  }
  const result = uploadMetadataSchema.safeParse(value);
  if (!result.success) {
    const fields = result.error.issues.map((issue) => ({
      path: ['metadata', ...issue.path].join('.'),
      code: isFieldCode(issue.message) ? issue.message : 'invalid_value',
    }));
    throw new AppError('validation_error', { fields });
  }
  if (result.data.length !== fileCount) {
    throw new AppError('validation_error', { fields: [{ path: 'metadata', code: 'invalid_value' }] });
  }
  return result.data;
}
