import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expect, test } from '../fixtures/test';
import { artifactsDir, saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { pdfText } from '../support/pdf';
import { apiSignIn, demoClinicToday, demoUsers, openAsAdministrator, signInPage } from '../support/real-users';
import { checkScreen } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Reports (issue 19) on the demo clinic, through the screens: the catalogue, a report with its
 * period and totals (Back steps through the periods), the exports CSV (BOM, ';'), XLSX (read back
 * with exceljs) and PDF (its text), a background export with its progress bar (the e2e servers
 * answer at most 25 rows at once: playwright.config.ts), axe in light and dark, 390 px, the
 * keyboard alone, and a level without reports.read refused.
 */

const year = demoClinicToday().slice(0, 4);
const thisYear = `from=${year}-01-01&to=${demoClinicToday()}`;

interface ApiPage {
  data: { totals: Record<string, string | number>; currency: string };
  total: number;
}

/** A report's page as the API answers it to the administrator. */
async function apiReport(page: Page, reportId: string, query: string): Promise<ApiPage> {
  const token = await apiSignIn(page.request, demoUsers.administrator);
  const response = await page.request.get(rootServer.url(`api/reports/${reportId}?${query}`), {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiPage;
}

const pesos = (amount: string | number) =>
  new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS' }).format(Number(amount));

/** Clicks an export button and answers the downloaded file's name and bytes. */
async function download(page: Page, testId: string): Promise<{ name: string; bytes: Buffer }> {
  const downloading = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  const file = await downloading;
  const saved = path.join(artifactsDir, `reports-${file.suggestedFilename()}`);
  await file.saveAs(saved);
  return { name: file.suggestedFilename(), bytes: readFileSync(saved) };
}

test('a report opens from the catalogue, follows its period with the totals, and exports CSV, XLSX and PDF', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await openAsAdministrator(page, '/reports');
  const catalogue = page.getByTestId('report-catalogue');
  await expect(catalogue.getByRole('heading', { name: 'Caja y cobranzas' })).toBeVisible();
  await expect(catalogue.getByRole('heading', { name: 'Impuestos: libros IVA' })).toBeVisible();
  await expect(page.getByTestId('report-link-active-patients')).toContainText('Pacientes activos');
  await page.getByTestId('report-link-daily-cash').click();

  // This month by default; then this year, chosen from the presets.
  await expect(page).toHaveURL(/\/reports\/daily-cash$/);
  await expect(page.getByRole('heading', { name: 'Caja diaria' })).toBeVisible();
  await expect(page.getByTestId('report-preset')).toHaveValue('thisMonth');
  await page.getByTestId('report-preset').selectOption('thisYear');
  await expect(page).toHaveURL(new RegExp(`/reports/daily-cash\\?from=${year}-01-01&to=`));
  const expected = await apiReport(page, 'daily-cash', thisYear);
  expect(expected.total).toBeGreaterThan(0);
  await expect(page.getByTestId('report-row').first()).toBeVisible();
  await expect(page.getByTestId('report-total-amount')).toContainText(pesos(expected.data.totals.amount ?? 0));
  await expect(page.locator('tfoot')).toContainText(`Totales (${expected.total} fila`);

  // One payment method: fewer rows, its own total; Back returns to the whole year.
  await page.getByTestId('report-filter-method').selectOption('cash_payment');
  await expect(page).toHaveURL(/method=cash_payment/);
  const cash = await apiReport(page, 'daily-cash', `${thisYear}&method=cash_payment`);
  await expect(page.getByTestId('report-total-amount')).toContainText(pesos(cash.data.totals.amount ?? 0));
  await page.goBack();
  await expect(page).not.toHaveURL(/method=/);
  await expect(page.getByTestId('report-total-amount')).toContainText(pesos(expected.data.totals.amount ?? 0));

  // This month's daily cash is small enough to be answered at once.
  await page.getByTestId('report-preset').selectOption('thisMonth');
  const month = await apiReport(
    page,
    'daily-cash',
    `from=${year}-${demoClinicToday().slice(5, 7)}-01&to=${demoClinicToday()}`,
  );
  expect(month.total).toBeLessThanOrEqual(25);

  const csv = await download(page, 'export-csv');
  expect(csv.name).toMatch(/^daily-cash-.+\.csv$/);
  expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csv.bytes.toString('utf8').slice(1).trim().split('\r\n');
  expect(lines[0]).toBe('Día;Forma de pago;Cantidad;Importe');
  expect(lines).toHaveLength(month.total + 2);
  expect(lines.at(-1)?.split(';')).toEqual([
    'Totales',
    '',
    String(month.data.totals.count),
    // Numbers as a Spanish spreadsheet reads them (issue 35: one convention for every CSV).
    String(month.data.totals.amount).replace('.', ','),
  ]);

  const xlsx = await download(page, 'export-xlsx');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  expect(sheet?.getRow(1).values).toEqual([undefined, 'Día', 'Forma de pago', 'Cantidad', 'Importe']);
  const last = sheet?.getRow(month.total + 2);
  expect(last?.getCell(1).value).toBe('Totales');
  expect(last?.getCell(4).value).toBe(Number(month.data.totals.amount));

  const pdf = await download(page, 'export-pdf');
  const text = pdfText(path.join(artifactsDir, 'reports-daily-cash.pdf'), pdf.bytes, { resolution: 70 });
  expect(text).toContain('Caja diaria');
  expect(text).toContain('Totales');
  await expect(page.getByTestId('export-error')).toHaveCount(0);
});

test('a report larger than a direct answer is exported in the background with its progress bar', async ({ page }) => {
  test.setTimeout(90_000);
  await signInPage(page, demoUsers.administrator);
  // The candidate with the most rows this year: over the 25 answered at once.
  const candidates = ['sales-vat-book', 'daily-cash', 'stock-movements', 'purchases-vat-book'];
  const sizes = await Promise.all(candidates.map((id) => apiReport(page, id, thisYear).then((answer) => answer.total)));
  const biggest = candidates[sizes.indexOf(Math.max(...sizes))] ?? 'daily-cash';
  expect(Math.max(...sizes)).toBeGreaterThan(25);

  await page.goto(`/reports/${biggest}?${thisYear}`);
  await expect(page.getByTestId('report-row').first()).toBeVisible();
  await page.getByTestId('export-xlsx').click();
  const bar = page.getByRole('progressbar', { name: /Preparando el XLSX/ });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuenow', /^\d+$/);
  await saveScreenshot(page, 'reports-export-progress', { fullPage: false });
  const ready = page.getByTestId('export-download');
  await expect(ready).toBeVisible({ timeout: 30_000 });
  await expect(ready).toBeFocused();
  await expect(page.getByTestId('export-ready')).toContainText('Tu XLSX está listo.');
  const file = await download(page, 'export-download');
  expect(file.name).toMatch(new RegExp(`^${biggest}-.+\\.xlsx$`));
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.bytes as unknown as ArrayBuffer);
  // Other tests add sales and stock movements today while this one runs: the file holds the rows
  // there were when it was asked for, or a few more, never fewer (header and totals besides).
  const after = await apiReport(page, biggest, thisYear);
  const rowCount = workbook.worksheets[0]?.rowCount ?? 0;
  expect(rowCount).toBeGreaterThanOrEqual(Math.max(...sizes) + 2);
  expect(rowCount).toBeLessThanOrEqual(after.total + 2);
  expect(workbook.worksheets[0]?.getRow(rowCount).getCell(1).value).toBe('Totales');
});

for (const theme of ['light', 'dark'] as const) {
  test(`the catalogue and a report pass axe and are captured, ${theme}`, async ({ page }) => {
    await openAsAdministrator(page, `/reports?layout_theme=${theme}`);
    await expect(page.getByTestId('report-catalogue')).toBeVisible();
    await checkScreen(page, `/reports (${theme})`, `reports-catalogue-${theme}`);
    await page.getByTestId('report-link-sales-vat-book').click();
    // This year, not the default month: on a month's first day the month has no invoices yet.
    await page.getByTestId('report-preset').selectOption('thisYear');
    await expect(page.getByTestId('report-row').first()).toBeVisible();
    await expect(page.getByTestId('report-total-total')).toBeVisible();
    await checkScreen(page, `/reports/sales-vat-book (${theme})`, `reports-sales-vat-book-${theme}`, {
      spinners: true,
    });
    await page.getByTestId('reports-back').click();
    await page.getByTestId('report-link-sales-integrity').click();
    await expect(page.getByTestId('integrity-result')).toBeVisible();
    await expectNoAxeViolations(page, `/reports/sales-integrity (${theme})`);
    await saveScreenshot(page, `reports-sales-integrity-${theme}`);
  });
}

test('the catalogue and a report at 390 px: no horizontal scroll', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAsAdministrator(page, '/reports');
  await expect(page.getByTestId('report-catalogue')).toBeVisible();
  await settle(page);
  const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  expect(await scrollWidth()).toBeLessThanOrEqual(390);
  await saveScreenshot(page, 'reports-catalogue-390');
  await page.goto(`/reports/production-by-treatment?${thisYear}`);
  await expect(page.getByTestId('report-total-net')).toBeVisible();
  await settle(page, { spinners: true });
  expect(await scrollWidth()).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page, '/reports/production-by-treatment (390 px)');
  await saveScreenshot(page, 'reports-production-390');
});

