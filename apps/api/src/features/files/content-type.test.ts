import { describe, expect, it } from 'vitest';
import { detectContentType } from './content-type.ts';

describe('detectContentType', () => {
  it('recognises JPEG, PNG, WebP and PDF by their first bytes', () => {
    expect(detectContentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(detectContentType(Buffer.from('89504e470d0a1a0a0000000d', 'hex'))).toBe('image/png');
    expect(detectContentType(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(detectContentType(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
  });

  it('refuses text and other formats whatever their name', () => {
    expect(detectContentType(Buffer.from('<!doctype html><script>'))).toBeNull();
    expect(detectContentType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(detectContentType(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBeNull();
    expect(detectContentType(Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'))).toBeNull();
    expect(detectContentType(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(detectContentType(Buffer.alloc(0))).toBeNull();
  });
});
