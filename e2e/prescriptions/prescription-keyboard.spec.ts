import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { createPatient, totalOf } from '../support/clinic-api';
import { settle, watchRequests } from '../support/page';
import { demoUsers, openAsAdministrator, signInPage } from '../support/real-users';

/*
 * Issue 14: on "Nueva receta", Enter in the medicine field while the catalogue's suggestions were
 * open saved the whole prescription with the half-typed text. The medicine is now a combobox:
 * arrows move through the suggestions, Enter picks the highlighted one, Escape closes, Tab leaves,
 * and Enter never submits the prescription, from the medicine or from any line field.
 */

/** A patient of the test's own, so the number of their prescriptions says whether one was saved. */
const newPatient = (request: APIRequestContext) =>
  createPatient(request, {
    firstName: 'Lucía',
    lastName: `Teclado ${Date.now()}`,
    sex: 'female',
    birthdate: '1990-03-14',
  });

const prescriptionsOf = (request: APIRequestContext, patientId: string) =>
  totalOf(request, `api/patients/${patientId}/prescriptions`);

test('typing "amoxi" then Enter never saves; ArrowDown and Enter pick the suggestion; no prescription is created', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const patientId = await newPatient(request);
  // Every POST of a prescription the page sends (there must be none).
  const saves = watchRequests(page, ['POST'], /\/api\/patients\/[^/]+\/prescriptions$/);
  await openAsAdministrator(page, `/patients/${patientId}/mh/prescription/new`);
  const form = page.getByTestId('prescription-form');
  const medicine = form.getByTestId('line-medicine');

  // The reported case: "amoxi", the suggestions open, Enter. Nothing is saved.
  await medicine.fill('amoxi');
  await expect(page.getByTestId('medicine-option').first()).toBeVisible();
  await medicine.press('Enter');
  await page.waitForTimeout(500);
  expect(saves, 'Enter with the suggestions open sent no prescription').toEqual([]);
  await expect(page).toHaveURL(/\/mh\/prescription\/new$/);
  await expect(medicine).toHaveValue('amoxi');
  await expect(medicine).toBeFocused();
  await expect(medicine).toHaveRole('combobox');
  await expect(medicine).toHaveAttribute('aria-expanded', 'false');

  // ArrowDown opens the suggestions again and highlights the first; Enter picks it.
  const options = page.getByRole('listbox').getByRole('option');
  await medicine.press('ArrowDown');
  await expect(medicine).toHaveAttribute('aria-expanded', 'true');
  const first = options.first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(medicine).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id')) ?? 'missing');
  const name = (await first.getAttribute('data-name')) ?? '';
  expect(name).toMatch(/^Amoxicilina/);
  await medicine.press('Enter');
  await expect(medicine).toHaveValue(name);
  await expect(form.getByTestId('line-catalogue')).toBeVisible();
  await expect(medicine).toHaveAttribute('aria-expanded', 'false');
  await expect(page).toHaveURL(/\/mh\/prescription\/new$/);

  // Enter in a line field (the dose) moves on to the next field; it does not save either.
  await form.getByTestId('line-dose').fill('1 comprimido');
  await form.getByTestId('line-dose').press('Enter');
  await expect(form.getByTestId('line-frequency')).toBeFocused();
  await form.getByTestId('line-frequency').fill('cada 8 horas');
  await form.getByTestId('line-frequency').press('Enter');
  await expect(form.getByTestId('line-duration')).toBeFocused();
  await form.getByTestId('line-instructions').fill('Después de las comidas');
  await form.getByTestId('line-instructions').press('Enter');
  await expect(page).toHaveURL(/\/mh\/prescription\/new$/);

  // A second line: the same keys work there too.
  await form.getByTestId('line-add').click();
  const second = form.getByTestId('prescription-line').nth(1).getByTestId('line-medicine');
  await second.fill('ibupro');
  await expect(options.first()).toBeVisible();
  await second.press('Enter');
  await expect(page).toHaveURL(/\/mh\/prescription\/new$/);

  expect(saves, 'no prescription was sent').toEqual([]);
  expect(await prescriptionsOf(request, patientId)).toBe(0);
  expect(issues.all()).toEqual([]);
});

test('the medicine suggestions with the keyboard: arrows, Escape, Tab; name and detail apart; axe; screenshots', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const patientId = await newPatient(request);
  await signInPage(page, demoUsers.administrator);
  const path = `/patients/${patientId}/mh/prescription/new`;
  await page.goto(path);
  const form = page.getByTestId('prescription-form');
  const medicine = form.getByTestId('line-medicine');
  const options = page.getByRole('listbox').getByRole('option');

  await medicine.fill('a');
  await expect(options.nth(1)).toBeVisible();
  // Down, down, up: the highlight follows; the listbox is named and controlled by the field.
  await medicine.press('ArrowDown');
  await medicine.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'false');
  await medicine.press('ArrowUp');
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
  const listId = await page.getByRole('listbox').getAttribute('id');
  await expect(medicine).toHaveAttribute('aria-controls', listId ?? 'missing');
  // Escape closes and keeps the text; ArrowDown opens again.
  await medicine.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(medicine).toHaveAttribute('aria-expanded', 'false');
  await expect(medicine).toHaveValue('a');
  await medicine.press('ArrowDown');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  // Tab leaves the field (to the dose) and closes the list without picking.
  await medicine.press('Tab');
  await expect(form.getByTestId('line-dose')).toBeFocused();
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(medicine).toHaveValue('a');

  // Each suggestion: the name on its line, the detail (active principle, concentration…) on its own.
  await medicine.fill('Amoxicilina 500');
  const amoxicillin = page.locator('[role="option"][data-name="Amoxicilina 500 mg"]');
  await expect(amoxicillin).toBeVisible();
  const nameBox = await amoxicillin.getByTestId('option-name').boundingBox();
  const detailBox = await amoxicillin.getByTestId('option-detail').boundingBox();
  expect(nameBox && detailBox && detailBox.y >= nameBox.y + nameBox.height - 1, 'detail below the name').toBe(true);
  await expect(amoxicillin.getByTestId('option-detail')).toContainText('Amoxicilina · 500 mg');
  // Read aloud, name and detail are two phrases, not "500 mgAmoxicilina".
  expect(await amoxicillin.textContent()).not.toMatch(/mgAmoxicilina/);

  // Screenshots with the list open and an option highlighted: light, dark, 390 px; axe on each.
  for (const [theme, width] of [
    ['light', 1280],
    ['dark', 1280],
    ['light', 390],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.goto(`${path}?layout_theme=${theme}`);
    await settle(page);
    await form.getByTestId('line-medicine').fill('a');
    await expect(options.nth(2)).toBeVisible();
    await form.getByTestId('line-medicine').press('ArrowDown');
    await form.getByTestId('line-medicine').press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await saveScreenshot(page, `prescription-suggestions-${width === 390 ? '390' : theme}`);
    await expectNoAxeViolations(
      page,
      `prescription suggestions (${theme}, ${width} px)`,
      '[data-testid="prescription-lines"]',
    );
    if (width === 390) {
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scroll, 'the form with its suggestions fits 390 px').toBeLessThanOrEqual(390);
      const box = await page.getByRole('listbox').boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390, 'the list fits the phone').toBe(true);
    }
  }
  expect(issues.all()).toEqual([]);
});
