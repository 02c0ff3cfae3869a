import path from 'node:path';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { artifactsDir, saveScreenshot } from '../support/artifacts';
import { createProvider, dayFrom, registerInvoice } from '../support/commercial-api';
import { settle } from '../support/page';
import { fetchPdf, pdfText } from '../support/pdf';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { checkScreen, screenshotAtPhoneWidth } from '../support/screens';

/*
 * Payments to providers and their current accounts (issue 17) in Chromium, in Spanish: a
 * provider of the test's own with a registered invoice of $ 1.210,00 due ten days ago; half is
 * paid by transfer (allocated by "Proponer imputación"), the current account shows the rest
 * overdue in the 1–30 days bucket, the rest is paid, and the proof of payment is printed.
 * Needs the providers' and purchases' routes (POST /api/providers, POST /api/purchases).
 */

test('pay an invoice in two parts, see the current account and its aging, print the proof', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const today = demoClinicToday();
  const provider = await createProvider(request);
  const invoice = await registerInvoice(request, {
    providerId: provider.id,
    date: dayFrom(today, -40),
    dueDate: dayFrom(today, -10),
    quantity: '2',
    unitPrice: '500',
    number: String(Date.now()).slice(-8),
  });
  expect(invoice.total).toBe('1210.00');

  await signInPage(page, demoUsers.administrator);
  const layout = new AppLayout(page);

  // Half by transfer, allocated by the proposal (oldest first).
  await page.goto(`/payments/create?providerId=${provider.id}`);
  await expect(layout.title).toHaveText('Nuevo pago');
  const form = page.getByTestId('payment-form');
  await expect(form.getByTestId('payment-provider')).toHaveValue(provider.fantasyName);
  await form.getByTestId('payment-amount').fill('605');
  await form.getByTestId('payment-method').selectOption('bank_transfer');
  await form.getByTestId('payment-transaction').fill('TRF-0001');
  await expect(form.getByTestId('allocation-row')).toHaveCount(1);
  await form.getByTestId('payment-propose').click();
  await expect(form.getByTestId('allocation-amount')).toHaveValue('605.00');
  await expect(form.getByTestId('payment-remainder')).toHaveText(/0,00/);
  await checkScreen(page, '/payments/create', 'payments-create');
  await form.getByTestId('payment-save').click();
  await expect(page).toHaveURL(/\/payments\/view\/[0-9a-f-]{36}$/);
  const first = page.getByTestId('payment-view');
  await expect(first.getByTestId('payment-number')).toHaveText(/^OP-\d{6}$/);
  await expect(first.getByTestId('payment-status')).toHaveText('Pagado');
  await expect(first.getByTestId('payment-allocations')).toContainText('Factura 0001-');
  await expect(first.getByTestId('payment-on-account')).toHaveText(/0,00/);

  // The current account: $ 605,00 owed, all of it 1–30 days overdue.
  await page.goto(`/cc-providers?q=${encodeURIComponent(provider.fantasyName)}`);
  await expect(layout.title).toHaveText('Cuenta corriente de proveedores');
  const row = page.getByTestId('account-row').filter({ hasText: provider.fantasyName });
  await expect(row.getByTestId('account-balance')).toHaveText(/605,00/);
  await expect(row.getByTestId('account-days_0_30')).toHaveText(/605,00/);
  await expect(row.getByTestId('account-current')).toHaveText(/0,00/);
  await checkScreen(page, '/cc-providers', 'cc-providers-light');
  await page.goto(`/cc-providers?q=${encodeURIComponent(provider.fantasyName)}&layout_theme=dark`);
  await expect(row.getByTestId('account-balance')).toHaveText(/605,00/);
  await checkScreen(page, '/cc-providers (dark)', 'cc-providers-dark');

  // Its ledger: the invoice, the payment, the running balance.
  await row.getByTestId('account-link').click();
  await expect(page).toHaveURL(new RegExp(`/cc-providers/${provider.id}$`));
  const ledger = page.getByTestId('provider-ledger');
  await expect(ledger.getByTestId('ledger-entry')).toHaveCount(2);
  await expect(ledger.getByTestId('ledger-entry').first()).toContainText('Factura 0001-');
  await expect(ledger.getByTestId('ledger-closing')).toHaveText(/605,00/);
  await checkScreen(page, '/cc-providers/:providerId', 'cc-provider-ledger');
  await screenshotAtPhoneWidth(page, 'cc-provider-ledger-390');

  // The rest, from the ledger's "Registrar pago".
  await ledger.getByTestId('ledger-new-payment').click();
  await expect(form.getByTestId('payment-provider')).toHaveValue(provider.fantasyName);
  await form.getByTestId('payment-amount').fill('605,00');
  await form.getByTestId('payment-transaction').fill('TRF-0002');
  await form.getByTestId('payment-propose').click();
  await expect(form.getByTestId('allocation-amount')).toHaveValue('605.00');
  await form.getByTestId('payment-save').click();
  await expect(page).toHaveURL(/\/payments\/view\/[0-9a-f-]{36}$/);
  const paymentId = page.url().split('/').at(-1) ?? '';
  await expect(page.getByTestId('payment-view')).toBeVisible();
  await checkScreen(page, '/payments/view/:paymentId', 'payment-view-light');
  await page.goto(`/payments/view/${paymentId}?layout_theme=dark`);
  await expect(page.getByTestId('payment-view')).toBeVisible();
  await checkScreen(page, '/payments/view/:paymentId (dark)', 'payment-view-dark');
  await screenshotAtPhoneWidth(page, 'payment-view-390');

  // Nothing owed any more.
  await page.goto(`/cc-providers?q=${encodeURIComponent(provider.fantasyName)}`);
  await expect(row.getByTestId('account-balance')).toHaveText(/0,00/);

  // The proof of payment: the PDF the "Imprimir comprobante" button opens, as bytes and as an image.
  const pdf = await fetchPdf(request, `api/payments/${paymentId}/proof.pdf`);
  const text = pdfText(path.join(artifactsDir, 'payment-proof.pdf'), pdf, { resolution: 70 });
  expect(text).toContain('Orden de pago / Comprobante de pago');
  expect(text).toContain(provider.fantasyName);
  expect(text).toContain('TRF-0002');
  await page.goto(`/payments/view/${paymentId}`);
  const popup = page.waitForEvent('popup');
  await page.getByTestId('payment-proof').click();
  await (await popup).close();
});

test('the payments list and an empty form at 390 px', async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/payments');
  await expect(page.getByTestId('payments-list')).toBeVisible();
  await settle(page, { spinners: true });
  await saveScreenshot(page, 'payments-list-390');
  await page.goto('/payments/create');
  await expect(page.getByTestId('payment-form')).toBeVisible();
  await settle(page);
  await saveScreenshot(page, 'payments-create-390');
  await page.goto('/cc-providers');
  await settle(page, { spinners: true });
  await saveScreenshot(page, 'cc-providers-390');
});
