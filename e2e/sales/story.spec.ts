import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, createPatient } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { pdfText } from '../support/pdf';
import { pickCustomer } from '../support/pickers';
import { demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';
import { drawSignature } from '../support/signature';

/*
 * The whole sales story of issue 18 in Chromium, in Spanish, through the screens a clinic uses:
 * a budget of three treatments picked from the odontogram, signed by the patient on the pad; an
 * attendance that carries out one of its lines; "Facturar esta atención" → an invoice on current
 * account; collected part in cash and the rest by card; the receipt and the statement as PDFs; a
 * credit note that the current account shows. The API only prepares what the story does not
 * cover: a patient of the test's own with three findings on the odontogram.
 * Screenshots (light, dark, 390 px) go to the test's output folder; axe runs on each screen.
 */

/** Three findings: each tooth of the picker gets a treatment of the demo price list. */
const findings = [
  { tooth: 36, zone: 'occlusal', status: 'caries', option: '36 — Caries', search: 'Empaste', treatment: 'Empaste' },
  {
    tooth: 46,
    zone: 'mesial',
    status: 'caries',
    option: '46 — Caries',
    search: 'Restauración',
    treatment: 'Restauración compuesta (2 caras)',
  },
  {
    tooth: 48,
    zone: null,
    status: 'to_extract',
    option: '48 — A extraer',
    search: 'Extracción',
    treatment: 'Extracción quirúrgica',
  },
] as const;

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

/**
 * The screen as it is now: light, dark (the topbar's own switch) and 390 px wide, each checked
 * with axe; at 390 px nothing may scroll sideways. A dialog: what the user sees (its backdrop
 * covers the viewport only), in light and at 390 px (it covers the topbar's switch too).
 */
async function shoot(page: Page, testInfo: TestInfo, name: string, { dialog = false } = {}) {
  const layout = new AppLayout(page);
  const save = async (suffix: string) => {
    await settle(page, { spinners: true });
    // From the top: a whole-page shot of a scrolled page draws the sticky topbar halfway down.
    if (!dialog) await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: testInfo.outputPath(`${name}-${suffix}.png`),
      fullPage: !dialog,
      caret: 'hide',
    });
    await expectNoAxeViolations(page, `${name} (${suffix})`);
  };
  await save('light');
  if (!dialog) {
    await layout.darkModeButton.click();
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
    await save('dark');
    await layout.lightModeButton.click();
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'light');
  }
  await page.setViewportSize(phone);
  await save('390');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${name} fits 390 px`).toBeLessThanOrEqual(phone.width);
  await page.setViewportSize(desktop);
}

/**
 * Clicks a PDF button: the tab it opens is closed; the server's answer to the page is kept as a
 * file and read as text. A route keeps the bytes (the page's response.body() came back empty
 * for this fetch, whose blob is shown in the other tab).
 */
async function printedText(page: Page, testInfo: TestInfo, button: string, url: RegExp, file: string) {
  let pdf: Buffer | null = null;
  let type = '';
  await page.route(url, async (route) => {
    const response = await route.fetch();
    pdf = await response.body();
    type = response.headers()['content-type'] ?? '';
    await route.fulfill({ response });
  });
  const popup = page.waitForEvent('popup');
  await page.getByTestId(button).click();
  const tab = await popup;
  await expect.poll(() => tab.url()).toMatch(/^blob:/);
  await tab.close();
  await page.unroute(url);
  const bytes = pdf as Buffer | null;
  if (!bytes) throw new Error(`no answer to ${url}`);
  expect(type).toBe('application/pdf');
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfText(testInfo.outputPath(file), bytes);
}

test('the sales story: budget from the odontogram, signed, carried out, invoiced, collected twice, printed and credited', async ({
  page,
  request,
  issues,
}, testInfo) => {
  test.setTimeout(420_000);
  const lastName = `Historia ${tag()}`;
  const name = `${lastName}, Valeria`;
  const patientId = await createPatient(request, {
    firstName: 'Valeria',
    lastName,
    sex: 'female',
    birthdate: '1984-03-21',
  });
  const charted = await request.post(rootServer.url(`api/patients/${patientId}/odontogram/entries`), {
    headers: await adminHeaders(request),
    data: { marks: findings.map(({ tooth, zone, status }) => ({ tooth, zone, status })) },
  });
  expect(charted.status(), await charted.text()).toBe(201);
  await page.setViewportSize(desktop);
  await signInPage(page, demoUsers.administrator);
  const layout = new AppLayout(page);

  let budgetUrl = '';
  let budgetNumber = '';
  await test.step('1. a budget of three treatments picked from the odontogram, issued', async () => {
    await page.goto('/sales/create');
    await expect(layout.title).toHaveText('Nueva venta');
    await pickCustomer(page, lastName);
    await page.getByTestId('sale-type-select').selectOption('budget');
    const picker = page.getByRole('group', { name: 'Agregar desde el odontograma' });
    await expect(picker).toHaveAttribute('data-testid', 'odontogram-lines');
    for (const finding of findings) {
      await picker.getByTestId('odontogram-tooth').selectOption({ label: finding.option });
      await picker.getByTestId('odontogram-treatment').fill(finding.search);
      await page.getByTestId('odontogram-treatment-option').filter({ hasText: finding.treatment }).first().click();
      await picker.getByTestId('odontogram-add').click();
    }
    const lines = page.getByTestId('sale-line');
    await expect(lines).toHaveCount(3);
    for (const [index, finding] of findings.entries()) {
      await expect(lines.nth(index).getByTestId('line-tooth')).toHaveValue(String(finding.tooth));
      await expect(lines.nth(index).getByTestId('line-concept')).toHaveValue(finding.treatment);
      await expect(lines.nth(index).getByTestId('line-from-list')).toBeVisible();
    }
    // Empaste 55.000 + restauración 75.000 + extracción quirúrgica 160.000, VAT-exempt.
    await expect(page.getByTestId('form-total')).toContainText('290.000,00');
    await shoot(page, testInfo, 'story-01-budget-form');
    await page.getByTestId('issue').click();
    await expect(page).toHaveURL(/\/sales\/view\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('sale-view')).toHaveAttribute('data-status', 'issued');
    await expect(page.getByTestId('budget-panel').getByTestId('budget-progress-row')).toHaveCount(3);
    await expect(page.getByTestId('sale-number')).toHaveText(/^0001-\d{8}$/);
    budgetNumber = (await page.getByTestId('sale-number').textContent()) ?? '';
    budgetUrl = new URL(page.url()).pathname;
  });

  const panel = page.getByTestId('budget-panel');
  await test.step('2. the patient signs it on the pad', async () => {
    await panel.getByTestId('budget-sign').click();
    const dialog = page.getByTestId('budget-sign-dialog');
    for (const finding of findings) {
      await expect(dialog.getByTestId('budget-sign-text')).toContainText(
        `${finding.treatment} (pieza ${finding.tooth})`,
      );
    }
    await dialog.getByTestId('budget-signer-name').fill(`Valeria ${lastName}`);
    await dialog.getByTestId('budget-signer-id').fill('28444555');
    await drawSignature(page);
    await shoot(page, testInfo, 'story-02-budget-sign-dialog', { dialog: true });
    // The pad starts again when its size changes (the 390 px shot): signed once more.
    await drawSignature(page);
    await dialog.getByTestId('budget-sign-confirm').click();
    await expect(dialog).toBeHidden();
    await expect(panel.getByTestId('budget-decision-badge')).toHaveText('Aceptado');
    await expect(panel.getByTestId('budget-decision')).toContainText('28444555');
    await expect(panel.getByRole('img', { name: /Valeria/ })).toBeVisible();
  });

  let attendanceUrl = '';
  await test.step('3. an attendance carries out one line of the budget', async () => {
    await page.goto(`/patients/${patientId}/mh`);
    await page.getByTestId('new-attendance').click();
    const form = page.getByTestId('attendance-form');
    await form.getByLabel('Tipo de atención').selectOption('dentistry');
    await form.getByLabel('Título').fill('Obturación de la pieza 36');
    await form.getByLabel('Facturable').check();
    await form.getByTestId('line-add').click();
    const line = form.getByTestId('billing-line');
    const budgetLine = line.getByTestId('line-budget');
    const option = budgetLine.locator('option', { hasText: 'Empaste' });
    await expect(option).toHaveText(`${budgetNumber} · Empaste pieza 36 (0 de 1 hechos)`);
    await budgetLine.selectOption((await option.getAttribute('value')) ?? '');
    // The budget line fills the description, the treatment, the tooth and the price.
    await expect(line.getByLabel('Descripción')).toHaveValue('Empaste');
    await expect(line.getByTestId('line-tooth')).toHaveValue('36');
    await expect(line.getByTestId('line-treatment').locator('option:checked')).toHaveText(/Empaste/);
    await expect(form.getByTestId('total-billable')).toContainText('55.000,00');
    await shoot(page, testInfo, 'story-03-attendance-form');
    await form.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect(page.getByText('Atención creada correctamente.')).toBeVisible();
    await expect(page).toHaveURL(/\/mh\/attendance\/show\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('record-total')).toContainText('55.000,00');
    attendanceUrl = new URL(page.url()).pathname;

    // The budget: that line done, the other two left.
    await page.goto(budgetUrl);
    const rows = panel.getByTestId('budget-progress-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.filter({ hasText: 'Empaste' }).getByTestId('budget-line-done')).toHaveText('1');
    await expect(rows.filter({ hasText: 'Empaste' })).toContainText('Obturación de la pieza 36');
    await expect(panel.getByTestId('budget-line-done').filter({ hasText: /^0$/ })).toHaveCount(2);
    await shoot(page, testInfo, 'story-04-budget-progress');
  });

  let invoiceUrl = '';
  let invoiceNumber = '';
  await test.step('4. "Facturar esta atención": an invoice on current account, issued', async () => {
    await page.goto(attendanceUrl);
    await page.getByTestId('invoice-attendance').click();
    await expect(page).toHaveURL(/\/sales\/view\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('sale-view')).toHaveAttribute('data-status', 'draft');
    await expect(page.getByTestId('view-line')).toHaveCount(1);
    await page.getByRole('link', { name: 'Editar' }).click();
    await expect(page).toHaveURL(/\/sales\/create\?edit=/);
    const condition = page.getByTestId('sale-condition');
    await condition.selectOption('current_account');
    await expect(condition.locator('option:checked')).toHaveText('Cuenta corriente');
    await expect(page.getByTestId('sale-line').getByTestId('line-concept')).toHaveValue('Empaste');
    await expect(page.getByTestId('form-total')).toContainText('55.000,00');
    await page.getByTestId('issue').click();
    await expect(page.getByTestId('sale-view')).toHaveAttribute('data-status', 'issued');
    await expect(page.getByTestId('sale-number')).toHaveText(/^0001-\d{8}$/);
    invoiceNumber = (await page.getByTestId('sale-number').textContent()) ?? '';
    await expect(page.getByTestId('view-open')).toContainText('55.000,00');
    invoiceUrl = new URL(page.url()).pathname;
    await shoot(page, testInfo, 'story-05-invoice');

    // The attendance is invoiced: the patient's billing has nothing of it left.
    await page.goto(`/patients/${patientId}/mh?tab=billing`);
    await expect(page.getByTestId('billing-attendance')).toHaveCount(0);
  });

  let cashUrl = '';
  await test.step('5. collected in two parts: cash, then the rest by card', async () => {
    // From the patient's balance in the medical history to the current account, and its "Nueva cobranza".
    await page.goto(`/patients/${patientId}/mh`);
    await expect(page.getByTestId('patient-balance')).toContainText('Debe');
    await expect(page.getByTestId('patient-balance')).toContainText('55.000,00');
    await page.getByTestId('patient-balance').click();
    await expect(page).toHaveURL(/\/cc-customers\/[0-9a-f-]{36}$/);
    const ledgerUrl = new URL(page.url()).pathname;
    await page.getByTestId('ledger-new-collection').click();
    const form = page.getByTestId('collection-form');
    await expect(page.getByTestId('customer-input')).toHaveValue(new RegExp(`^${lastName}`));
    const rows = form.getByTestId('allocation-row');
    await expect(rows).toHaveCount(1);
    await expect(rows).toContainText(invoiceNumber);
    await form.getByTestId('collection-amount').fill('20000');
    await form.getByTestId('collection-method').selectOption('cash_payment');
    await form.getByTestId('collection-propose').click();
    await expect(form.getByTestId('allocation-amount')).toHaveValue('20000.00');
    await expect(form.getByTestId('collection-allocated')).toContainText('20.000,00');
    await expect(form.getByTestId('collection-remainder')).toHaveText(/0,00/);
    await shoot(page, testInfo, 'story-06-collection-form');
    await form.getByTestId('collection-save').click();
    await expect(page).toHaveURL(/\/collections\/view\/[0-9a-f-]{36}$/);
    const view = page.getByTestId('collection-view');
    await expect(view.getByTestId('collection-allocations')).toContainText(`Factura ${invoiceNumber}`);
    await expect(view.getByTestId('collection-on-account')).toHaveText(/0,00/);
    cashUrl = new URL(page.url()).pathname;

    // The rest by card: the proposal takes what is still owed.
    await page.goto(ledgerUrl);
    await page.getByTestId('ledger-new-collection').click();
    await expect(rows).toHaveCount(1);
    await form.getByTestId('collection-method').selectOption('credit_card');
    await form.getByTestId('collection-transaction').fill('POS-55120');
    await form.getByTestId('collection-propose').click();
    await expect(form.getByTestId('collection-amount')).toHaveValue('35000.00');
    await expect(form.getByTestId('allocation-amount')).toHaveValue('35000.00');
    await form.getByTestId('collection-save').click();
    await expect(page).toHaveURL(/\/collections\/view\/[0-9a-f-]{36}$/);
    await expect(view.getByTestId('collection-allocations')).toContainText(`Factura ${invoiceNumber}`);
    await expect(view.getByTestId('collection-on-account')).toHaveText(/0,00/);
    await shoot(page, testInfo, 'story-07-collection-view');

    // The invoice is paid, the customer owes nothing.
    await page.goto(invoiceUrl);
    await expect(page.getByTestId('view-open')).toContainText('0,00');
    await expect(page.getByTestId('allocations').locator('li')).toHaveCount(2);
    await page.goto(ledgerUrl);
    const ledger = page.getByTestId('customer-ledger');
    await expect(ledger.getByTestId('ledger-entry')).toHaveCount(3);
    await expect(ledger.getByTestId('ledger-closing')).toHaveText(/^\D*0,00$/);
    await page.goto(`/patients/${patientId}/mh`);
    await expect(page.getByTestId('patient-balance')).toHaveText(/Al día/);
  });

  await test.step('6. the receipt and the statement as PDFs', async () => {
    await page.goto(cashUrl);
    const receipt = await printedText(
      page,
      testInfo,
      'collection-receipt',
      /\/api\/collections\/[^/]+\/receipt/,
      'receipt.pdf',
    );
    expect(receipt).toContain('Recibo de cobro');
    expect(receipt).toContain(name);
    expect(receipt).toContain('Efectivo');
    expect(receipt).toContain(invoiceNumber);
    expect(receipt).toContain('20.000,00');
    await page.goto(`/patients/${patientId}/mh`);
    await page.getByTestId('patient-balance').click();
    const statement = await printedText(page, testInfo, 'ledger-pdf', /\/ledger\.pdf/, 'statement.pdf');
    expect(statement).toContain(`Estado de cuenta: ${name}`);
    expect(statement).toContain('Saldo a pagar: $ 0,00');
    expect(statement).toContain(invoiceNumber);
    expect(statement).toContain('55.000,00');
    expect(statement).toContain('35.000,00');
  });

  await test.step('7. a credit note of the invoice, shown in the current account', async () => {
    await page.goto(invoiceUrl);
    await page.getByTestId('view-credit-note').click();
    await expect(page).toHaveURL(/\/sales\/create\?edit=/);
    await expect(page.getByTestId('sale-type-select')).toHaveValue('credit_note');
    await expect(page.getByTestId('sale-line')).toHaveCount(1);
    await expect(page.getByTestId('form-total')).toContainText('55.000,00');
    await page.getByTestId('issue').click();
    await expect(page.getByTestId('sale-view')).toHaveAttribute('data-status', 'issued');
    await expect(page.getByTestId('sale-number')).toHaveText(/^0001-\d{8}$/);
    await expect(page.getByTestId('related-document')).toContainText(`Factura ${invoiceNumber}`);
    await shoot(page, testInfo, 'story-08-credit-note');

    // The invoice was already paid: the credit stays in the patient's favour.
    await page.goto(`/patients/${patientId}/mh`);
    await expect(page.getByTestId('patient-balance')).toContainText('A favor');
    await expect(page.getByTestId('patient-balance')).toContainText('55.000,00');
    await page.getByTestId('patient-balance').click();
    const ledger = page.getByTestId('customer-ledger');
    await expect(ledger.getByTestId('ledger-entry')).toHaveCount(4);
    await expect(ledger.getByTestId('ledger-entry').filter({ hasText: 'Nota de crédito' })).toHaveCount(1);
    await expect(ledger.getByTestId('ledger-closing')).toHaveText(/55\.000,00/);
    await shoot(page, testInfo, 'story-09-ledger');
  });

  // No console error, failed request or CSP violation anywhere in the story.
  expect(issues.all()).toEqual([]);
});
