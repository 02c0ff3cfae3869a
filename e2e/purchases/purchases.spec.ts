import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders } from '../support/clinic-api';
import { createSupply } from '../support/commercial-api';
import { settle, tag } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';
import { checkDarkThenPhone } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Purchases (issue 17) with the demo clinic (pesos): a delivery note of two supplies moves the
 * stock in, its invoice does not move it again, a credit note for one returned unit moves it out.
 * The provider comes from POST /api/providers (the providers area of the same issue).
 */

async function newProvider(request: APIRequestContext, name: string): Promise<string | null> {
  const response = await request.post(rootServer.url('api/providers'), {
    headers: await adminHeaders(request),
    data: { fantasyName: name, currency: 'argentine_peso', paymentTermDays: 30 },
  });
  if (response.status() === 404) return null;
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function stockOnPage(page: Page, supplyId: string): Promise<string> {
  await page.goto(`/supplies/edit/${supplyId}`);
  await settle(page, { spinners: true });
  return (await page.getByTestId('current-stock').innerText()).trim();
}

async function pickProvider(page: Page, name: string) {
  await page.getByTestId('provider-input').fill(name);
  await page.getByTestId('provider-option').filter({ hasText: name }).first().click();
}

async function fillLine(page: Page, index: number, item: string, quantity: string, price: string) {
  const line = page.getByTestId('purchase-line').nth(index);
  await line.getByTestId('line-item').fill(item);
  await page.getByTestId('line-item-option').filter({ hasText: item }).first().click();
  await line.getByTestId('line-quantity').fill(quantity);
  await line.getByTestId('line-price').fill(price);
}

test('a delivery note moves stock in, its invoice does not, a credit note for a returned unit moves it out', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const name = `Depósito Dental ${tag()}`;
  const providerId = await newProvider(request, name);
  test.skip(providerId === null, 'POST /api/providers arrives with the providers area');
  const stamp = tag();
  const composite = `Composite A2 ${stamp}`;
  const gloves = `Guantes nitrilo ${stamp}`;
  const compositeId = await createSupply(request, composite, 2);
  const glovesId = await createSupply(request, gloves, 2);

  await signInPage(page, demoUsers.administrator);
  const layout = new AppLayout(page);
  expect(await stockOnPage(page, compositeId)).toBe('2');

  // The delivery note of two supplies, registered at once.
  await page.goto('/purchases/create');
  await expect(layout.title).toHaveText('Nueva compra');
  await pickProvider(page, name);
  await page.getByLabel('Tipo de comprobante').selectOption('delivery_note');
  await page.getByTestId('purchase-number').fill('1001');
  await fillLine(page, 0, composite, '10', '120');
  await page.getByTestId('line-sku').first().fill(`CMP-${stamp}`);
  await page.getByTestId('add-line').click();
  await fillLine(page, 1, gloves, '4', '50');
  await expect(page.getByTestId('form-total')).toContainText('1.694,00');
  await settle(page);
  await saveScreenshot(page, 'purchases-form-light');
  await page.getByTestId('register').click();
  await expect(page).toHaveURL(/\/purchases\/view\//);
  await expect(page.getByTestId('purchase-view')).toHaveAttribute('data-status', 'registered');
  await expect(page.getByTestId('moved-stock')).toHaveText('Movió stock al registrarse');
  const noteUrl = page.url();
  expect(await stockOnPage(page, compositeId)).toBe('12');
  expect(await stockOnPage(page, glovesId)).toBe('6');
  await expect(page.getByTestId('last-cost')).toContainText('50,00');

  // Its invoice: the form opens prefilled from the delivery note; the stock stays.
  await page.goto(noteUrl);
  await page.getByTestId('view-bill').click();
  await expect(page.getByTestId('related-select')).not.toHaveValue('');
  await page.getByTestId('purchase-number').fill('2001');
  await page.getByTestId('register').click();
  await expect(page.getByTestId('purchase-view')).toHaveAttribute('data-status', 'registered');
  await expect(page.getByTestId('moved-stock')).toHaveText('No movió stock');
  await expect(page.getByTestId('view-open')).toContainText('1.694,00');
  const invoiceUrl = page.url();
  expect(await stockOnPage(page, compositeId)).toBe('12');

  // A credit note for one returned unit of composite.
  await page.goto(invoiceUrl);
  await page.getByTestId('view-credit-note').click();
  await expect(page.getByTestId('purchase-line')).toHaveCount(2);
  await page
    .getByTestId('purchase-line')
    .nth(1)
    .getByRole('button', { name: /Quitar la línea/ })
    .click();
  await page.getByTestId('purchase-line').first().getByTestId('line-quantity').fill('1');
  await page.getByTestId('returns-goods').check();
  await page.getByTestId('purchase-number').fill('3001');
  await page.getByTestId('register').click();
  await expect(page.getByTestId('purchase-view')).toHaveAttribute('data-status', 'registered');
  await expect(page.getByTestId('view-total')).toContainText('145,20');
  await expect(page.getByTestId('related-document')).toContainText('Factura');
  expect(await stockOnPage(page, compositeId)).toBe('11');

  // The invoice now owes its total less the credit note.
  await page.goto(invoiceUrl);
  await settle(page, { spinners: true });
  await expect(page.getByTestId('view-open')).toContainText('1.548,80');
  await expect(page.getByTestId('allocations')).toContainText('Nota de crédito');
  await saveScreenshot(page, 'purchases-view-light');
  await expectNoAxeViolations(page, 'purchase view (light)');

  // The list, filtered by the provider.
  await page.goto(`/purchases?providerId=${providerId}`);
  await settle(page, { spinners: true });
  await expect(page.getByTestId('purchase-row')).toHaveCount(3);
  await saveScreenshot(page, 'purchases-list-light');
  await expectNoAxeViolations(page, 'purchases list (light)');

  const list = ['list', `/purchases?providerId=${providerId}`] as const;
  const view = ['view', invoiceUrl.replace(rootServer.origin, '')] as const;
  await checkDarkThenPhone(page, 'purchases', [list, view, ['form', '/purchases/create']], [list, view]);
});
