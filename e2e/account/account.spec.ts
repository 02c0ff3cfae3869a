import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { artifactsDir, captureScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders } from '../support/clinic-api';
import { settle } from '../support/page';
import { pdfText } from '../support/pdf';
import { demoUsers, signInPage } from '../support/real-users';
import { openAtPhoneWidth } from '../support/screens';

/*
 * /account against the real server with the demo clinic (issue 19; the e2e servers configure
 * the `basic` and `pro` plans): the administrator sees the plan with its limits and usage, the
 * contract's period and due date and five months of movements; renews (with its confirmation),
 * the pending renewal order appears first in the movements and its PDF downloads; the billing
 * form saves. The banner of a clinic in its grace period or read-only is shown from the profile
 * (answered as overdue here: the server's own state is proven by the API's integration tests).
 * Axe and screenshots in light, dark and at 390 px.
 */

test.describe.configure({ mode: 'serial' });

test('the administrator sees the account, renews, and downloads the renewal order', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(60_000);
  await signInPage(page, demoUsers.administrator);
  await page.goto('/account');
  await settle(page, { spinners: true });
  await expect(page).toHaveTitle(/Datos de la cuenta/);

  const plan = page.getByTestId('account-plan');
  await expect(plan.getByTestId('account-plan-name')).toHaveText('Básico');
  await expect(plan).toContainText('45.000,00');
  // The demo's three professionals and the staff other specs invite on the same server.
  await expect(plan.getByTestId('account-usage-professionals')).toHaveText(/^\d+ de 100$/);
  await expect(plan.getByTestId('account-state')).toHaveText('Activa');
  await expect(plan.getByTestId('account-due-date')).not.toHaveText('Sin vencimiento');
  const rows = page.getByTestId('movement-row');
  await expect(rows).toHaveCount(10);
  await expect(page.getByTestId('account-links-users')).toHaveAttribute('href', '/account/users');
  await expect(page.getByTestId('account-links-settings')).toHaveAttribute('href', '/settings');

  // Renew: a confirmation first; cancelling records nothing.
  await plan.getByTestId('account-renew').click();
  let dialog = page.getByRole('dialog', { name: 'Renovar el plan' });
  await expect(dialog).toContainText('Básico');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();
  await plan.getByTestId('account-renew').click();
  dialog = page.getByRole('dialog', { name: 'Renovar el plan' });
  // The contracted plan is chosen; another one of the installation can be.
  const choice = dialog.getByLabel('Plan', { exact: true });
  await expect(choice).toHaveValue('basic');
  await choice.selectOption('pro');
  await expect(dialog).toContainText('Profesional por 450.000,00 ARS (12 meses)');
  await choice.selectOption('basic');
  await expect(dialog).toContainText('Básico por 45.000,00 ARS (un mes)');
  await expectNoAxeViolations(page, '/account (renew dialog)');
  await dialog.getByTestId('renew-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Renovación pedida: la clínica puede seguir trabajando')).toBeVisible();
  await expect(plan.getByTestId('account-pending-renewal')).toContainText(/RN-\d{8}-[0-9A-F]{6}/);
  // Issue 35: a transfer is asked for with the account to make it to, one item per line.
  await expect(plan.getByTestId('transfer-details')).toContainText('CBU: 0170099220000067797370');
  await expect(plan.getByTestId('account-renew')).toHaveCount(0);

  // The order is the newest movement, pending; its PDF downloads.
  const first = rows.first();
  await expect(first).toHaveAttribute('data-kind', 'renewal_order');
  await expect(first).toHaveAttribute('data-status', 'pending');
  await expect(first).toContainText('Orden de renovación');
  const reference = (await first.locator('td').nth(2).textContent()) ?? '';
  expect(reference).toMatch(/^RN-/);
  const [pdfResponse] = await Promise.all([
    page.waitForResponse((response) => /\/api\/account\/movements\/[0-9a-f-]{36}\/pdf$/.test(response.url())),
    first.getByTestId('movement-pdf').click(),
  ]);
  expect(pdfResponse.status()).toBe(200);
  expect(pdfResponse.headers()['content-type']).toBe('application/pdf');
  // The browser read it as a blob for the new tab: the same document again, as bytes.
  const again = await request.get(pdfResponse.url(), { headers: await adminHeaders(request) });
  expect(again.status()).toBe(200);
  const pdf = await again.body();
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(path.join(artifactsDir, 'account-renewal-order.pdf'), pdf, { resolution: 70 });
  expect(text).toContain('Orden de renovación');
  expect(text).toContain(reference.trim());
  expect(text).toContain('Básico');
  await captureScreenshot(page, testInfo, 'account-renewed', { fullPage: false, animations: 'allow' });
});

