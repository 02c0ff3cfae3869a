import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

/**
 * A PDF's text as pdftotext lays it out (poppler-utils: .ci/run installs it, as the README's
 * test setup says), to check what a printed document says.
 */
export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'odontia-pdf-'));
  const file = path.join(dir, 'document.pdf');
  try {
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A pdfmake document's content as text, once it is seen to hold every one of `expected`. */
export function expectContent(document: { content: unknown }, expected: string[]): string {
  const text = JSON.stringify(document.content);
  for (const part of expected) expect(text).toContain(part);
  return text;
}
