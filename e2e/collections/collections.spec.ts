import path from 'node:path';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { artifactsDir } from '../support/artifacts';
import { adminHeaders, apiCreate, createPatient } from '../support/clinic-api';
import { dayFrom } from '../support/commercial-api';
import { tag } from '../support/page';
import { fetchPdf, pdfText } from '../support/pdf';
import { pickCustomer } from '../support/pickers';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { checkScreen, screenshotAtPhoneWidth } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Collections and customers' current accounts (issue 18) in Chromium, in Spanish. A patient of the
 * test's own pays on account (nothing billed yet) in cash and by card, the card one is reversed;
 * the customer's current account, its ledger and the medical history's badge show the $ 3.000,00
 * in the patient's favour; the receipt prints. The second test collects an invoice in two parts
 * (cash, then card) and needs the sales API (POST /api/sales with `issue: true`, branch h2-sales):
 * it is skipped until that route exists.
 */

test('collect on account in cash and by card, reverse one, see the current account and the patient balance', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const lastName = `Cobranza ${tag()}`;
  const patientId = await createPatient(request, {
    firstName: 'Lucía',
    lastName,
    sex: 'female',
    birthdate: '1988-04-12',
  });
  const name = `${lastName}, Lucía`;
  await signInPage(page, demoUsers.administrator);
  const layout = new AppLayout(page);

  // Cash, on account (the patient was never billed).
  await page.goto('/collections/create');
  await expect(layout.title).toHaveText('Nueva cobranza');
  const form = page.getByTestId('collection-form');
  await pickCustomer(page, lastName);
  await expect(form.getByTestId('collection-open-documents')).toContainText('la cobranza queda a cuenta');
  await form.getByTestId('collection-amount').fill('3000');
  await form.getByTestId('collection-method').selectOption('cash_payment');
  await expect(form.getByTestId('collection-remainder')).toHaveText(/3\.000,00/);
  await checkScreen(page, '/collections/create', 'collections-create');
  await form.getByTestId('collection-save').click();
  await expect(page).toHaveURL(/\/collections\/view\/[0-9a-f-]{36}$/);
  const view = page.getByTestId('collection-view');
  await expect(view.getByTestId('collection-number')).toHaveText(/^RC-\d{6}$/);
  await expect(view.getByTestId('collection-status')).toHaveText('Cobrado');
  await expect(view.getByTestId('collection-on-account')).toHaveText(/3\.000,00/);
  const cashId = page.url().split('/').at(-1) ?? '';

  // By card, then reversed with a reason (as the administrator: commercial.delete).
  await page.goto('/collections/create');
  await pickCustomer(page, lastName);
  await form.getByTestId('collection-amount').fill('2000,50');
  await form.getByTestId('collection-method').selectOption('credit_card');
  await form.getByTestId('collection-transaction').fill('POS-7788');
  await form.getByTestId('collection-save').click();
  await expect(page).toHaveURL(/\/collections\/view\/[0-9a-f-]{36}$/);
  await expect(view.getByTestId('collection-status')).toHaveText('Cobrado');
  await view.getByTestId('collection-reverse-open').click();
  await page.getByTestId('collection-reverse-reason').fill('Cargo duplicado en el posnet');
  await page.getByTestId('collection-reverse-save').click();
  await expect(view.getByTestId('collection-status')).toHaveText('Anulado');
  await expect(view.getByTestId('collection-reversed')).toContainText('Cargo duplicado en el posnet');
  await checkScreen(page, '/collections/view/:collectionId', 'collection-view-light');
  await page.goto(`${new URL(page.url()).pathname}?layout_theme=dark`);
  await expect(view.getByTestId('collection-status')).toHaveText('Anulado');
  await checkScreen(page, '/collections/view/:collectionId (dark)', 'collection-view-dark');
  await screenshotAtPhoneWidth(page, 'collection-view-390');

  // The list: both, the reversed one marked.
  await page.goto(`/collections?q=${encodeURIComponent(lastName)}`);
  await expect(layout.title).toHaveText('Cobranzas');
  await expect(page.getByTestId('collection-row')).toHaveCount(2);
  await expect(page.getByTestId('collection-status').filter({ hasText: 'Anulado' })).toHaveCount(1);
  await checkScreen(page, '/collections', 'collections-list');

  // The customers' current accounts: $ 3.000,00 in the patient's favour, on account.
  await page.goto(`/cc-customers?q=${encodeURIComponent(lastName)}&layout_theme=light`);
  await expect(layout.title).toHaveText('Cuenta corriente de clientes');
  const row = page.getByTestId('account-row').filter({ hasText: name });
  await expect(row.getByTestId('account-balance')).toHaveText(/^-.*3\.000,00$/);
  await checkScreen(page, '/cc-customers', 'cc-customers-light');
  await page.goto(`/cc-customers?q=${encodeURIComponent(lastName)}&layout_theme=dark`);
  await expect(row.getByTestId('account-balance')).toBeVisible();
  await checkScreen(page, '/cc-customers (dark)', 'cc-customers-dark');
  await screenshotAtPhoneWidth(page, 'cc-customers-390');

  // Its ledger: two collections and a reversal, closing at −3.000,00.
  await row.getByTestId('account-link').click();
  await expect(page).toHaveURL(/\/cc-customers\/[0-9a-f-]{36}$/);
  const ledger = page.getByTestId('customer-ledger');
  await expect(ledger.getByTestId('ledger-entry')).toHaveCount(3);
  await expect(ledger.getByTestId('ledger-entry').filter({ hasText: 'Anulación del cobro' })).toHaveCount(1);
  await expect(ledger.getByTestId('ledger-closing')).toHaveText(/3\.000,00/);
  await checkScreen(page, '/cc-customers/:customerId', 'cc-customer-ledger');
  await screenshotAtPhoneWidth(page, 'cc-customer-ledger-390');

  // The medical history's header: the balance in the patient's favour, linking to the ledger.
  await page.goto(`/patients/${patientId}/mh`);
  const badge = page.getByTestId('patient-balance');
  await expect(badge).toContainText('A favor');
  await expect(badge).toContainText('3.000,00');
  await checkScreen(page, '/patients/:patientId/mh (balance badge)', 'patient-balance-badge', { fullPage: false });
  await badge.click();
  await expect(page).toHaveURL(/\/cc-customers\/[0-9a-f-]{36}$/);

  // The receipt of the cash collection, as bytes, text and an image.
  const pdf = await fetchPdf(request, `api/collections/${cashId}/receipt`);
  const text = pdfText(path.join(artifactsDir, 'collection-receipt.pdf'), pdf, { resolution: 70 });
  expect(text).toContain('Recibo de cobro');
  expect(text).toContain(name);
  expect(text).toContain('Efectivo');
  await page.goto(`/collections/view/${cashId}`);
  const popup = page.waitForEvent('popup');
  await page.getByTestId('collection-receipt').click();
  await (await popup).close();
});

