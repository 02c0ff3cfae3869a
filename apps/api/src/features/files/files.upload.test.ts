import { describe, expect, it } from 'vitest';
import { asciiFallback } from './files.routes.ts';
import { cleanFileName } from './files.upload.ts';

describe('file names', () => {
  it('keeps the name as the user knows it, without folders or control characters', () => {
    expect(cleanFileName('C:\\Users\\ana\\Radiografía 1.png')).toBe('Radiografía 1.png');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('a\u0000b\nc.pdf')).toBe('abc.pdf');
    expect(cleanFileName('   ')).toBe('archivo');
    expect(cleanFileName(undefined)).toBe('archivo');
    const long = cleanFileName(`${'x'.repeat(300)}.jpg`);
    expect(long.length).toBe(200);
    expect(long.endsWith('.jpg')).toBe(true);
  });

  it('gives old clients a plain ASCII fallback', () => {
    expect(asciiFallback('Ñandú año "1".png')).toBe('Nandu ano _1_.png');
    expect(asciiFallback('歯の写真.jpg')).toBe('____.jpg');
  });
});
