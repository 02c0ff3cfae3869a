import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import yauzl from 'yauzl';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { patientPhone } from '../support/portal';
import { rootServer } from '../support/servers';

/*
 * Issue 42, the right of access from the portal: a demo patient signs in, asks for a copy of their
 * data in "Copia de sus datos", watches it being prepared and downloads the ZIP; it opens, its
 * manifest's hashes match its entries and its PDF summary names the patient, with no state left
 * as an English code. Axe clean while the copy is ready; screenshots at 390 px and in dark.
 */

/** A demo patient with portal access (README). */
const jose = { email: 'jose.perez@correo.demo', password: 'sonrisa-paciente-2026' };

function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error);
      const out = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

test('a patient asks for a copy of their data in the portal and downloads the ZIP', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await patientPhone(browser);
  await page.goto(rootServer.url('p/sonrisa'));
  await page.getByLabel('Correo electrónico').fill(jose.email);
  await page.getByLabel('Contraseña').fill(jose.password);
  await page.getByLabel('Contraseña').press('Enter');
  await expect(page.getByTestId('portal-home')).toBeVisible();
  const greeting = await page.getByRole('heading', { level: 1 }).innerText();
  const firstName = greeting.replace(/^Hola,\s*/, '').trim();

  const section = page.getByTestId('portal-record-copy');
  await expect(page.getByRole('region', { name: 'Copia de sus datos' })).toBeVisible();
  await section.getByTestId('portal-record-copy-ask').click();
  await expect(section.getByTestId('portal-record-copy-progress')).toBeVisible();
  // The bar while it is prepared (it may be done before this looks), then the state alone.
  await expect(section.getByTestId('portal-record-copy-state')).toBeVisible();
  const download = section.getByTestId('portal-record-copy-download');
  await expect(download).toBeVisible({ timeout: 60_000 });
  await expect(section.getByTestId('portal-record-copy-state')).toHaveText('Su copia está lista.');
  await section.scrollIntoViewIfNeeded();
  await settle(page, { spinners: true });
  await expectNoAxeViolations(page, 'the portal home with the copy ready');
  await saveScreenshot(page, 'portal-record-copy-390', { fullPage: false });

  const saved = page.waitForEvent('download');
  await download.click();
  const file = await saved;
  expect(file.suggestedFilename()).toMatch(/^acceso-.*\.zip$/);
  const entries = await unzip(readFileSync((await file.path()) as string));
  const manifest = JSON.parse(String(entries.get('manifest.json'))) as {
    entries: { name: string; sha256: string; size: number }[];
  };
  expect(manifest.entries.map((entry) => entry.name)).toEqual(
    expect.arrayContaining(['resumen.pdf', 'paciente.fhir.json', 'cuenta.csv']),
  );
  for (const entry of manifest.entries) {
    const bytes = entries.get(entry.name) as Buffer;
    expect(createHash('sha256').update(bytes).digest('hex'), entry.name).toBe(entry.sha256);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'odontia-portal-access-'));
  const pdf = path.join(dir, 'resumen.pdf');
  writeFileSync(pdf, entries.get('resumen.pdf') as Buffer);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  expect(text).toContain('Resumen de la historia clínica');
  expect(text).toContain(firstName);
  for (const code of ['scheduled', 'completed', 'cancelled', 'rescheduled', 'active', 'resolved']) {
    expect(text, code).not.toMatch(new RegExp(`\\b${code}\\b`));
  }

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
  await expectNoAxeViolations(page, 'the copy of the data (dark)', '[data-testid="portal-record-copy"]');
  await saveScreenshot(page, 'portal-record-copy-dark-390', { fullPage: false });

  // After a reload the section still shows the copy made, and a newer one can be asked for.
  await page.reload();
  await expect(section.getByTestId('portal-record-copy-state')).toHaveText('Su copia está lista.');
  await expect(section.getByTestId('portal-record-copy-download')).toBeVisible();
  await expect(section.getByTestId('portal-record-copy-ask')).toBeEnabled();
  await page.context().close();
});
