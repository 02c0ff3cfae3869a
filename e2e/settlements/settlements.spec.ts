import path from 'node:path';
import { expect, test } from '../fixtures/test';
import { artifactsDir, saveScreenshot } from '../support/artifacts';
import { apiCreate, apiGet, createPatient } from '../support/clinic-api';
import { fetchPdf, pdfText } from '../support/pdf';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { checkScreen, screenshotAtPhoneWidth } from '../support/screens';

/*
 * Professional settlements (issue 40) in Chromium, in Spanish: a professional of the test's own
 * with last month's invoice (a crown with its lab cost and a cleaning), a rule typed on the
 * "Liquidaciones" screen, the month previewed and confirmed (a double click settles once), its
 * PDF read, and "Pagar" paying it through the provider payment form; axe on each state.
 */

function lastMonth(today: string) {
  const [year = 2000, month = 1] = today.split('-').map(Number);
  const from = new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 10);
  const to = new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10);
  return { from, to, middle: `${from.slice(0, 8)}15` };
}

test('define a rule, settle a professional’s month, print it and pay it', async ({ page, request }) => {
  test.setTimeout(180_000);
  const stamp = `${Date.now()}`.slice(-6);
  const month = lastMonth(demoClinicToday());
  const professional = await apiCreate(request, 'api/users', {
    completeName: `Dra. Liquidación ${stamp}`,
    email: `liquidacion.${stamp}@clinica.test`,
    level: 'user',
  });
  const crown = await apiCreate(request, 'api/treatments', {
    name: `Corona E2E ${stamp}`,
    groupName: 'Prótesis',
    durationMinutes: 60,
    price: '100000',
    labCost: '25000',
  });
  const patientId = await createPatient(request, {
    firstName: 'Rosa',
    lastName: `Liquidada ${stamp}`,
    sex: 'female',
    birthdate: '1980-03-12',
  });
  // A point of sale of the test's own: last month's invoice is the first of its series.
  const pos = String(10000 + (Number(stamp) % 89999)).padStart(5, '0');
  await apiCreate(request, 'api/points-of-sale', { code: pos, name: `Liquidaciones ${stamp}` });
  await apiCreate(request, 'api/sales', {
    documentType: 'invoice',
    patientId,
    pointOfService: pos,
    date: month.middle,
    currency: 'argentine_peso',
    conditionSale: 'current_account',
    issue: true,
    lines: [
      {
        description: 'Corona',
        treatmentId: crown.id,
        professionalId: professional.id,
        quantity: '1',
        unitPrice: '100000',
        vatRate: '0',
      },
      { description: 'Limpieza', professionalId: professional.id, quantity: '1', unitPrice: '20000', vatRate: '0' },
    ],
  });

  await signInPage(page, demoUsers.administrator);
  await page.goto(`/settlements?professionalId=${professional.id}`);
  await expect(page.getByTestId('settlement-rules')).toBeVisible();
  await expect(page.getByTestId('rules-empty')).toBeVisible();

  // The rule: 40 % of what is invoiced, the lab cost deducted, from the first of last month.
  await page.getByTestId('rule-add').click();
  const form = page.getByTestId('rule-form');
  await form.getByLabel('Forma').selectOption('percentage');
  await form.getByTestId('rule-value').fill('40,5');
  await form.getByLabel('Base').selectOption('invoiced');
  await form.getByLabel('Vigente desde').fill(month.from);
  await form.getByLabel('Descontar el costo de laboratorio').check();
  await checkScreen(page, '/settlements (rule form)', 'settlements-rule-form');
  await form.getByTestId('rule-save').click();
  await expect(page.getByTestId('settlement-rules').getByRole('row')).toHaveCount(2);
  await expect(page.getByTestId('settlement-rules')).toContainText('40,5 %');

  // Last month: (100.000 − 25.000) × 40,5 % + 20.000 × 40,5 % = 30.375 + 8.100 = 38.475.
  await page.getByTestId('period-from').fill(month.from);
  await page.getByTestId('period-to').fill(month.to);
  await page.getByTestId('period-preview').click();
  const preview = page.getByTestId('settlement-preview');
  await expect(preview.getByTestId('preview-total')).toHaveText(/38\.475,00/);
  await expect(preview.getByRole('row')).toHaveCount(3);
  await checkScreen(page, '/settlements (preview)', 'settlements-preview-light', { spinners: true });
  await screenshotAtPhoneWidth(page, 'settlements-preview-390');

  // A double click confirms once.
  await preview.getByTestId('settlement-confirm').dblclick();
  const list = page.getByTestId('settlements-list');
  await expect(list.getByRole('row').filter({ hasText: 'LQ-' })).toHaveCount(1);
  await expect(list).toContainText('Pendiente de pago');
  await expect(list).toContainText('38.475,00');
  await expect(page.getByTestId('settlement-preview')).toHaveCount(0);
  const number = (await list.getByRole('row').filter({ hasText: 'LQ-' }).getByRole('cell').first().innerText()).trim();
  expect(number).toMatch(/^LQ-\d{8}$/);
  await checkScreen(page, '/settlements', 'settlements-light', { spinners: true });
  await screenshotAtPhoneWidth(page, 'settlements-390');

  // The PDF: what the button opens, read and kept as an image.
  const { data } = await apiGet<{ data: { id: string }[] }>(
    request,
    `api/settlements?professionalId=${professional.id}`,
  );
  const settlementId = data[0]?.id ?? '';
  const pdf = await fetchPdf(request, `api/settlements/${settlementId}/settlement.pdf`);
  const text = pdfText(path.join(artifactsDir, 'settlement.pdf'), pdf, { resolution: 60 });
  expect(text).toContain('Liquidación de honorarios');
  expect(text).toContain(number);
  expect(text).toContain(`Dra. Liquidación ${stamp}`);
  expect(text).toContain('Total a pagar');
  expect(text).toMatch(/38\.475,00/);
  const popup = page.waitForEvent('popup');
  await page.getByTestId(`settlement-pdf-${number}`).click();
  await (await popup).close();

  // "Pagar": the provider payment form with the payable allocated in full.
  await page.getByTestId(`settlement-pay-${number}`).click();
  await expect(page).toHaveURL(/\/payments\/create\?/);
  const payment = page.getByTestId('payment-form');
  await expect(payment.getByTestId('payment-provider')).toHaveValue(`Dra. Liquidación ${stamp}`);
  await expect(payment.getByTestId('allocation-amount')).toHaveValue('38475.00');
  await saveScreenshot(page, 'settlements-pay-form');
  await payment.getByTestId('payment-save').click();
  await expect(page).toHaveURL(/\/payments\/view\/[0-9a-f-]{36}$/);

  await page.goto(`/settlements?professionalId=${professional.id}`);
  await expect(page.getByTestId('settlements-list')).toContainText('Pagada');
  await expect(page.getByTestId(`settlement-pay-${number}`)).toHaveCount(0);
  await checkScreen(page, '/settlements (paid)', 'settlements-paid', { spinners: true });
  await page.goto(`/settlements?professionalId=${professional.id}&layout_theme=dark`);
  await expect(page.getByTestId('settlements-list')).toContainText('Pagada');
  await checkScreen(page, '/settlements (dark)', 'settlements-dark', { spinners: true });
});
