import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, createPatient } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { shootScreen } from '../support/screens';
import { rootServer } from '../support/servers';
import { drawSignature } from '../support/signature';

/*
 * Budgets and invoicing attendances (issue 18). The patient's "Facturación" tab lists what is not
 * yet invoiced and makes an invoice draft of one attendance or of everything; a budget issued
 * through the sales API is signed on the pad in its panel, followed and converted into an invoice
 * draft. The budget part needs POST /api/sales (the sales area of the same issue): it is skipped
 * until that route answers.
 */

async function me(request: APIRequestContext): Promise<string> {
  const headers = await adminHeaders(request);
  const answer = (await (await request.get(rootServer.url('api/auth/system/me'), { headers })).json()) as {
    data: { id: string };
  };
  return answer.data.id;
}

async function billableAttendance(request: APIRequestContext, patientId: string, title: string, fee: string) {
  const response = await request.post(rootServer.url(`api/patients/${patientId}/attendances`), {
    headers: await adminHeaders(request),
    data: {
      date: `${demoClinicToday()}T10:30:00-03:00`,
      attendanceType: 'dentistry',
      professionalId: await me(request),
      titleResume: title,
      billable: true,
      attendanceFee: fee,
      lines: [{ description: 'Radiografía periapical', quantity: 2, price: '1500' }],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function shoot(page: Page, name: string, path: string, ready: string) {
  await shootScreen(
    page,
    { name, path, ready },
    { spinners: true, afterTheme: (theme) => expectNoAxeViolations(page, `${name} (${theme})`) },
  );
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("the patient's billing tab invoices one attendance, then everything pending", async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = tag();
  const patientId = await createPatient(request, {
    firstName: 'Marta',
    lastName: `Facturación ${stamp}`,
    sex: 'female',
    birthdate: '1975-06-01',
  });
  const first = await billableAttendance(request, patientId, `Consulta ${stamp}`, '8000');
  await billableAttendance(request, patientId, `Control ${stamp}`, '5000');
  await signInPage(page, demoUsers.administrator);

  const tab = `/patients/${patientId}/mh?tab=billing`;
  await shoot(page, 'budgets-billing', tab, 'tab-billing');
  await expect(page.getByTestId('billing-attendance')).toHaveCount(2);
  // 8000 + 2 × 1500, and 5000 + 2 × 1500 (no VAT without a price-list treatment).
  await expect(page.getByTestId('billing-total')).toContainText('19.000,00');

  // "Facturar esta atención" from the attendance view: a draft, opened in the sales view.
  await page.goto(`/patients/${patientId}/mh/attendance/show/${first}`);
  await page.getByTestId('invoice-attendance').click();
  await expect(page).toHaveURL(/\/sales\/view\/[0-9a-f-]{36}$/);
  const draftId = page.url().split('/').at(-1) as string;

  // A draft holds nothing: both stay pending until it is issued. Everything pending → another draft.
  await page.goto(tab);
  await expect(page.getByTestId('billing-attendance')).toHaveCount(2);
  await page.getByTestId('billing-invoice-all').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/sales\/view\/[0-9a-f-]{36}$/);
  expect(page.url()).not.toContain(draftId);
});

test('a budget is signed on the pad, followed and converted into an invoice draft', async ({ page, request }) => {
  test.setTimeout(150_000);
  const stamp = tag();
  const headers = await adminHeaders(request);
  const patientId = await createPatient(request, {
    firstName: 'Julián',
    lastName: `Presupuesto ${stamp}`,
    sex: 'male',
    birthdate: '1982-02-11',
  });
  const created = await request.post(rootServer.url('api/sales'), {
    headers: { ...headers, 'Idempotency-Key': randomUUID() },
    data: {
      documentType: 'budget',
      patientId,
      pointOfService: '0001',
      date: demoClinicToday(),
      currency: 'argentine_peso',
      conditionSale: 'current_account',
      lines: [
        { description: 'Endodoncia unirradicular', tooth: '16', quantity: '1', unitPrice: '90000', vatRate: '0' },
        { description: 'Corona de porcelana', tooth: '16', quantity: '1', unitPrice: '150000', vatRate: '0' },
      ],
      issue: true,
    },
  });
  test.skip(created.status() === 404, 'POST /api/sales arrives with the sales area');
  expect(created.status(), await created.text()).toBe(201);
  const budgetId = ((await created.json()) as { data: { id: string } }).data.id;

  await signInPage(page, demoUsers.administrator);
  await page.goto(`/sales/view/${budgetId}`);
  const panel = page.getByTestId('budget-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('budget-progress-row')).toHaveCount(2);
  await saveScreenshot(page, 'budgets-panel-light');
  await expectNoAxeViolations(page, 'budget panel');

  await panel.getByTestId('budget-sign').click();
  const dialog = page.getByTestId('budget-sign-dialog');
  await expect(dialog.getByTestId('budget-sign-text')).toContainText('Endodoncia unirradicular (pieza 16)');
  // Without a signature: refused on the form.
  await dialog.getByTestId('budget-signer-name').fill(`Julián Presupuesto ${stamp}`);
  await dialog.getByTestId('budget-signer-id').fill('30111222');
  await dialog.getByTestId('budget-sign-confirm').click();
  await expect(dialog.getByTestId('budget-signature-error')).toBeVisible();
  await drawSignature(page);
  await saveScreenshot(page, 'budgets-sign-dialog-light');
  await expectNoAxeViolations(page, 'budget sign dialog');
  await dialog.getByTestId('budget-sign-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByTestId('budget-decision-badge')).toHaveText('Aceptado');
  await expect(panel.getByTestId('budget-decision')).toContainText('30111222');
  await expect(panel.getByTestId('budget-line-done').first()).toHaveText('0');

  // Converted into an invoice draft of both lines.
  await panel.getByTestId('budget-to-invoice').click();
  // The draft's view, not the budget's (same route: wait for the address to change).
  await expect(page).not.toHaveURL(new RegExp(budgetId));
  await expect(page).toHaveURL(/\/sales\/view\/[0-9a-f-]{36}$/);

  // The patient's billing lists the accepted budget with its pending lines.
  await page.goto(`/patients/${patientId}/mh?tab=billing`);
  await expect(page.getByTestId('billing-budget')).toHaveCount(1);
  await settle(page, { spinners: true });
});
