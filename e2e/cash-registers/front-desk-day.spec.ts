import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { artifactsDir } from '../support/artifacts';
import { adminHeaders, apiCreate, apiGet, createPatient } from '../support/clinic-api';
import { tag } from '../support/page';
import { fetchPdf, pdfText } from '../support/pdf';
import { pickCustomer } from '../support/pickers';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { checkScreen, screenshotAtPhoneWidth } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * A day at the front desk (issue 40), in Chromium, in Spanish: the register opened with its float;
 * three patients collected at it — one in cash (the collection form), one by card (a sale issued
 * paid by card, its register picked on the sale form), one who pays the copay of the demo clinic's
 * obra social (the attendance invoiced through the payer split, the patient's part collected at
 * the register); the collections show the register and, once closed, the Z number; the register
 * closed with a difference and its explanation; the Z report printed and read with pdftotext.
 * Every new screen checked with axe and kept at 1280 and 390 px.
 */

async function fitsPhone(page: Page, what: string) {
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${what} fits 390 px`).toBeLessThanOrEqual(
    390,
  );
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a day at the front desk: open, collect cash, card and an obra social copay, close with a difference, Z report', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const suffix = tag();
  const registerName = `Recepción ${suffix}`;
  const today = demoClinicToday();
  const [cashPatient, cardPatient, copayPatient] = [
    { firstName: 'Elena', lastName: `Efectivo ${suffix}` },
    { firstName: 'Tomás', lastName: `Tarjeta ${suffix}` },
    { firstName: 'Lucía', lastName: `Copago ${suffix}` },
  ] as const;
  for (const patient of [cashPatient, cardPatient])
    await createPatient(request, { ...patient, sex: 'female', birthdate: '1990-05-20' });
  const copayPatientId = await createPatient(request, { ...copayPatient, sex: 'female', birthdate: '1988-03-14' });
  const headers = await adminHeaders(request);

  // The demo clinic's obra social, with a plan of a 300,00 copay for this test; the patient affiliated.
  const payers = await apiGet<{ data: { id: string; name: string }[] }>(request, 'api/payers?pageSize=100');
  const payer = payers.data.find((row) => row.name === 'Obra Social Andina de Salud');
  expect(payer, 'the demo obra social').toBeTruthy();
  const plan = await apiCreate(request, `api/payers/${payer?.id}/plans`, {
    name: `Plan copago ${suffix}`,
    rules: [{ mode: 'copay', value: '300' }],
  });
  await apiCreate(request, `api/patients/${copayPatientId}/affiliations`, {
    payerId: payer?.id,
    planId: plan.id,
    memberNumber: `310-${suffix.slice(0, 8)}/01`,
    validFrom: today,
  });
  const me = (await (await request.get(rootServer.url('api/auth/system/me'), { headers })).json()) as {
    data: { id: string };
  };
  await apiCreate(request, `api/patients/${copayPatientId}/attendances`, {
    date: `${today}T10:00:00-03:00`,
    attendanceType: 'dentistry',
    professionalId: me.data.id,
    titleResume: 'Consulta de control',
    billable: true,
    attendanceFee: '0',
    lines: [{ description: 'Consulta odontológica', quantity: 1, price: '1500' }],
  });
  await apiCreate(request, 'api/cash-registers', { name: registerName, kind: 'front_desk' });

  // Open the register with the float counted.
  await signInPage(page, demoUsers.administrator);
  await page.goto('/cash');
  await page.getByTestId('cash-register-select').selectOption({ label: registerName });
  const openForm = page.getByTestId('cash-open-form');
  await openForm.getByTestId('cash-opening-float').fill('100,00');
  await openForm.getByTestId('cash-open').click();
  const session = page.getByTestId('cash-session');
  await expect(session.getByTestId('cash-state')).toHaveText('Abierta');

  // 1. Cash, on the collection form at the register.
  const numbers: string[] = [];
  const collectAt = async (lastName: string, amount: string) => {
    await page.goto('/collections/create');
    const form = page.getByTestId('collection-form');
    await pickCustomer(page, lastName);
    await form.getByTestId('collection-amount').fill(amount);
    await form.getByTestId('collection-method').selectOption('cash_payment');
    await form.getByTestId('register-field').selectOption({ label: registerName });
    await form.getByTestId('collection-save').click();
    await expect(page).toHaveURL(/\/collections\/view\/[0-9a-f-]{36}$/);
    const number = (await page.getByTestId('collection-view').getAttribute('data-number')) ?? '';
    numbers.push(number);
    return page.url();
  };
  const cashUrl = await collectAt(cashPatient.lastName, '1.000,00');
  await expect(page.getByTestId('collection-register')).toContainText(`${registerName} · sesión abierta`);
  await checkScreen(page, '/collections/view (at the register)', 'front-desk-collection-open');
  await screenshotAtPhoneWidth(page, 'front-desk-collection-open-390');
  await fitsPhone(page, '/collections/view');

  // 2. By card: a sale issued paid by card, its register picked on the sale form.
  await page.goto('/sales/create');
  await pickCustomer(page, cardPatient.lastName);
  await page.getByTestId('sale-condition').selectOption('cards');
  await page.getByTestId('sale-method').selectOption('credit_card');
  const register = page.locator('#sale-registerId');
  await expect(register).toBeVisible();
  await register.selectOption({ label: registerName });
  const line = page.getByTestId('sale-line').first();
  await line.getByTestId('line-concept').fill('Limpieza dental');
  await line.getByTestId('line-quantity').fill('1');
  await line.getByTestId('line-price').fill('2000');
  await line.getByTestId('line-vat').fill('0');
  await checkScreen(page, '/sales/create (paid by card at the register)', 'front-desk-sale-form');
  await screenshotAtPhoneWidth(page, 'front-desk-sale-form-390');
  await page.getByTestId('issue').click();
  await expect(page.getByTestId('sale-view')).toHaveAttribute('data-status', 'issued');
  await expect(page.getByTestId('view-open')).toContainText('0,00');
  const saleId = page.url().split('/').at(-1) ?? '';
  const sale = await apiGet<{ data: { allocations: { paymentNumber: string }[] } }>(request, `api/sales/${saleId}`);
  numbers.push(sale.data.allocations[0]?.paymentNumber ?? '');

  // 3. The obra social's copay: the attendance split, the patient's part collected at the register.
  await page.goto(`/patients/${copayPatientId}/mh?tab=payer`);
  await expect(page.getByTestId('split-patient-total')).toContainText('300,00');
  await expect(page.getByTestId('split-payer-total')).toContainText('1.200,00');
  await page.getByTestId('split-issue').dblclick();
  await expect(page.getByTestId('split-patient-invoice')).toBeVisible();
  await collectAt(copayPatient.lastName, '300,00');

  // The register: three collections and the float.
  await page.goto('/cash');
  await page.getByTestId('cash-register-select').selectOption({ label: registerName });
  await expect(session.getByTestId('cash-method-cash_payment')).toContainText('1.400,00');
  await expect(session.getByTestId('cash-method-credit_card')).toContainText('2.000,00');
  await expect(page.getByTestId('cash-movement')).toHaveCount(4);

  // Close it: ten pesos short in the cash, explained.
  await session.getByTestId('cash-close').click();
  const closeForm = page.getByTestId('cash-close-form');
  await closeForm.getByTestId('cash-count-cash_payment').fill('1.390,00');
  await closeForm.getByTestId('cash-count-credit_card').fill('2.000,00');
  await expect(closeForm.getByTestId('cash-difference-cash_payment')).toContainText('10,00');
  await closeForm.getByTestId('cash-explanation').fill('Faltan 10 pesos: cambio mal dado');
  await closeForm.getByTestId('cash-close-confirm').dblclick();
  const closing = page.getByTestId('cash-closing').first();
  await expect(closing).toContainText(/Z-\d{6}/);
  const zNumber = ((await closing.textContent()) ?? '').match(/Z-\d{6}/)?.[0] ?? '';

  // The collection now names the closing its money went into.
  await page.goto(cashUrl);
  await expect(page.getByTestId('collection-register')).toContainText(`${registerName} · cierre ${zNumber}`);
  await checkScreen(page, '/collections/view (closed)', 'front-desk-collection-closed');

  // The Z report: the three collections, the difference and its explanation.
  const list = await apiGet<{ data: { id: string; number: string }[] }>(
    request,
    'api/cash-sessions?status=closed&pageSize=100',
  );
  const closed = list.data.find((row) => row.number === zNumber);
  expect(closed).toBeTruthy();
  const pdf = await fetchPdf(request, `api/cash-sessions/${closed?.id}/z-report.pdf`);
  const text = pdfText(path.join(artifactsDir, 'front-desk-z-report.pdf'), pdf, { resolution: 60 });
  expect(text).toContain(zNumber);
  expect(text).toContain(registerName);
  expect(text).toContain('Faltan 10 pesos: cambio mal dado');
  expect(numbers).toHaveLength(3);
  for (const number of numbers) {
    expect(number).toMatch(/^RC-\d{6}$/);
    expect(text).toContain(number);
  }
});
