import { readFileSync } from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, createPatient } from '../support/clinic-api';
import { settle, tag, watchRequests } from '../support/page';
import { pdfText } from '../support/pdf';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * Third-party payers (issue 40) in Chromium, in Spanish: an obra social with a plan whose rule is a
 * copay; a patient affiliated on their record; an attendance invoiced with the obra social (the
 * preview splits it, two invoices are issued); the month's presentation built (progress), printed
 * as PDF and downloaded as XLSX, marked sent; a rejection (débito) of the line moved to the patient.
 * Each new screen is checked with axe and shot light and dark at 1280 px and at 390 px, where it
 * must fit. Then a plan edited and refused deletion while a patient is affiliated to it, the
 * affiliation edited and ended, the plan deleted: typed slowly, confirmed with double clicks, Back
 * pressed mid-edit.
 */

const desktop = { width: 1280, height: 800 };
/** '2026-11-30' as the demo users type dates: 30/11/2026. */
const dayMonthYear = (day: string) => day.split('-').reverse().join('/');
const phone = { width: 390, height: 844 };

async function shoot(page: Page, name: string, { fits = true } = {}) {
  await settle(page, { spinners: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, `payers-${name}-light`);
  await expectNoAxeViolations(page, `${name} (light)`);
  // Dark as the theme setting draws it (Bootstrap's colour mode on <html>), the screen as it is now.
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
  await settle(page);
  await saveScreenshot(page, `payers-${name}-dark`);
  await expectNoAxeViolations(page, `${name} (dark)`);
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'light'));
  await page.setViewportSize(phone);
  await settle(page);
  await saveScreenshot(page, `payers-${name}-390`);
  await expectNoAxeViolations(page, `${name} (390)`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  // What is wider than the phone (its own width and what it scrolls), named when it does not fit.
  const wide = await page.evaluate(() =>
    Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.scrollWidth > 391 || element.getBoundingClientRect().width > 391)
      .slice(0, 8)
      .map(
        (element) =>
          `${element.tagName}.${String(element.className).slice(0, 40)} ${Math.round(element.getBoundingClientRect().width)}/${element.scrollWidth}`,
      ),
  );
  if (fits) expect(width, `${name} fits 390 px: ${wide.join(' | ')}`).toBeLessThanOrEqual(phone.width);
  else if (width > phone.width) console.log(`${name} at 390 px is ${width} px wide: ${wide.join(' | ')}`);
  await page.setViewportSize(desktop);
}

