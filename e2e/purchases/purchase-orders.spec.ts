import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../fixtures/test';
import { artifactsDir, saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders } from '../support/clinic-api';
import { createProvider, createSupply } from '../support/commercial-api';
import { settle, tag } from '../support/page';
import { pdfText } from '../support/pdf';
import { demoUsers, signInPage } from '../support/real-users';
import { checkScreen } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * A purchase order (issue 35) with the demo clinic: typed without a number, registered (the
 * clinic numbers it, OC-…), printed, e-mailed to the provider (the outbox gets the PDF), received
 * in part with a delivery note, and the order shows what is still pending per line.
 */

/** The raw mails of the root server's outbox to `to` (no SMTP_URL in the suite). */
function mailsTo(to: string): string[] {
  const runDir = process.env.ODONTIA_E2E_RUN_DIR;
  if (!runDir) throw new Error('ODONTIA_E2E_RUN_DIR is not set (run through playwright.config.ts)');
  const outbox = path.join(runDir, 'data', 'root', 'outbox');
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .map((file) => readFileSync(path.join(outbox, file), 'utf8'))
    .filter((mail) => mail.includes(to));
}

test('a purchase order is numbered, printed, sent to the provider and received in part', async ({ page, request }) => {
  test.setTimeout(150_000);
  const stamp = tag();
  const email = `pedidos-${stamp}@deposito.test`.toLowerCase();
  const provider = await createProvider(request, { email });
  const gloves = `Guantes nitrilo ${stamp}`;
  const glovesId = await createSupply(request, gloves, 0);

  await signInPage(page, demoUsers.administrator);

  // The order: no number to type; the clinic gives it when it is registered.
  await page.goto('/purchases/create');
  await page.getByTestId('provider-input').fill(provider.fantasyName);
  await page.getByTestId('provider-option').filter({ hasText: provider.fantasyName }).first().click();
  await page.getByLabel('Tipo de comprobante').selectOption('purchase_order');
  await expect(page.getByTestId('purchase-number')).toHaveCount(0);
  const first = page.getByTestId('purchase-line').nth(0);
  await first.getByTestId('line-item').fill(gloves);
  await page.getByTestId('line-item-option').filter({ hasText: gloves }).first().click();
  await first.getByTestId('line-quantity').fill('10');
  await first.getByTestId('line-price').fill('100');
  await page.getByTestId('add-line').click();
  const second = page.getByTestId('purchase-line').nth(1);
  await second.getByTestId('line-item').fill('Flete a la clínica');
  await second.getByTestId('line-quantity').fill('1');
  await second.getByTestId('line-price').fill('500');
  await page.getByTestId('register').click();
  await expect(page).toHaveURL(/\/purchases\/view\//);
  const orderUrl = page.url();
  const orderId = orderUrl.split('/').pop() as string;
  await expect(page.getByTestId('purchase-number-view')).toHaveText(/^OC-\d{8}$/);
  const number = (await page.getByTestId('purchase-number-view').innerText()).trim();
  await expect(page.getByTestId('order-status')).toHaveText('Pendiente');
  await expect(page.getByTestId('order-not-sent')).toBeVisible();

  // The PDF: its media type, its text and a picture of it to look at.
  const answer = await request.get(rootServer.url(`api/purchases/${orderId}/pdf`), {
    headers: await adminHeaders(request),
  });
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/pdf');
  const text = pdfText(path.join(artifactsDir, 'purchase-order.pdf'), await answer.body(), { resolution: 60 });
  expect(text).toContain(`Orden de compra ${number}`);
  expect(text).toContain(provider.fantasyName);
  expect(text).toContain(gloves);
  expect(text).toContain('Flete a la clínica');
  const popup = page.waitForEvent('popup');
  await page.getByTestId('order-pdf').click();
  await (await popup).close();

  // E-mail to the provider: confirmed in a dialog, the button busy while it sends.
  await page.getByTestId('order-send').click();
  const dialog = page.getByTestId('order-send-dialog');
  await expect(dialog).toContainText(email);
  await expectNoAxeViolations(page, 'send purchase order dialog');
  await dialog.getByTestId('order-send-confirm').dblclick();
  await expect(page.getByTestId('order-send-dialog')).toHaveCount(0);
  await expect(page.getByTestId('order-sends')).toContainText(email);
  await expect(page.getByTestId('order-sends').locator('li')).toHaveCount(1);
  await expect.poll(() => mailsTo(email).length).toBe(1);
  expect(mailsTo(email)[0]).toMatch(/Content-Type: application\/pdf/);

  // Receive four of the ten gloves with a delivery note (nothing of the freight yet).
  await page.getByTestId('order-receive').click();
  const receive = page.getByTestId('order-receive-dialog');
  await expect(receive.getByTestId('receive-quantity')).toHaveCount(2);
  await receive.getByTestId('receive-as-delivery_note').check();
  await receive.getByTestId('receive-quantity').nth(0).fill('11');
  await receive.getByTestId('receive-confirm').click();
  await expect(receive.getByTestId('receive-quantity').nth(0)).toHaveAttribute('aria-invalid', 'true');
  await receive.getByTestId('receive-quantity').nth(0).fill('4');
  await receive.getByTestId('receive-quantity').nth(1).fill('0');
  await checkScreen(page, 'receive purchase order dialog', 'purchase-order-receive-dialog', { fullPage: false });
  await receive.getByTestId('receive-confirm').click();
  await expect(page).toHaveURL(/\/purchases\/create\?edit=/);
  await expect(page.getByTestId('purchase-line')).toHaveCount(1);
  await page.getByTestId('purchase-number').fill(`77${stamp.slice(-4)}`);
  await page.getByTestId('register').click();
  await expect(page).toHaveURL(/\/purchases\/view\//);
  await expect(page.getByTestId('purchase-view')).toHaveAttribute('data-status', 'registered');
  await expect(page.getByTestId('moved-stock')).toHaveText('Movió stock al registrarse');

  // The order: in part received, what is pending per line.
  await page.goto(orderUrl);
  await settle(page, { spinners: true });
  await expect(page.getByTestId('order-status')).toHaveText('Recibida en parte');
  await expect(page.getByTestId('order-line-received')).toHaveText(['4', '0']);
  await expect(page.getByTestId('order-line-pending')).toHaveText(['6', '1']);
  await expect(page.getByTestId('order-receipts')).toContainText('Remito');
  await saveScreenshot(page, 'purchase-order-view-light');
  await expectNoAxeViolations(page, 'purchase order view');

  const supply = await request.get(rootServer.url(`api/supplies/${glovesId}`), {
    headers: await adminHeaders(request),
  });
  expect(((await supply.json()) as { data: { totalStock: number } }).data.totalStock).toBe(4);
});
