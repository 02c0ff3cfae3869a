import { readFileSync } from 'node:fs';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { apiSignIn, demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * Issue 42, the clinic's full export: the administrator asks for it (a double click asks once),
 * watches its progress, downloads the ZIP (its manifest and tables inside); a supervisor is
 * refused; axe in light and dark, 390 px.
 */

test('ask for the clinic export, watch its progress, download the ZIP', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1024, height: 800 });
  await signInPage(page, demoUsers.administrator);
  await page.goto('/account/export');
  await settle(page);
  const panel = page.getByTestId('clinic-export');
  await expect(panel).toBeVisible();
  await expectNoAxeViolations(page, 'Administración › Exportar todos los datos');

  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/clinic-exports')) asked.push(request.url());
  });
  await panel.getByTestId('clinic-export-request').dblclick();
  await expect(page.getByText('Exportación en preparación.', { exact: false })).toBeVisible();
  const progress = panel.getByTestId('clinic-export-progress').first();
  await expect(progress).toBeVisible();
  await saveScreenshot(page, 'clinic-export-progress-1024', { fullPage: false });
  await expect(panel.getByTestId('clinic-export-request')).toBeDisabled();
  await expectNoAxeViolations(page, 'the export in progress');
  expect(asked).toHaveLength(1);

  const download = panel.getByTestId('clinic-export-download').first();
  await expect(download).toBeVisible({ timeout: 150_000 });
  const downloading = page.waitForEvent('download');
  await download.click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^odontia-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const bytes = readFileSync((await file.path()) as string);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  const listing = bytes.toString('latin1');
  for (const entry of ['README.md', 'manifest.json', 'tables/patients.jsonl']) expect(listing).toContain(entry);
  expect(listing).not.toContain('tables/sessions.jsonl');

  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
  await expectNoAxeViolations(page, 'Exportar todos los datos, dark');
  await saveScreenshot(page, 'clinic-export-dark-1024', { fullPage: false });
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'light'));
  await page.setViewportSize({ width: 390, height: 844 });
  await settle(page);
  await expectNoAxeViolations(page, 'Exportar todos los datos at 390 px');
  await saveScreenshot(page, 'clinic-export-390');
});

test('a supervisor may not export the clinic', async ({ page }) => {
  const token = await apiSignIn(page.request, demoUsers.supervisor);
  const response = await page.request.post(rootServer.url('api/clinic-exports'), {
    headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': `e2e-${Date.now()}-export` },
  });
  expect(response.status()).toBe(403);
});
