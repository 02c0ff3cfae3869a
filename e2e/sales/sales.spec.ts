import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { artifactsDir, saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, createPatient } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { fetchPdf, pdfText } from '../support/pdf';
import { pickCustomer } from '../support/pickers';
import { demoUsers, signInPage } from '../support/real-users';
import { checkDarkThenPhone, checkScreen } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Sales (issue 18) with the demo clinic (pesos, point of sale 0001): an invoice on current
 * account to a patient of the test's own, a cash invoice collected at once, a credit note that
 * corrects the first one, its PDF, the integrity report; axe and screenshots in light, dark and 390 px.
 */

async function fillLine(page: Page, concept: string, tooth: string, price: string) {
  const line = page.getByTestId('sale-line').first();
  await line.getByTestId('line-concept').fill(concept);
  await line.getByTestId('line-tooth').fill(tooth);
  await line.getByTestId('line-quantity').fill('1');
  await line.getByTestId('line-price').fill(price);
  await line.getByTestId('line-vat').fill('21');
}

test('invoice on current account, cash invoice, credit note, PDF and the integrity report', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const lastName = `Salvatierra ${tag()}`;
  await createPatient(request, { firstName: 'Mirta', lastName, sex: 'female', birthdate: '1980-05-04' });
  await signInPage(page, demoUsers.administrator);
  const layout = new AppLayout(page);

  // An invoice on current account, issued from the form.
  await page.goto('/sales/create');
  await expect(layout.title).toHaveText('Nueva venta');
  await pickCustomer(page, lastName);
  await expect(page.getByTestId('customer-balance')).toBeVisible();
  await fillLine(page, 'Limpieza dental con ultrasonido', '16', '1000');
  await expect(page.getByTestId('form-total')).toContainText('1.210,00');
  // Issue 35: who did the line, chosen from the keyboard: Tab from the VAT reaches its select.
  const firstLine = page.getByTestId('sale-line').first();
  await firstLine.getByTestId('line-vat').focus();
  await page.keyboard.press('Tab');
  const professional = firstLine.getByTestId('line-professional');
  await expect(professional).toBeFocused();
  await expect(professional).toHaveAccessibleName('Profesional');
  await expect(professional.locator('option:checked')).toHaveText('Sin profesional');
  await professional.selectOption({ label: 'Martín Sosa' });
  await checkScreen(page, 'sale form (light)', 'sales-form-light');
  await page.getByTestId('issue').click();
  await expect(page).toHaveURL(/\/sales\/view\//);
  await expect(page.getByTestId('sale-view')).toHaveAttribute('data-status', 'issued');
  await expect(page.getByTestId('sale-number')).toHaveText(/^0001-\d{8}$/);
  await expect(page.getByTestId('view-open')).toContainText('1.210,00');
  await expect(page.getByTestId('sale-hash')).toHaveText(/^[0-9a-f]{16}…$/);
  await expect(page.getByTestId('line-professional-name')).toHaveText('Profesional: Martín Sosa');
  const invoiceUrl = page.url();
  const invoiceId = invoiceUrl.split('/').at(-1) ?? '';

  // A cash invoice: collected when issued.
  await page.goto('/sales/create');
  await pickCustomer(page, lastName);
  await page.getByTestId('sale-condition').selectOption('cash');
  await fillLine(page, 'Radiografía periapical', '', '200');
  await page.getByTestId('issue').click();
  await expect(page.getByTestId('sale-view')).toHaveAttribute('data-status', 'issued');
  await expect(page.getByTestId('view-open')).toContainText('0,00');
  await expect(page.getByTestId('allocations')).toContainText(/Cobro RC-\d{6}/);

  // A credit note of the first invoice: a draft with its lines, issued from the form.
  await page.goto(invoiceUrl);
  await page.getByTestId('view-credit-note').click();
  await expect(page).toHaveURL(/\/sales\/create\?edit=/);
  await expect(page.getByTestId('sale-line')).toHaveCount(1);
  await expect(page.getByTestId('line-professional').locator('option:checked')).toHaveText('Martín Sosa');
  await page.getByTestId('issue').click();
  await expect(page.getByTestId('sale-view')).toHaveAttribute('data-status', 'issued');
  await expect(page.getByTestId('related-document')).toContainText('Factura');
  await page.goto(invoiceUrl);
  await settle(page, { spinners: true });
  await expect(page.getByTestId('view-open')).toContainText('0,00');
  await expect(page.getByTestId('allocations')).toContainText('Nota de crédito');
  await saveScreenshot(page, 'sales-view-light');
  await expectNoAxeViolations(page, 'sale view (light)');

  // The PDF: bytes, text and an image; the button opens it in a new tab.
  const pdf = await fetchPdf(request, `api/sales/${invoiceId}/pdf`);
  const text = pdfText(path.join(artifactsDir, 'sale-invoice.pdf'), pdf, { resolution: 60 });
  expect(text).toContain('Factura 0001-');
  expect(text).toContain(lastName);
  expect(text).toContain('Limpieza dental con ultrasonido');
  expect(text).toContain('Profesional: Martín Sosa');
  const popup = page.waitForEvent('popup');
  await page.getByTestId('sale-pdf').click();
  await (await popup).close();

  // The list, filtered by the patient through the customer picker.
  await page.goto('/sales');
  await expect(layout.title).toHaveText('Ventas');
  await pickCustomer(page, lastName);
  await expect(page.getByTestId('sale-row')).toHaveCount(3);
  await checkScreen(page, 'sales list (light)', 'sales-list-light', { spinners: true });
  const listUrl = page.url().replace(rootServer.origin, '');

  // The integrity report, linked from the list.
  await page.getByTestId('sale-integrity-link').click();
  await expect(layout.title).toHaveText('Integridad de la numeración');
  await expect(page.getByTestId('integrity-result')).toHaveAttribute('data-ok', 'true');
  await checkScreen(page, 'sales integrity (light)', 'sales-integrity-light', { spinners: true });

  const screens = [
    ['list', listUrl],
    ['view', invoiceUrl.replace(rootServer.origin, '')],
    ['form', '/sales/create'],
  ] as const;
  await checkDarkThenPhone(page, 'sales', [...screens, ['integrity', '/sales/integrity']], screens);
});