test('the billing data save, billed to other data than the fiscal ones', async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await page.goto('/account');
  await settle(page, { spinners: true });
  const form = page.getByTestId('billing-form');
  await form.getByLabel('Facturar con los datos fiscales de la clínica').uncheck();
  await form.getByLabel('Razón social').fill('Sonrisa Grupo Odontológico SRL');
  await form.getByLabel('Correo de facturación').fill('no-es-un-correo');
  await form.getByTestId('billing-save').click();
  await expect(form.getByLabel('Correo de facturación')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Correo de facturación').fill('facturas@sonrisa.demo');
  await form.getByTestId('billing-save').click();
  await expect(page.getByText('Datos de facturación guardados.')).toBeVisible();
  await page.reload();
  await settle(page, { spinners: true });
  await expect(page.getByTestId('billing-form').getByLabel('Razón social')).toHaveValue(
    'Sonrisa Grupo Odontológico SRL',
  );
});

for (const theme of ['light', 'dark'] as const) {
  test(`the page passes axe and is captured, ${theme}`, async ({ page }, testInfo) => {
    await signInPage(page, demoUsers.administrator);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/account?layout_theme=${theme}`);
    await settle(page, { spinners: true });
    await expect(page.getByTestId('movement-row').first()).toBeVisible();
    await expectNoAxeViolations(page, `/account (${theme})`);
    await captureScreenshot(page, testInfo, `account-${theme}`);
  });
}

test('the page at 390 px', async ({ page }, testInfo) => {
  await signInPage(page, demoUsers.administrator);
  await openAtPhoneWidth(page, '/account');
  await captureScreenshot(page, testInfo, 'account-390');
});

/** Answers the real profile as if the clinic were overdue (`state`), 12 days past its due date. */
async function overdueProfile(page: Page, state: 'grace' | 'read_only') {
  await page.route('**/api/auth/system/me', async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    const body = await response.json();
    const due = Date.now() - 12 * 86_400_000;
    body.data.account = {
      ...body.data.account,
      contractState: state,
      planEndsAt: new Date(due).toISOString(),
      graceEndsAt: new Date(due + 15 * 86_400_000).toISOString(),
    };
    return route.fulfill({ response, json: body });
  });
}

for (const state of ['grace', 'read_only'] as const) {
  test(`the banner of a clinic ${state === 'grace' ? 'in its grace period' : 'read-only'}`, async ({
    page,
  }, testInfo) => {
    await overdueProfile(page, state);
    await signInPage(page, demoUsers.administrator);
    await page.goto('/dashboard');
    await settle(page, { spinners: true });
    const banner = page.getByTestId('account-banner');
    await expect(banner).toHaveAttribute('data-state', state);
    await expect(banner).toContainText(state === 'grace' ? 'Puedes seguir trabajando hasta el' : 'solo lectura');
    await expectNoAxeViolations(page, `banner (${state})`, '[data-testid="account-banner"]');
    await captureScreenshot(page, testInfo, `account-banner-${state}`, { fullPage: false });
    await banner.getByTestId('account-banner-link').click();
    await expect(page).toHaveURL('/account');
    if (state === 'read_only') {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/account?layout_theme=dark');
      await settle(page, { spinners: true });
      await captureScreenshot(page, testInfo, 'account-banner-read_only-390-dark', { fullPage: false });
    }
  });
}

test('a supervisor sees the banner without the link, and is refused the page', async ({ page }) => {
  await overdueProfile(page, 'read_only');
  await signInPage(page, demoUsers.supervisor);
  await page.goto('/account');
  await expect(page.getByTestId('forbidden')).toBeVisible();
  await expect(page.getByTestId('account-banner')).toContainText('Pide a un administrador que renueve.');
  await expect(page.getByTestId('account-banner-link')).toHaveCount(0);
});
