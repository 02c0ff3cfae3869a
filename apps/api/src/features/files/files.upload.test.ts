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

  it('cuts a long name between characters as a person sees them, and drops what cannot be stored', () => {
    const family = '👩‍👩‍👧';
    const long = cleanFileName(`${family.repeat(250)}.png`);
    expect(long).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    const kept = Array.from(
      new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(long),
      (part) => part.segment,
    );
    expect(kept).toHaveLength(200);
    expect(kept.slice(0, 160).every((character) => character === family)).toBe(true);
    expect(long.endsWith(`${family}.png`)).toBe(true);
    expect(cleanFileName('informe\ud800.pdf')).toBe('informe.pdf');
    expect(cleanFileName('\udfff')).toBe('archivo');
  });

  it('gives old clients a plain ASCII fallback', () => {
    expect(asciiFallback('Ñandú año "1".png')).toBe('Nandu ano _1_.png');
    expect(asciiFallback('歯の写真.jpg')).toBe('____.jpg');
  });
});
