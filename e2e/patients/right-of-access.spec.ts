import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { apiSignIn, demoUsers, signInPage } from '../support/real-users';

/*
 * Issue 42, the right of access in one click: from a demo patient's page the staff ask for the
 * ZIP, watch its progress, download it; the archive opens, its manifest names every entry and its
 * PDF summary (rendered to PNG for a look) names the patient. The FHIR bundle downloads too. Axe
 * clean in light and dark; screenshots at 1024 and 390 px.
 */

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
      file.readEntry();
    });
  });
}

test('the staff ask for a patient’s access ZIP, watch it progress and download it', async ({ page }) => {
  test.setTimeout(120_000);
  await signInPage(page, demoUsers.administrator);
  const token = await apiSignIn(page.request, demoUsers.administrator);
  const found = await page.request.get('api/patients?pageSize=1&sort=lastName', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const [patient] = ((await found.json()) as { data: { id: string; firstName: string; lastName: string }[] }).data;
  await page.goto(`/patients/edit/${patient?.id}`);
  await settle(page);
  const card = page.getByTestId('patient-record-export');
  await expect(card).toBeVisible();

  const fhirDownload = page.waitForEvent('download');
  await card.getByTestId('patient-fhir-export').click();
  const bundle = JSON.parse(readFileSync((await (await fhirDownload).path()) as string, 'utf8'));
  expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });

  await card.getByTestId('patient-access-export').click();
  await expect(card.getByTestId('patient-access-progress')).toBeVisible();
  await expect(card.getByTestId('patient-access-download')).toBeVisible({ timeout: 60_000 });
  await expectNoAxeViolations(page, 'right of access card', '[data-testid="patient-record-export"]');
  await saveScreenshot(page, 'right-of-access-light', { fullPage: false });

  const zipDownload = page.waitForEvent('download');
  await card.getByTestId('patient-access-download').click();
  const entries = await unzip(readFileSync((await (await zipDownload).path()) as string));
  const manifest = JSON.parse(String(entries.get('manifest.json'))) as { entries: { name: string }[] };
  expect(manifest.entries.map((entry) => entry.name)).toEqual(expect.arrayContaining(['resumen.pdf', 'cuenta.csv']));
  const dir = mkdtempSync(path.join(tmpdir(), 'odontia-access-'));
  const pdf = path.join(dir, 'resumen.pdf');
  writeFileSync(pdf, entries.get('resumen.pdf') as Buffer);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  expect(text).toContain(patient?.lastName as string);
  mkdirSync(test.info().outputDir, { recursive: true });
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '60',
    '-f',
    '1',
    '-l',
    '1',
    pdf,
    path.join(test.info().outputDir, 'resumen'),
  ]);

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
  await expectNoAxeViolations(page, 'right of access card (dark)', '[data-testid="patient-record-export"]');
  await saveScreenshot(page, 'right-of-access-dark', { fullPage: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'right-of-access-390', { fullPage: false });

  // After a reload the card still shows the archive made, ready to download again.
  await page.reload();
  await expect(card.getByTestId('patient-access-progress')).toContainText('100 %');
  await expect(card.getByTestId('patient-access-download')).toBeVisible();
});