test('an obra social: plan with copay, affiliation, two invoices, the month presented, a rejection to the patient', async ({
  page,
  request,
  issues,
}, testInfo: TestInfo) => {
  test.setTimeout(300_000);
  await page.setViewportSize(desktop);
  const suffix = tag();
  const payerName = `Obra Social Andina ${suffix}`;
  const lastName = `Afiliada ${suffix}`;
  const patientId = await createPatient(request, {
    firstName: 'Lucía',
    lastName,
    sex: 'female',
    birthdate: '1990-05-02',
  });
  const today = demoClinicToday();
  // An attendance of today, with a consultation of 1.500,00 (the copay is 300,00).
  const headers = await adminHeaders(request);
  const me = (await (await request.get(rootServer.url('api/auth/system/me'), { headers })).json()) as {
    data: { id: string };
  };
  const attendance = await request.post(rootServer.url(`api/patients/${patientId}/attendances`), {
    headers,
    data: {
      date: `${today}T10:00:00-03:00`,
      attendanceType: 'dentistry',
      professionalId: me.data.id,
      titleResume: 'Consulta de control',
      billable: true,
      attendanceFee: '0',
      lines: [{ description: 'Consulta odontológica', quantity: 1, price: '1500' }],
    },
  });
  expect(attendance.status(), await attendance.text()).toBe(201);

  // The obra social and its plan, on /payers.
  await signInPage(page, demoUsers.administrator);
  await page.goto('/payers');
  await page.getByTestId('payer-name').fill(payerName);
  await page.getByTestId('payer-save').click();
  await expect(page.getByTestId('plans')).toBeVisible();
  await page.getByTestId('plan-name').fill('Plan 210');
  await page.getByTestId('rule-mode').selectOption('copay');
  await page.getByTestId('rule-value').fill('300,00');
  await page.getByTestId('plan-save').click();
  await expect(page.getByTestId('plan')).toContainText('Plan 210');
  await expect(page.getByTestId('plan')).toContainText('Copago');
  await shoot(page, 'payers');

  // The affiliation on the patient's record, then the split preview and the two invoices.
  await page.goto(`/patients/${patientId}/mh?tab=payer`);
  await page.getByTestId('affiliation-payer').selectOption({ label: payerName });
  await page.getByTestId('affiliation-plan').selectOption({ label: 'Plan 210' });
  await page.getByTestId('affiliation-member').fill('210-55555/01');
  await page.getByTestId('affiliation-save').click();
  await expect(page.getByTestId('affiliation-row')).toContainText('210-55555/01');
  await expect(page.getByTestId('split-line')).toHaveCount(1);
  await expect(page.getByTestId('split-patient-total')).toContainText('300,00');
  await expect(page.getByTestId('split-payer-total')).toContainText('1.200,00');
  await shoot(page, 'patient-tab');
  await page.getByTestId('split-issue').dblclick();
  await expect(page.getByTestId('split-patient-invoice')).toBeVisible();
  await expect(page.getByTestId('split-payer-invoice')).toBeVisible();
  await expect(page.getByTestId('split-nothing')).toBeVisible();

  // The month's presentation: built by the job, printed, downloaded, sent.
  await page.goto('/payer-presentations');
  await page.getByTestId('presentation-payer').selectOption({ label: payerName });
  await page.getByTestId('presentation-month').fill(today.slice(0, 7));
  await page.getByTestId('presentation-build').click();
  const row = page.getByTestId('presentation-row').filter({ hasText: payerName });
  await expect(row.getByTestId('presentation-status')).toHaveText('Borrador', { timeout: 30_000 });
  await expect(row).toContainText('1.200,00');
  // The month reads as the interface language says it ("noviembre de 2026"), never "2026-11".
  const monthName = new Intl.DateTimeFormat('es', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${today.slice(0, 7)}-01T00:00:00Z`),
  );
  await expect(row.getByTestId('presentation-period')).toHaveText(monthName);
  await expect(row.getByTestId('presentation-period')).not.toContainText(today.slice(0, 7));
  await shoot(page, 'presentations');

  // The PDF's bytes as the page received them (a route keeps them: the tab shows a blob).
  let pdf: Buffer | null = null;
  await page.route(/presentation\.pdf$/, async (route) => {
    const response = await route.fetch();
    pdf = await response.body();
    await route.fulfill({ response });
  });
  const popup = page.waitForEvent('popup');
  await row.getByTestId('presentation-pdf').click();
  const tab = await popup;
  await expect.poll(() => tab.url()).toMatch(/^blob:/);
  await tab.close();
  await page.unroute(/presentation\.pdf$/);
  if (!pdf) throw new Error('no PDF');
  const pdfFile = testInfo.outputPath('presentacion.pdf');
  const text = pdfText(pdfFile, pdf as Buffer, { resolution: 60 });
  expect(text).toContain(payerName);
  expect(text).toContain('210-55555/01');
  expect(text).toContain('Presentación a la obra social');

  const download = page.waitForEvent('download');
  await row.getByTestId('presentation-xlsx').click();
  const saved = await (await download).path();
  expect(readFileSync(saved).subarray(0, 2).toString()).toBe('PK');

  await row.getByTestId('presentation-send').dblclick();
  await expect(row.getByTestId('presentation-status')).toHaveText('Enviada');

  // A rejection of the line, moved to the patient.
  await row.getByTestId('presentation-show-lines').click();
  const line = page.getByTestId('presentation-line').first();
  await expect(line).toContainText('210-55555/01');
  await line.getByTestId('line-reject').click();
  await page.getByTestId('rejection-amount').fill('1.200,00');
  await page.getByTestId('rejection-reason').fill('Falta la firma del afiliado');
  await page.getByTestId('rejection-destination').selectOption('patient');
  await page.getByTestId('rejection-save').dblclick();
  await expect(page.getByTestId('line-rejection')).toContainText('Al paciente');
  await shoot(page, 'presentation-lines');

  // The patient now owes the copay and the rejected amount: two invoices of theirs are open.
  const sales = await request.get(rootServer.url(`api/sales?q=${encodeURIComponent(lastName)}&pageSize=20`), {
    headers: await adminHeaders(request),
  });
  const invoices = ((await sales.json()).data as { total: string; documentType: string }[]).filter(
    (sale) => sale.documentType === 'invoice',
  );
  expect(invoices.map((sale) => sale.total).sort()).toEqual(['1200.00', '300.00']);
  expect(issues.all()).toEqual([]);
});

test('a plan edited (amounts as typed, stale refused) and kept while a patient is affiliated; the affiliation edited and ended; then the plan deleted', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize(desktop);
  const suffix = tag();
  const payerName = `Mutual Delta ${suffix}`;
  const headers = await adminHeaders(request);
  const patientId = await createPatient(request, {
    firstName: 'Tomás',
    lastName: `Afiliado ${suffix}`,
    sex: 'male',
    birthdate: '1985-03-14',
  });
  const today = demoClinicToday();
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const planWrites = watchRequests(page, ['PUT', 'DELETE'], /\/api\/payers\/[^/]+\/plans\/[^/?]+$/);
  const affiliationWrites = watchRequests(page, ['PUT'], /\/api\/patients\/[^/]+\/affiliations\/[^/?]+$/);

  await signInPage(page, demoUsers.administrator);
  // The staff comes from the dashboard: Back mid-edit returns there (never off the app).
  await page.goto('/');
  await page.goto('/payers');
  await page.getByTestId('payer-name').pressSequentially(payerName, { delay: 280 });
  await page.getByTestId('payer-save').dblclick();
  await expect(page.getByTestId('plans')).toBeVisible();
  await expect(page.getByTestId('payer-row').filter({ hasText: payerName })).toHaveCount(1);
  await page.getByTestId('plan-name').pressSequentially('Plan 310', { delay: 280 });
  await page.getByTestId('rule-value').pressSequentially('70', { delay: 280 });
  await page.getByTestId('plan-save').dblclick();
  const plan = page.getByTestId('plan').filter({ hasText: 'Plan 310' });
  await expect(plan).toContainText('Porcentaje 70 %');
  const payers = (await (await request.get(rootServer.url('api/payers?pageSize=100'), { headers })).json()) as {
    data: { id: string; name: string }[];
  };
  const payerId = payers.data.find((row) => row.name === payerName)?.id as string;
  const planUrl = async () => {
    const plans = (await (await request.get(rootServer.url(`api/payers/${payerId}/plans`), { headers })).json()) as {
      data: { id: string; version: number; name: string; rules: { value: string; mode: string }[] }[];
    };
    return plans.data[0] as (typeof plans.data)[number];
  };
  expect((await planUrl()).version).toBe(1);

  // Edit: a percentage of "12.500,50" is refused on its field; as a fixed amount it is 12.500,50.
  await plan.getByTestId('plan-edit').click();
  const edit = page.getByTestId('plan-edit-form');
  await edit.getByTestId('plan-name').fill('');
  await edit.getByTestId('plan-name').pressSequentially('Plan 320', { delay: 280 });
  await edit.getByTestId('rule-value').fill('');
  await edit.getByTestId('rule-value').pressSequentially('12.500,50', { delay: 280 });
  await edit.getByTestId('plan-save').dblclick();
  await expect(edit.locator('.invalid-feedback')).toHaveText('El valor máximo es 100');
  await edit.getByTestId('rule-mode').selectOption('fixed');
  await edit.getByTestId('rule-add').click();
  await edit.getByTestId('rule-target').nth(1).selectOption({ index: 0 });
  await edit.getByTestId('rule-mode').nth(1).selectOption('copay');
  await edit.getByTestId('rule-value').nth(1).pressSequentially('999999999999', { delay: 280 });
  await shoot(page, 'plan-edit');
  await edit.getByTestId('plan-save').dblclick();
  await expect(edit).toHaveCount(0);
  const edited = page.getByTestId('plan').filter({ hasText: 'Plan 320' });
  await expect(edited.getByTestId('plan-rule').first()).toHaveText(/^Monto fijo .*12\.500,50/);
  await expect(edited.getByTestId('plan-rule').nth(1)).toHaveText(/^Copago .*999\.999\.999\.999,00/);
  // The double click saved once: one edit, version 2 (the refused one wrote nothing).
  const saved = await planUrl();
  expect(saved).toMatchObject({ version: 2, name: 'Plan 320', rules: [{ mode: 'fixed', value: '12500.50' }, {}] });
  await shoot(page, 'plans');

  // Back mid-edit leaves the plan as it was; the edit form opens fresh again.
  await edited.getByTestId('plan-edit').click();
  await page.getByTestId('plan-edit-form').getByTestId('plan-name').pressSequentially(' bis', { delay: 280 });
  await page.goBack();
  await expect(page).not.toHaveURL(/\/payers$/);
  await page.goForward();
  await expect(page).toHaveURL(/\/payers$/);
  await page.getByTestId('payer-row').filter({ hasText: payerName }).getByTestId('payer-plans').click();
  await expect(page.getByTestId('plan').filter({ hasText: 'Plan 320' })).toHaveCount(1);
  expect((await planUrl()).name).toBe('Plan 320');

  // Someone else saves the plan meanwhile: this edit is refused (stale), nothing overwritten.
  await page.getByTestId('plan').filter({ hasText: 'Plan 320' }).getByTestId('plan-edit').click();
  const other = await request.put(rootServer.url(`api/payers/${payerId}/plans/${saved.id}`), {
    headers,
    data: { name: 'Plan 330', active: true, version: saved.version, rules: [{ mode: 'percentage', value: '50' }] },
  });
  expect(other.status(), await other.text()).toBe(200);
  await page.getByTestId('plan-edit-form').getByTestId('plan-name').pressSequentially(' B', { delay: 280 });
  await page.getByTestId('plan-edit-form').getByTestId('plan-save').dblclick();
  await expect(page.getByRole('region', { name: 'Notificaciones' })).toContainText(
    'Otra persona modificó este registro',
  );
  expect((await planUrl()).name).toBe('Plan 330');
  await page.reload();
  await page.getByTestId('payer-row').filter({ hasText: payerName }).getByTestId('payer-plans').click();
  const current = page.getByTestId('plan').filter({ hasText: 'Plan 330' });
  await expect(current).toContainText('Porcentaje 50 %');

  // The patient is affiliated (their record): the plan cannot be deleted, and says why.
  await page.goto(`/patients/${patientId}/mh?tab=payer`);
  await page.getByTestId('affiliation-payer').selectOption({ label: payerName });
  await page.getByTestId('affiliation-plan').selectOption({ label: 'Plan 330' });
  await page.getByTestId('affiliation-member').pressSequentially('330-777/01', { delay: 280 });
  // Affiliated since the start of last year (the end tried below is before it).
  await page.getByTestId('affiliation-from').fill('');
  await page.getByTestId('affiliation-from').pressSequentially('01/01/2025', { delay: 280 });
  await page.getByTestId('affiliation-save').dblclick();
  const affiliation = page.getByTestId('affiliation-row').filter({ hasText: payerName });
  await expect(affiliation).toHaveCount(1);
  await page.goto('/payers');
  await page.getByTestId('payer-row').filter({ hasText: payerName }).getByTestId('payer-plans').click();
  await page.getByTestId('plan').filter({ hasText: 'Plan 330' }).getByTestId('plan-delete').click();
  await page.getByTestId('delete-confirm').dblclick();
  await expect(page.getByTestId('delete-error')).toHaveText(/No puedes eliminar el plan: hay pacientes afiliados/);
  await page.getByTestId('confirm-delete').getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByTestId('plan').filter({ hasText: 'Plan 330' })).toHaveCount(1);

  // The affiliation edited: an end before its start is refused on the field; the member number changes once.
  await page.goto(`/patients/${patientId}/mh?tab=payer`);
  await affiliation.getByTestId('affiliation-edit').click();
  const form = page.getByTestId('affiliation-edit-form');
  await form.getByTestId('affiliation-member').fill('');
  await form.getByTestId('affiliation-member').pressSequentially('330-777/02', { delay: 280 });
  await form.getByTestId('affiliation-to').fill('31/12/2019');
  await form.getByTestId('affiliation-save').dblclick();
  await expect(form.locator('.invalid-feedback')).toBeVisible();
  await expect(form.getByTestId('affiliation-to')).toHaveAttribute('aria-invalid', 'true');
  await form.getByTestId('affiliation-to').fill('');
  await shoot(page, 'affiliation-edit');
  await form.getByTestId('affiliation-save').dblclick();
  await expect(form).toHaveCount(0);
  await expect(affiliation).toContainText('330-777/02');
  await expect(affiliation.getByTestId('affiliation-validity')).toContainText('sin vencimiento');

  // Back mid-edit: nothing saved.
  await affiliation.getByTestId('affiliation-edit').click();
  await page
    .getByTestId('affiliation-edit-form')
    .getByTestId('affiliation-member')
    .pressSequentially('9', { delay: 280 });
  await page.goBack();
  await page.goForward();
  await expect(page.getByTestId('affiliation-row').filter({ hasText: payerName })).toContainText('330-777/02');
  await expect(page.getByTestId('affiliation-row').filter({ hasText: '330-777/029' })).toHaveCount(0);

  // Ended yesterday (the form opens with today; the staff says when it really ended).
  await affiliation.getByTestId('affiliation-end').click();
  const end = page.getByTestId('affiliation-edit-form');
  await expect(end.getByTestId('affiliation-to')).toHaveValue(dayMonthYear(today));
  await end.getByTestId('affiliation-to').fill(dayMonthYear(yesterday));
  await end.getByTestId('affiliation-save').dblclick();
  await expect(end).toHaveCount(0);
  await expect(affiliation.getByTestId('affiliation-validity')).not.toContainText('sin vencimiento');
  await expect(affiliation.getByTestId('affiliation-end')).toHaveCount(0);
  await shoot(page, 'patient-affiliations');
  const affiliations = (await (
    await request.get(rootServer.url(`api/patients/${patientId}/affiliations`), { headers })
  ).json()) as { data: { memberNumber: string; validTo: string | null; version: number }[] };
  expect(affiliations.data).toEqual([
    expect.objectContaining({ memberNumber: '330-777/02', validTo: yesterday, version: 3 }),
  ]);

  // Now the plan goes (a double click deletes it once).
  await page.goto('/payers');
  await page.getByTestId('payer-row').filter({ hasText: payerName }).getByTestId('payer-plans').click();
  await page.getByTestId('plan').filter({ hasText: 'Plan 330' }).getByTestId('plan-delete').click();
  await page.getByTestId('delete-confirm').dblclick();
  await expect(page.getByRole('region', { name: 'Notificaciones' })).toContainText('Plan eliminado.');
  await expect(page.getByTestId('plan')).toHaveCount(0);

  // One request a confirmed action: 2 plan saves (one refused as stale), 2 deletions (one refused in use).
  expect(planWrites.filter((write) => write.startsWith('PUT'))).toHaveLength(3);
  expect(planWrites.filter((write) => write.startsWith('DELETE'))).toHaveLength(2);
  expect(affiliationWrites).toHaveLength(3);
  expect(
    issues.all().filter((issue) => !/HTTP (400|409): (PUT|DELETE) /.test(issue) && !/status of 40[09]/.test(issue)),
  ).toEqual([]);
});
