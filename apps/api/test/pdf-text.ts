import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

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
