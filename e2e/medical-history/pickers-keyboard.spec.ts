import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { createPatient, totalOf } from '../support/clinic-api';
import { watchRequests } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';

/*
 * Issue 14, every clinical form with a picker or line fields: the attendance's supplies and
 * medicines are picked from a combobox with the keyboard (arrows, Enter), and Enter in a picker, a
 * billing line, a quantity, the ICD-10 code or an authorization's fields never saves the record.
 */

const newPatient = (request: APIRequestContext) =>
  createPatient(request, {
    firstName: 'Andrés',
    lastName: `Selectores ${Date.now()}`,
    sex: 'male',
    birthdate: '1982-07-21',
  });

test('attendance: supplies and medicines picked with the keyboard; Enter in pickers and lines never saves', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const patientId = await newPatient(request);
  // Every write (POST/PUT) of a clinical record the page sends.
  const writes = watchRequests(page, ['POST', 'PUT'], /\/api\/patients\//);
  await signInPage(page, demoUsers.administrator);
  await page.goto(`/patients/${patientId}/mh/attendance/new`);
  const form = page.getByTestId('attendance-form');
  // Everything a save needs is filled in, so only the keys decide whether it is sent.
  await form.getByRole('textbox', { name: 'Título', exact: true }).fill('Control');
  await form.getByRole('combobox', { name: 'Tipo de atención' }).selectOption({ index: 1 });

  // Supplies: Enter while the suggestions are open saves nothing and adds nothing.
  const supplies = form.getByTestId('search-supply').locator('input');
  await supplies.fill('a');
  await expect(page.getByTestId('item-add').first()).toBeVisible();
  await supplies.press('Enter');
  await page.waitForTimeout(500);
  expect(writes, 'Enter in the supplies search sent no attendance').toEqual([]);
  await expect(page).toHaveURL(/\/mh\/attendance\/new$/);
  await expect(form.getByTestId('used-item')).toHaveCount(0);
  // A combobox: ArrowDown, ArrowDown, Enter adds the highlighted supply with quantity 1.
  await expect(supplies).toHaveRole('combobox');
  const options = page.getByRole('listbox').getByRole('option');
  await supplies.press('ArrowDown');
  await supplies.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  const supplyName = (await options.nth(1).getAttribute('data-name')) ?? '';
  await saveScreenshot(page, 'attendance-supplies-picker-light');
  await supplies.press('Enter');
  await expect(form.locator(`[data-testid="used-item"][data-name="${supplyName}"]`)).toBeVisible();
  await expect(supplies).toHaveValue('');
  // The picked item's quantity takes the focus (the next thing to type).
  await expect(form.locator(`[data-testid="used-item"][data-name="${supplyName}"]`).getByRole('textbox')).toBeFocused();
  // Escape closes the list.
  await supplies.fill('a');
  await expect(options.first()).toBeVisible();
  await supplies.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);

  // Medicines: the same keys.
  const medicines = form.getByTestId('search-medication').getByRole('combobox');
  await medicines.fill('amoxi');
  await expect(options.first()).toBeVisible();
  await medicines.press('ArrowDown');
  await medicines.press('Enter');
  await expect(form.getByTestId('used-medications').getByTestId('used-item')).toHaveCount(1);
  await expectNoAxeViolations(page, 'attendance form with its pickers', '[data-testid="stock-used"]');

  // Enter in a quantity or in a billing line moves on; it does not save the attendance.
  const quantity = form.getByTestId('used-supplies').getByTestId('used-item').first().getByRole('textbox');
  await quantity.fill('2');
  await quantity.press('Enter');
  await form.getByTestId('line-add').click();
  const description = form.getByTestId('billing-line').first().getByLabel('Descripción');
  await description.fill('Limpieza');
  await description.press('Enter');
  await expect(form.getByTestId('billing-line').first().getByLabel('Cantidad')).toBeFocused();
  await form.getByRole('textbox', { name: 'Título', exact: true }).press('Enter');
  await page.waitForTimeout(300);
  await expect(page).toHaveURL(/\/mh\/attendance\/new$/);
  expect(writes, 'no attendance was sent').toEqual([]);
  expect(await totalOf(request, `api/patients/${patientId}/attendances`)).toBe(0);
  expect(issues.all()).toEqual([]);
});

test('diagnosis and authorization: Enter in the ICD-10 code, a tooth or a field never saves', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const patientId = await newPatient(request);
  // Every write (POST/PUT) of a clinical record the page sends.
  const writes = watchRequests(page, ['POST', 'PUT'], /\/api\/patients\//);
  await signInPage(page, demoUsers.administrator);

  await page.goto(`/patients/${patientId}/mh/diagnosis/new`);
  const diagnosis = page.getByTestId('diagnosis-form');
  await diagnosis.getByLabel('Diagnóstico').fill('Caries oclusal');
  await diagnosis.getByLabel('Código CIE-10').fill('K02.1');
  await diagnosis.getByLabel('Código CIE-10').press('Enter');
  await page.waitForTimeout(500);
  expect(writes, 'Enter in the ICD-10 code sent no diagnosis').toEqual([]);
  // A tooth is a toggle: Enter and Space toggle it, nothing else.
  const tooth = diagnosis.getByRole('button', { name: 'Pieza 36', exact: true });
  await tooth.focus();
  await page.keyboard.press('Enter');
  await expect(tooth).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press(' ');
  await expect(tooth).toHaveAttribute('aria-pressed', 'false');
  await page.waitForTimeout(300);
  await expect(page).toHaveURL(/\/mh\/diagnosis\/new$/);
  expect(await totalOf(request, `api/patients/${patientId}/diagnoses`)).toBe(0);

  await page.goto(`/patients/${patientId}/mh/authorization/new`);
  const authorization = page.getByTestId('authorization-form');
  const template = authorization.getByTestId('template-select');
  await expect(template.locator('option').nth(1)).toBeAttached();
  await template.selectOption({ index: 1 });
  await authorization.getByTestId('authorization-treatment').fill('Extracción de 38');
  await authorization.getByTestId('authorization-treatment').press('Enter');
  await authorization.getByTestId('authorization-cost').fill('1500');
  await authorization.getByTestId('authorization-cost').press('Enter');
  await authorization.getByTestId('authorization-title').press('Enter');
  await page.waitForTimeout(300);
  await expect(page).toHaveURL(/\/mh\/authorization\/new$/);
  expect(await totalOf(request, `api/patients/${patientId}/authorizations`)).toBe(0);
  expect(writes, 'no record was sent').toEqual([]);
  expect(issues.all()).toEqual([]);
});