test('a budget of a patient takes its lines from the odontogram: a tooth with findings and a treatment', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const lastName = `Odontograma ${tag()}`;
  const patientId = await createPatient(request, {
    firstName: 'Ramiro',
    lastName,
    sex: 'male',
    birthdate: '1979-02-11',
  });
  const charted = await request.post(rootServer.url(`api/patients/${patientId}/odontogram/entries`), {
    headers: await adminHeaders(request),
    data: { marks: [{ tooth: 36, zone: 'occlusal', status: 'caries' }] },
  });
  expect(charted.status(), await charted.text()).toBe(201);
  await signInPage(page, demoUsers.administrator);
  await page.goto('/sales/create');
  await pickCustomer(page, lastName);
  await page.getByTestId('sale-type-select').selectOption('budget');
  const picker = page.getByTestId('odontogram-lines');
  await expect(picker.getByTestId('odontogram-tooth').locator('option', { hasText: '36 — Caries' })).toHaveCount(1);
  await picker.getByTestId('odontogram-tooth').selectOption('36');
  await picker.getByTestId('odontogram-treatment').fill('Empaste');
  await page.getByTestId('odontogram-treatment-option').filter({ hasText: 'Empaste' }).first().click();
  await picker.getByTestId('odontogram-add').click();
  const line = page.getByTestId('sale-line');
  await expect(line).toHaveCount(1);
  await expect(line.getByTestId('line-tooth')).toHaveValue('36');
  await expect(line.getByTestId('line-concept')).toHaveValue('Empaste');
  await expect(line.getByTestId('line-from-list')).toBeVisible();
  await checkScreen(page, 'sale form with the odontogram picker', 'sales-budget-odontogram-light');
  await page.getByTestId('line-price').fill('15000');
  await page.getByTestId('save-draft').click();
  await expect(page.getByTestId('sale-view')).toHaveAttribute('data-status', 'draft');
  await expect(page.getByTestId('view-line')).toContainText('36');
});