test('every action works with the keyboard alone', async ({ page }) => {
  await openAsAdministrator(page, '/reports');
  const link = page.getByTestId('report-link-production-by-professional');
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/reports\/production-by-professional$/);
  const preset = page.getByTestId('report-preset');
  await preset.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/from=/);
  await expect(preset).toBeFocused();
  // Tab reaches the export buttons; Enter downloads.
  const csv = page.getByTestId('export-csv');
  for (let step = 0; step < 12 && !(await csv.evaluate((element) => element === document.activeElement)); step++)
    await page.keyboard.press('Tab');
  await expect(csv).toBeFocused();
  const downloading = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await downloading).suggestedFilename()).toMatch(/^production-by-professional-.+\.csv$/);
  await page.getByTestId('reports-back').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/reports$/);
});

test('a level without reports.read is refused the reports, page and API', async ({ page }) => {
  await signInPage(page, demoUsers.user);
  await page.goto('/reports/daily-cash');
  await expect(page.getByTestId('forbidden')).toBeVisible();
  await page.goto('/reports');
  await expect(page.getByTestId('forbidden')).toBeVisible();
  const token = await apiSignIn(page.request, demoUsers.user);
  const answer = await page.request.get(rootServer.url(`api/reports/daily-cash?${thisYear}`), {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.status()).toBe(403);
});