test('collect an invoice in two parts, cash then card, allocated oldest first', async ({ page, request }) => {
  test.setTimeout(120_000);
  const headers = await adminHeaders(request);
  const probe = await request.get(rootServer.url('api/sales?pageSize=1'), { headers });
  test.skip(probe.status() === 404, 'needs the sales API (branch h2-sales)');
  const today = demoClinicToday();
  const lastName = `Factura ${tag()}`;
  const patientId = await createPatient(request, {
    firstName: 'Mateo',
    lastName,
    sex: 'male',
    birthdate: '1979-09-30',
  });
  // A point of sale of its own: an invoice dated 20 days ago cannot be issued after the later
  // ones other tests issue on the demo's 0001 (issue 35: dates in number order per series).
  const pointOfSale = await apiCreate<{ code: string }>(request, 'api/points-of-sale', {
    code: String(10000 + Math.floor(Math.random() * 89999)),
    name: `Caja ${lastName}`,
  });
  const invoice = await apiCreate<{ id: string; total: string }>(request, 'api/sales', {
    documentType: 'invoice',
    patientId,
    pointOfService: pointOfSale.code,
    date: dayFrom(today, -20),
    dueDate: dayFrom(today, -5),
    currency: 'argentine_peso',
    conditionSale: 'current_account',
    lines: [{ description: 'Endodoncia unirradicular', quantity: '1', unitPrice: '50000', vatRate: '0' }],
    issue: true,
  });
  expect(invoice.total).toBe('50000.00');

  await signInPage(page, demoUsers.administrator);
  const form = page.getByTestId('collection-form');
  const view = page.getByTestId('collection-view');
  // Cash: 20.000, allocated by the proposal.
  await page.goto('/collections/create');
  await pickCustomer(page, lastName);
  await expect(form.getByTestId('allocation-row')).toHaveCount(1);
  await form.getByTestId('collection-amount').fill('20000');
  await form.getByTestId('collection-propose').click();
  await expect(form.getByTestId('allocation-amount')).toHaveValue('20000.00');
  await expect(form.getByTestId('collection-remainder')).toHaveText(/0,00/);
  await form.getByTestId('collection-save').click();
  await expect(view.getByTestId('collection-allocations')).toContainText(`Factura ${pointOfSale.code}-`);
  // Card: the rest, proposed from what is owed.
  await page.goto('/collections/create');
  await pickCustomer(page, lastName);
  await form.getByTestId('collection-method').selectOption('debit_card');
  await form.getByTestId('collection-propose').click();
  await expect(form.getByTestId('collection-amount')).toHaveValue('30000.00');
  await form.getByTestId('collection-save').click();
  await expect(view.getByTestId('collection-on-account')).toHaveText(/0,00/);
  await page.goto(`/patients/${patientId}/mh`);
  await expect(page.getByTestId('patient-balance')).toHaveText(/Al día/);
});

