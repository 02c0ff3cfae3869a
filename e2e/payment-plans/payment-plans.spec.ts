import path from 'node:path';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { artifactsDir } from '../support/artifacts';
import { adminHeaders, apiCreate, apiGet, createPatient } from '../support/clinic-api';
import { dayFrom } from '../support/commercial-api';
import { tag } from '../support/page';
import { fetchPdf, pdfText } from '../support/pdf';
import { pickCustomer } from '../support/pickers';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { checkScreen, screenshotAtPhoneWidth } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Payment plans (issue 40) in Chromium, in Spanish: a patient's invoice of $ 60.000 paid in three
 * monthly instalments, the first fallen due ten days ago. The plan is made from the invoice's
 * screen with its live schedule; the first instalment shows overdue there and on /payment-plans;
 * a collection of $ 20.000 allocated to the invoice pays it (then "Pagada", the next "Pendiente");
 * the customer's current account shows the plan. Axe clean; screenshots at 1280 and 390 px.
 */

test('a plan from the invoice screen: schedule, overdue instalment, collect the first, see it paid', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const today = demoClinicToday();
  const lastName = `Cuotas ${tag()}`;
  const patientId = await createPatient(request, {
    firstName: 'Lucía',
    lastName,
    sex: 'female',
    birthdate: '1985-06-02',
  });
  // A point of sale of its own: an invoice dated 20 days ago is issued after the demo's (issue 35).
  const pointOfSale = await apiCreate<{ code: string }>(request, 'api/points-of-sale', {
    code: String(10000 + Math.floor(Math.random() * 89999)),
    name: `Caja ${lastName}`,
  });
  const invoice = await apiCreate<{ id: string; number: string }>(request, 'api/sales', {
    documentType: 'invoice',
    patientId,
    pointOfService: pointOfSale.code,
    date: dayFrom(today, -20),
    dueDate: dayFrom(today, -10),
    currency: 'argentine_peso',
    conditionSale: 'current_account',
    lines: [{ description: 'Implante y corona', quantity: '1', unitPrice: '60000', vatRate: '0' }],
    issue: true,
  });

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInPage(page, demoUsers.administrator);
  await page.goto(`/sales/view/${invoice.id}?layout_theme=light`);
  const panel = page.getByTestId('plan-panel');
  await panel.getByTestId('plan-create').click();
  const dialog = page.getByTestId('plan-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('60.000,00');
  // The live schedule: 6 monthly instalments by default, then 3 from ten days ago.
  await expect(dialog.getByTestId('instalment-row')).toHaveCount(6);
  await dialog.getByTestId('plan-count').fill('3');
  await dialog.getByTestId('plan-first-due').fill(dayFrom(today, -10));
  await expect(dialog.getByTestId('instalment-row')).toHaveCount(3);
  await expect(dialog.getByTestId('instalment-amount').first()).toHaveText(/20\.000,00/);
  await expect(dialog.getByTestId('plan-preview-total')).toContainText('60.000,00');
  // With a rate the preview shows principal and interest; back to none.
  await dialog.getByTestId('plan-rate').fill('12,5');
  await expect(dialog.getByTestId('plan-preview-total')).toContainText('de interés');
  await checkScreen(page, 'the plan dialog with interest', 'payment-plan-dialog');
  await screenshotAtPhoneWidth(page, 'payment-plan-dialog-390');
  await dialog.getByTestId('plan-rate').fill('');
  await expect(dialog.getByTestId('plan-preview-total')).not.toContainText('de interés');
  // A double click creates one plan (one action, one Idempotency-Key).
  await dialog.getByTestId('plan-confirm').dblclick();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Plan de pago creado.')).toBeVisible();

  const card = panel.getByTestId('plan-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('plan-status')).toHaveText('Activo');
  const states = card.getByTestId('instalment-row');
  await expect(states).toHaveCount(3);
  await expect(states.nth(0)).toHaveAttribute('data-state', 'overdue');
  await expect(states.nth(0).getByTestId('instalment-state')).toHaveText('Vencida');
  await expect(states.nth(1)).toHaveAttribute('data-state', 'pending');
  await expect(panel.getByTestId('plan-create')).toHaveCount(0);
  await checkScreen(page, '/sales/view/:saleId (payment plan)', 'payment-plan-invoice');
  await screenshotAtPhoneWidth(page, 'payment-plan-invoice-390');

  // The overdue list has it.
  await page.goto('/payment-plans?layout_theme=light');
  await expect(new AppLayout(page).title).toHaveText('Planes de pago');
  const overdue = page.getByTestId('plan-instalment-row').filter({ hasText: lastName });
  await expect(overdue).toHaveCount(1);
  await expect(overdue).toContainText('Cuota 1 de 3');
  await expect(overdue).toContainText('20.000,00');
  await checkScreen(page, '/payment-plans', 'payment-plans');
  await screenshotAtPhoneWidth(page, 'payment-plans-390');

  // Collect the first instalment at the front desk, allocated to the invoice.
  await page.goto('/collections/create');
  const form = page.getByTestId('collection-form');
  await pickCustomer(page, lastName);
  await form.getByTestId('collection-amount').fill('20.000');
  await form.getByTestId('collection-method').selectOption('cash_payment');
  await form.getByTestId('collection-propose').click();
  await expect(form.getByTestId('allocation-amount')).toHaveValue('20000.00');
  await form.getByTestId('collection-save').click();
  await expect(page).toHaveURL(/\/collections\/view\/[0-9a-f-]{36}$/);
  // The collection says which instalment it paid.
  await expect(page.getByTestId('collection-instalment')).toContainText('Cuota 1 de 3');
  await checkScreen(page, '/collections/view/:collectionId (instalment)', 'payment-plan-collection');
  // Its receipt says so too ("Cuota 1 de 3"), printed as an image to look at.
  const collectionId = page.url().split('/').at(-1) ?? '';
  const receipt = await fetchPdf(request, `api/collections/${collectionId}/receipt`);
  const receiptText = pdfText(path.join(artifactsDir, 'payment-plan-receipt.pdf'), receipt, { resolution: 60 });
  expect(receiptText).toContain('Recibo de cobro');
  expect(receiptText).toContain('Cuota 1 de 3');

  await page.goto(`/sales/view/${invoice.id}?layout_theme=light`);
  await expect(states.nth(0)).toHaveAttribute('data-state', 'paid');
  await expect(states.nth(0).getByTestId('instalment-state')).toHaveText('Pagada');
  await expect(states.nth(1)).toHaveAttribute('data-state', 'pending');
  await expect(states.nth(1).getByTestId('instalment-state')).toHaveText('Pendiente');
  await expect(card.getByTestId('plan-pending')).toHaveText(/40\.000,00/);
  await checkScreen(page, '/sales/view/:saleId (instalment paid)', 'payment-plan-paid');

  // No longer overdue; the customer's current account lists the plan.
  const headers = await adminHeaders(request);
  const list = await request.get(rootServer.url('api/payment-plans/instalments?view=overdue&pageSize=100'), {
    headers,
  });
  const rows = ((await list.json()) as { data: { documentId: string }[] }).data;
  expect(rows.filter((row) => row.documentId === invoice.id)).toHaveLength(0);
  const plans = await request.get(rootServer.url(`api/payment-plans?documentId=${invoice.id}`), { headers });
  const customerId = ((await plans.json()) as { data: { customerId: string }[] }).data[0]?.customerId;
  await page.goto(`/cc-customers/${customerId}?layout_theme=light`);
  const customerPlans = page.getByTestId('customer-plans');
  await expect(customerPlans.getByTestId('instalment-row')).toHaveCount(3);
  await checkScreen(page, '/cc-customers/:customerId (payment plans)', 'payment-plan-customer-account');
  await screenshotAtPhoneWidth(page, 'payment-plan-customer-account-390');
});

/*
 * A plan on an accepted budget (issue 40): an implant budget of $ 3.000 paid in six monthly
 * instalments before the work. The plan is made from the budget's screen, interest-free; a double
 * click on confirm makes one plan; a collection against the plan pays the first instalment and stays
 * on account; the budget's invoice, issued later, takes that money. Axe clean; screenshots looked at.
 */
test('a plan on an accepted budget: interest-free, collected on account, allocated when invoiced', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const today = demoClinicToday();
  const lastName = `Presupuesto ${tag()}`;
  const patientId = await createPatient(request, {
    firstName: 'Marta',
    lastName,
    sex: 'female',
    birthdate: '1979-03-12',
  });
  const pointOfSale = await apiCreate<{ code: string }>(request, 'api/points-of-sale', {
    code: String(10000 + Math.floor(Math.random() * 89999)),
    name: `Caja ${lastName}`,
  });
  const budget = await apiCreate<{ id: string; number: string }>(request, 'api/sales', {
    documentType: 'budget',
    patientId,
    pointOfService: pointOfSale.code,
    date: today,
    currency: 'argentine_peso',
    lines: [
      { description: 'Implante pieza 36', quantity: '1', unitPrice: '2500', vatRate: '0', tooth: '36' },
      { description: 'Corona sobre implante', quantity: '1', unitPrice: '500', vatRate: '0', tooth: '36' },
    ],
    issue: true,
  });
  await apiCreate(request, `api/sales/${budget.id}/decision`, { decision: 'accepted', decidedOn: today });

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInPage(page, demoUsers.administrator);
  await page.goto(`/sales/view/${budget.id}?layout_theme=light`);
  const panel = page.getByTestId('plan-panel');
  await panel.getByTestId('plan-create').click();
  const dialog = page.getByTestId('plan-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('3.000,00');
  // Interest-free: no rate to type.
  await expect(dialog.getByTestId('plan-interest-free')).toBeVisible();
  await expect(dialog.getByTestId('plan-rate')).toHaveCount(0);
  await dialog.getByTestId('plan-first-due').fill(dayFrom(today, 5));
  await expect(dialog.getByTestId('instalment-row')).toHaveCount(6);
  await expect(dialog.getByTestId('instalment-amount').first()).toHaveText(/500,00/);
  await checkScreen(page, 'the plan dialog of a budget', 'payment-plan-budget-dialog');
  // A double click creates one plan.
  await dialog.getByTestId('plan-confirm').dblclick();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Plan de pago creado.')).toBeVisible();
  const plans = await apiGet<{ total: number; data: { id: string }[] }>(
    request,
    `api/payment-plans?documentId=${budget.id}`,
  );
  expect(plans.total).toBe(1);

  const card = panel.getByTestId('plan-card');
  await expect(card).toHaveCount(1);
  const states = card.getByTestId('instalment-row');
  await expect(states).toHaveCount(6);
  await expect(states.nth(0)).toHaveAttribute('data-state', 'pending');
  await expect(panel.getByTestId('plan-create')).toHaveCount(0);

  // A collection against the plan: the first instalment, on account.
  await card.getByTestId('plan-collect').click();
  const collect = page.getByTestId('plan-collect-dialog');
  await expect(collect.getByTestId('plan-collect-amount')).toHaveValue('500.00');
  await checkScreen(page, 'the collection of a budget plan', 'payment-plan-budget-collect');
  await collect.getByTestId('plan-collect-confirm').dblclick();
  await expect(collect).toBeHidden();
  await expect(states.nth(0)).toHaveAttribute('data-state', 'paid');
  await expect(states.nth(1)).toHaveAttribute('data-state', 'pending');
  await expect(card.getByTestId('plan-pending')).toHaveText(/2\.500,00/);
  await checkScreen(page, '/sales/view/:saleId (budget payment plan)', 'payment-plan-budget');
  await screenshotAtPhoneWidth(page, 'payment-plan-budget-390');
  const balance = await apiGet<{ data: { onAccount: string } }>(request, `api/patients/${patientId}/balance`);
  expect(balance.data.onAccount).toBe('500.00');

  // The budget is invoiced later: its invoice takes the plan's money.
  await page.getByTestId('budget-to-invoice').click();
  await expect(page).not.toHaveURL(new RegExp(budget.id));
  await expect(page).toHaveURL(/\/sales\/(view|edit)\/[0-9a-f-]{36}/);
  const invoiceId = /([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';
  const draft = await apiGet<{ data: { version: number } }>(request, `api/sales/${invoiceId}`);
  const headers = { ...(await adminHeaders(request)), 'Idempotency-Key': crypto.randomUUID() };
  const issued = await request.post(rootServer.url(`api/sales/${invoiceId}/issue`), {
    headers,
    data: { version: draft.data.version },
  });
  expect(issued.status(), await issued.text()).toBe(200);
  const invoice = await apiGet<{ data: { openAmount: string; total: string } }>(request, `api/sales/${invoiceId}`);
  expect(invoice.data).toMatchObject({ total: '3000.00', openAmount: '2500.00' });
});
