import { addDays } from '@odontia/shared/clinic-time';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, apiGet, createPatient } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { checkDarkThenPhone, checkScreen, openAtPhoneWidth } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Treatment plans (issue 41) in Chromium, in Spanish: a patient with a caries on the 36 and the 48
 * to extract; a plan built from the odontogram's findings (two phases: restorative, surgical), the
 * filling split in two sessions, a price typed "12.500,50" (12 digits refused with the bound);
 * presented and accepted (the budget is made), the extraction booked and carried out in an
 * attendance: the plan shows it done, the progress moves, the odontogram charts the 48 extracted
 * and the follow-up list calls the patient for the rest. Axe clean light and dark; screenshots at
 * 1280, 1024 and 390 px.
 */

type PlanAnswer = {
  data: {
    id: string;
    professionalId: string;
    alternatives: {
      phases: {
        items: { tooth: number | null; sessions: { budgetLineId: string; amount: string; status: string }[] }[];
      }[];
    }[];
  };
};

test('a two-phase plan from the odontogram: accepted, a session booked and performed, progress and chart follow', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const lastName = `Plan ${tag()}`;
  const patientId = await createPatient(request, {
    firstName: 'Julia',
    lastName,
    sex: 'female',
    birthdate: '1984-03-12',
  });
  const charted = await request.post(rootServer.url(`api/patients/${patientId}/odontogram/entries`), {
    headers: await adminHeaders(request),
    data: {
      marks: [
        { tooth: 36, zone: 'occlusal', status: 'caries' },
        { tooth: 48, status: 'to_extract' },
      ],
    },
  });
  expect(charted.status()).toBe(201);
  const tabPath = `/patients/${patientId}/mh?tab=plans`;

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInPage(page, demoUsers.administrator);
  await page.goto(`${tabPath}&layout_theme=light`);
  await expect(page.getByTestId('plans-empty')).toBeVisible();
  await page.getByTestId('plan-new').click();
  const editor = page.getByTestId('plan-editor');
  await expect(editor).toBeVisible();
  await editor.getByTestId('plan-title').fill('Plan de tratamiento inicial');
  // The findings: the caries → a filling (restorative), the 48 → an extraction (surgical).
  await editor.getByTestId('plan-from-odontogram').click();
  await expect(editor.getByTestId('plan-item-editor')).toHaveCount(2);
  // The empty "Básica" phase the new plan starts with goes.
  await editor.getByRole('button', { name: 'Quitar la fase Básica / higiénica' }).click();
  await expect(editor.getByTestId('plan-phase-editor')).toHaveCount(2);
  const filling = editor.getByTestId('plan-item-editor').nth(0);
  const extraction = editor.getByTestId('plan-item-editor').nth(1);
  await expect(filling.getByTestId('plan-item-tooth')).toHaveValue('36');
  await expect(extraction.getByTestId('plan-item-tooth')).toHaveValue('48');
  // The filling in two sessions, half and half.
  await filling.getByTestId('plan-add-session').click();
  await expect(filling.getByTestId('plan-session-share')).toHaveCount(2);
  await expect(filling.getByTestId('plan-session-share').nth(0)).toHaveValue('50');
  // Twelve digits are refused with the bound, "12.500,50" is an amount.
  await extraction.getByTestId('plan-item-price').fill('123456789012');
  await editor.getByTestId('plan-save').click();
  await expect(extraction.getByTestId('plan-item-price')).toHaveClass(/is-invalid/);
  await expect(extraction).toContainText('9.999.999.999,99');
  await extraction.getByTestId('plan-item-price').fill('12.500,50');
  await expect(extraction.getByTestId('plan-item-amount')).toContainText('12.500,50');
  await checkScreen(page, 'plan editor', 'plans-editor-light', { include: '[data-testid="tab-plans"]' });
  await editor.getByTestId('plan-save').click();

  const view = page.getByTestId('plan-view');
  await expect(view).toBeVisible();
  await expect(view.getByTestId('plan-status')).toHaveAttribute('data-status', 'draft');
  await expect(view.getByTestId('plan-phase')).toHaveCount(2);
  await view.getByTestId('plan-present').click();
  await expect(view.getByTestId('plan-status')).toHaveAttribute('data-status', 'presented');
  await view.getByTestId('plan-accept').click();
  await expect(view.getByTestId('plan-status')).toHaveAttribute('data-status', 'accepted');
  await expect(view.getByTestId('plan-budget-link')).toBeVisible();
  await expect(view.getByTestId('plan-session')).toHaveCount(3);

  // Book the extraction (early, before opening hours: the warning is confirmed by the dialog).
  const extractionItem = view.getByTestId('plan-item').nth(1);
  await extractionItem.getByTestId('plan-session-book').click();
  const dialog = page.getByTestId('plan-book-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('plan-book-day').fill(addDays(demoClinicToday(), 2));
  await dialog.getByTestId('plan-book-time').fill('07:10');
  await expectNoAxeViolations(page, 'book a session', '[data-testid="plan-book-dialog"]');
  await dialog.getByTestId('plan-book-confirm').click();
  await expect(dialog).toHaveCount(0);
  await expect(extractionItem.getByTestId('plan-session')).toHaveAttribute('data-status', 'scheduled');

  // The extraction is carried out in an attendance, from the attendance form: its line picks the
  // session's budget line, as the front desk does.
  const plan = await apiGet<PlanAnswer>(request, `api/patients/${patientId}/treatment-plans`).then((list) =>
    apiGet<PlanAnswer>(
      request,
      `api/patients/${patientId}/treatment-plans/${(list.data as unknown as { id: string }[])[0]?.id}`,
    ),
  );
  const items = plan.data.alternatives[0]?.phases.flatMap((phase) => phase.items) ?? [];
  const session = items.find((item) => item.tooth === 48)?.sessions[0];
  expect(session?.amount).toBe('12500.50');
  const planUrl = page.url();
  await page.goto(`/patients/${patientId}/mh`);
  await page.getByTestId('new-attendance').click();
  const form = page.getByTestId('attendance-form');
  await form.getByLabel('Tipo de atención').selectOption('dentistry');
  await form.getByLabel('Título').fill('Extracción del 48');
  await form.getByLabel('Facturable').check();
  await form.getByTestId('line-add').click();
  const line = form.getByTestId('billing-line');
  const budgetLine = line.getByTestId('line-budget');
  const option = budgetLine.locator('option', { hasText: 'Extracción' });
  await expect(option).toHaveCount(1);
  await budgetLine.selectOption((await option.getAttribute('value')) ?? '');
  await expect(line.getByTestId('line-tooth')).toHaveValue('48');
  await expect(form.getByTestId('total-billable')).toContainText('12.500,50');
  await form.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(page.getByText('Atención creada correctamente.')).toBeVisible();
  await expect(page).toHaveURL(/\/mh\/attendance\/show\/[0-9a-f-]{36}$/);

  await page.goto(planUrl);
  await expect(view.getByTestId('plan-item').nth(1)).toHaveAttribute('data-status', 'done');
  await expect(view.getByTestId('plan-progress-done')).toContainText('12.500,50');
  await expect(view.getByTestId('plan-progress-done')).toContainText('1 de 2');
  await checkScreen(page, 'plan in progress', 'plans-progress-light', { include: '[data-testid="tab-plans"]' });
  await page.setViewportSize({ width: 1024, height: 900 });
  await settle(page);
  await saveScreenshot(page, 'plans-progress-1024');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The odontogram charted the extraction.
  await page.goto(`/patients/${patientId}/mh?tab=odontogram&layout_theme=light`);
  await expect(page.getByTestId('tooth-48')).toHaveAttribute('data-piece', 'extracted');
  await saveScreenshot(page, 'plans-odontogram-after-light');

  // The follow-up list calls the patient for the filling.
  await page.goto('/treatment-plans/follow-up?layout_theme=light');
  const row = page.getByTestId('plan-follow-up-row').filter({ hasText: lastName });
  await expect(row).toBeVisible();
  await checkScreen(page, 'plan follow-up', 'plans-follow-up-light', { spinners: true });

  await checkDarkThenPhone(
    page,
    'plans',
    [
      ['tab', tabPath],
      ['follow-up', '/treatment-plans/follow-up'],
    ],
    [
      ['tab', tabPath],
      ['follow-up', '/treatment-plans/follow-up'],
    ],
  );
  await openAtPhoneWidth(page, tabPath);
  await openAtPhoneWidth(page, '/treatment-plans/follow-up');
});