test('one collection split across cash and card: one receipt with both, counted under each method', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const lastName = `Dividido ${tag()}`;
  await createPatient(request, { firstName: 'Inés', lastName, sex: 'female', birthdate: '1990-02-11' });
  // A day of its own, long before the demo's collections: the report of that day is this collection's.
  const day = dayFrom(demoClinicToday(), -200 - Math.floor(Math.random() * 100));
  await signInPage(page, demoUsers.administrator);
  const form = page.getByTestId('collection-form');
  await page.goto('/collections/create');
  await pickCustomer(page, lastName);
  await form.getByLabel('Fecha', { exact: true }).fill(day);
  await form.getByTestId('collection-amount').fill('20.000,50');
  await form.getByTestId('collection-method').selectOption('cash_payment');

  // Split from the keyboard: the button, then each part's method, amount and operation number.
  await form.getByTestId('collection-split').focus();
  await page.keyboard.press('Enter');
  const parts = form.getByTestId('collection-part');
  await expect(parts).toHaveCount(2);
  await expect(form.getByTestId('collection-method')).toHaveCount(0);
  await expect(parts.nth(0).getByTestId('collection-part-amount')).toHaveValue('20.000,50');
  await parts.nth(0).getByLabel('Importe 1').fill('12.500,50');
  await expect(form.getByTestId('collection-parts-left')).toHaveText(/Falta asignar: \$\s?7\.500,00/);
  await expect(parts.nth(1).getByLabel('Forma de pago 2')).toHaveValue('credit_card');
  await parts.nth(1).getByLabel('Importe 2').focus();
  await page.keyboard.type('7.500');
  await page.keyboard.press('Tab');
  await page.keyboard.type('POS-5521');
  await expect(form.getByTestId('collection-parts-left')).toHaveText(/Falta asignar: \$\s?0,00/);
  // A third part and its removal: the remaining amount follows.
  await form.getByTestId('collection-part-add').click();
  await expect(parts).toHaveCount(3);
  await parts.nth(2).getByLabel('Importe 3').fill('1');
  await expect(form.getByTestId('collection-parts-left')).toHaveText(/superan el importe en \$\s?1,00/);
  await parts.nth(2).getByRole('button', { name: 'Quitar forma 3' }).click();
  await expect(parts).toHaveCount(2);
  await checkScreen(page, '/collections/create (split)', 'collections-create-split');
  await form.getByTestId('collection-save').click();

  await expect(page).toHaveURL(/\/collections\/view\/[0-9a-f-]{36}$/);
  const view = page.getByTestId('collection-view');
  await expect(view.getByTestId('collection-number')).toHaveText(/^RC-\d{6}$/);
  const number = (await view.getByTestId('collection-number').textContent()) ?? '';
  await expect(view.getByTestId('collection-amount-view')).toContainText('20.000,50');
  await expect(view.getByTestId('collection-part')).toHaveText([
    /^Efectivo: \$\s?12\.500,50$/,
    /^Tarjeta de crédito: \$\s?7\.500,00 · N\.º de operación POS-5521$/,
  ]);
  await checkScreen(page, '/collections/view/:collectionId (split)', 'collection-view-split');
  const collectionId = page.url().split('/').at(-1) ?? '';

  // One receipt, listing both parts.
  const receipt = await request.get(rootServer.url(`api/collections/${collectionId}/receipt`), {
    headers: await adminHeaders(request),
  });
  expect(receipt.status()).toBe(200);
  const text = pdfText(path.join(artifactsDir, 'collection-receipt-split.pdf'), await receipt.body(), {
    resolution: 70,
  });
  expect(text).toContain(number);
  expect(text).toContain('Efectivo');
  expect(text).toContain('Tarjeta de crédito');
  expect(text).toContain('POS-5521');
  expect(text).toContain('12.500,50');
  expect(text).toContain('7.500,00');

  // Collections by method: each part under its own method, that day.
  await page.goto(`/reports/daily-cash?from=${day}&to=${day}`);
  const rows = page.getByTestId('report-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Efectivo' })).toContainText('12.500,50');
  await expect(rows.filter({ hasText: 'Tarjeta de crédito' })).toContainText('7.500,00');
  await expect(page.getByTestId('report-total-amount')).toContainText('20.000,50');
  await checkScreen(page, '/reports/daily-cash (split collection)', 'reports-daily-cash-split', { spinners: true });
});
