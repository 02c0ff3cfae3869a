import type { AllowedFileMimeType } from '@odontia/shared/schemas/files';

/**
 * The type of an uploaded file, from its first bytes (magic numbers), never from its name or the
 * Content-Type the browser sent: an HTML or SVG page renamed to .png is text and answers null.
 * Four formats only, each with a fixed signature at offset 0, so no library is needed here;
 * images are then decoded by sharp for their thumbnail, which refuses a forged header.
 */
export const sniffBytes = 12;

export function detectContentType(head: Uint8Array): AllowedFileMimeType | null {
  const starts = (bytes: number[], offset = 0) =>
    head.length >= offset + bytes.length && bytes.every((byte, index) => head[offset + index] === byte);
  const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(ascii('RIFF')) && starts(ascii('WEBP'), 8)) return 'image/webp';
  if (starts(ascii('%PDF-'))) return 'application/pdf';
  return null;
}

export function isImage(mimeType: string): boolean {
  return mimeType.startsWith('image/');
}
