import { createHash } from 'node:crypto';
import { signatureLimits } from '@odontia/shared/schemas/authorizations';
import { PNG } from 'pngjs';
import { invalidFields } from '../clinical/clinical.service.ts';

/**
 * The signature image of an authorization and the hash that seals what was signed (issue 6).
 *
 * Hash: SHA-256, hex, over the byte sequence
 *
 *     UTF-8(signed text) ‖ 0x00 ‖ PNG file bytes
 *
 * The signed text never contains a NUL (validation trims; a NUL would be refused by PostgreSQL's
 * text anyway), so the 0x00 separates the two parts without ambiguity. Anyone holding the text and
 * the PNG can recompute it, e.g. `(printf '%s\0' "$text"; cat firma.png) | sha256sum`.
 */
export function signatureHash(signedText: string, png: Buffer): string {
  return createHash('sha256').update(Buffer.from(signedText, 'utf8')).update(Buffer.of(0)).update(png).digest('hex');
}

const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const dataUrlPrefix = /^data:image\/png;base64,/i;
const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;

/** The field error of a refused signature (400 validation_error on `signature`). */
const refuse = (code: 'required' | 'invalid_format' | 'too_big' | 'too_small') =>
  invalidFields([{ path: 'signature', code }]);

/**
 * The PNG bytes of a signature sent as base64 (a data: URL or bare), checked: it really is a PNG
 * (the signature bytes, then a full decode with every chunk's CRC), at most 512 KiB, between
 * 50×20 and 4000×2000 pixels, and not blank (at least a few dozen dark, visible pixels: an empty
 * pad, transparent or white, is refused as `required`).
 */
export function decodeSignature(value: string): Buffer {
  const base64 = value.trim().replace(dataUrlPrefix, '').replace(/\s+/g, '');
  if (base64 === '') throw refuse('required');
  if (!base64Pattern.test(base64) || base64.length % 4 === 1) throw refuse('invalid_format');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > signatureLimits.maxBytes) throw refuse('too_big');
  if (bytes.length < pngMagic.length || !bytes.subarray(0, pngMagic.length).equals(pngMagic)) {
    throw refuse('invalid_format');
  }
  // The header gives the size before anything is inflated: a decompression bomb is refused here.
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') throw refuse('invalid_format');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width > signatureLimits.maxWidth || height > signatureLimits.maxHeight) throw refuse('too_big');
  if (width < signatureLimits.minWidth || height < signatureLimits.minHeight) throw refuse('too_small');
  let image: PNG;
  try {
    image = PNG.sync.read(bytes, { checkCRC: true });
  } catch {
    throw refuse('invalid_format');
  }
  if (inkPixels(image) < signatureLimits.minInkPixels) throw refuse('required');
  return bytes;
}

/** Pixels a person would see as ink: mostly opaque and darker than light grey (RGBA, as pngjs decodes). */
function inkPixels(image: PNG): number {
  const { data } = image;
  let ink = 0;
  for (let offset = 0; offset < data.length; offset += 4) {
    const alpha = data[offset + 3] ?? 0;
    if (alpha < 128) continue;
    const luminance =
      ((data[offset] ?? 0) * 299 + (data[offset + 1] ?? 0) * 587 + (data[offset + 2] ?? 0) * 114) / 1000;
    if (luminance < 200) {
      ink += 1;
      if (ink >= signatureLimits.minInkPixels) return ink;
    }
  }
  return ink;
}

/** The stored PNG as a data: URL for the web page. */
export const pngDataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;
