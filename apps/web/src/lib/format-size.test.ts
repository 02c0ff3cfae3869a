import { describe, expect, it } from 'vitest';
import { formatSize, megabyte } from './format-size';

const nbsp = (text: string) => text.replace(/\s/g, ' ');

describe('one size formatter', () => {
  it('a file and the same file with a small picture read as the sum they are', () => {
    const file = 11.4 * megabyte;
    const picture = 161 * 1024;
    expect(nbsp(formatSize(file, 'es'))).toBe('11,4 MB');
    expect(nbsp(formatSize(picture, 'es'))).toBe('161 kB');
    expect(nbsp(formatSize(file + picture, 'es'))).toBe('11,6 MB');
  });

  it('limits and small files, in each language', () => {
    expect(nbsp(formatSize(10 * megabyte, 'es'))).toBe('10 MB');
    expect(nbsp(formatSize(2 * megabyte, 'fr'))).toBe('2 Mo');
    expect(nbsp(formatSize(0.5 * megabyte, 'en'))).toBe('512 kB');
    expect(nbsp(formatSize(2400, 'pt'))).toBe('2,3 kB');
  });
});
