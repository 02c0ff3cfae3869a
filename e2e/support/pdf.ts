import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import { adminHeaders } from './clinic-api';
import { rootServer } from './servers';

/**
 * Keeps a printed PDF at `file` and answers its text as pdftotext lays it out; with `png`, its
 * first page is also rendered beside it (`<name>.png`) to be looked at. poppler-utils is required
 * (.ci/run installs it): without it the check fails rather than passing unread.
 */
export function pdfText(file: string, pdf: Buffer, png?: { resolution: number }): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, pdf);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  if (png) {
    const args = ['-png', '-r', String(png.resolution), '-f', '1', '-l', '1', '-singlefile'];
    execFileSync('pdftoppm', [...args, file, file.replace(/\.pdf$/, '')]);
  }
  return text;
}

/** GET `apiPath` (e.g. 'api/sales/<id>/pdf') as the administrator: a PDF, answered as its bytes. */
export async function fetchPdf(request: APIRequestContext, apiPath: string): Promise<Buffer> {
  const answer = await request.get(rootServer.url(apiPath), { headers: await adminHeaders(request) });
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/pdf');
  const pdf = await answer.body();
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  return pdf;
}
