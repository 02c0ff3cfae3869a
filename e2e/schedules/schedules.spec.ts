import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { checkScreen, openAtPhoneWidth } from '../support/screens';

/*
 * /schedules against the real server with the demo clinic (issue 16): the clinic's week (a
 * recess on Saturday survives a reload), a field error shown by its field, a professional's
 * vacation, a new treatment; axe and screenshots in light, dark and at 390 px.
 */

const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

test("the clinic's week takes a recess on Saturday, saves and shows it after a reload", async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await page.goto('/schedules');
  const week = page.getByTestId('clinic-week-editor');
  const saturday = week.getByTestId('day-saturday');
  await expect(saturday.getByTestId('range-opening').first()).toHaveValue('09:00');
  await saturday.getByTestId('range-recessStart').first().fill('11:00');
  await saturday.getByTestId('range-recessEnd').first().fill('11:30');
  await week.getByTestId('week-save').click();
  await expect(page.getByText('Horarios de atención guardados correctamente.')).toBeVisible();
  await page.reload();
  await settle(page, { spinners: true });
  const reloaded = page.getByTestId('clinic-week-editor').getByTestId('day-saturday');
  await expect(reloaded.getByTestId('range-recessStart').first()).toHaveValue('11:00');
  await expect(reloaded.getByTestId('range-recessEnd').first()).toHaveValue('11:30');
});

test('a closing before the opening is shown by its field, and nothing is saved', async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await page.goto('/schedules');
  const week = page.getByTestId('clinic-week-editor');
  const monday = week.getByTestId('day-monday');
  const closing = monday.getByTestId('range-closing').first();
  await closing.fill('08:00');
  await week.getByTestId('week-save').click();
  await expect(closing).toHaveAttribute('aria-invalid', 'true');
  await expect(monday.getByText('Debe ser posterior al inicio')).toBeVisible();
  await expect(closing).toBeFocused();
  await page.reload();
  await expect(
    page.getByTestId('clinic-week-editor').getByTestId('day-monday').getByTestId('range-closing').first(),
  ).toHaveValue('20:00');
});

test("a professional's vacation is added as an exception", async ({ page }) => {
  const reason = `Vacaciones ${stamp()}`;
  await signInPage(page, demoUsers.administrator);
  await page.goto('/schedules');
  await page.getByTestId('exception-new').click();
  const dialog = page.getByRole('dialog', { name: 'Nueva excepción' });
  await dialog.getByLabel('Tipo').selectOption({ label: 'Vacaciones' });
  await dialog.getByLabel('Para').selectOption({ label: 'Martín Sosa' });
  const today = demoClinicToday();
  await dialog.getByLabel('Desde').fill(today);
  await dialog.getByLabel('Hasta (último día)').fill(today);
  await dialog.getByLabel('Motivo').fill(reason);
  await dialog.getByTestId('record-save').click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('exception-row').filter({ hasText: reason });
  await expect(row).toContainText('Martín Sosa');
  await expect(row).toContainText('Vacaciones');
});

test('a treatment is added with its duration in the price list and listed in the schedules', async ({ page }) => {
  const name = `Carillas ${stamp()}`;
  await signInPage(page, demoUsers.administrator);
  await page.goto('/schedules');
  await page.getByTestId('treatments-price-list').click();
  await expect(page).toHaveURL(/\/price-list/);
  await page.getByTestId('treatment-new').click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo tratamiento' });
  await dialog.getByLabel('Nombre').fill(name);
  await dialog.getByLabel('Duración (minutos)').fill('75');
  await dialog.getByTestId('record-save').click();
  await expect(dialog).toBeHidden();
  await page.goto('/schedules');
  await expect(page.getByTestId('treatment-row').filter({ hasText: name })).toContainText('75 minutos');
});

test('a user without settings.manage reads the weeks and can still add a block', async ({ page }) => {
  await signInPage(page, demoUsers.user);
  await page.goto('/schedules');
  await expect(page.getByTestId('schedules-read-only')).toBeVisible();
  await expect(page.getByTestId('clinic-week-editor').getByTestId('week-save')).toHaveCount(0);
  await expect(page.getByTestId('treatments-price-list')).toHaveCount(0);
  await expect(page.getByTestId('exception-new')).toBeVisible();
});

for (const theme of ['light', 'dark'] as const) {
  test(`the page passes axe and is captured, ${theme}`, async ({ page }) => {
    await signInPage(page, demoUsers.administrator);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/schedules?layout_theme=${theme}`);
    await checkScreen(page, `/schedules (${theme})`, `schedules-${theme}`, { spinners: true });
    await page.getByTestId('exception-new').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoAxeViolations(page, `/schedules exception dialog (${theme})`);
    await saveScreenshot(page, `schedules-exception-dialog-${theme}`, { fullPage: false });
  });
}

test('the page at 390 px', async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await openAtPhoneWidth(page, '/schedules');
  await saveScreenshot(page, 'schedules-390');
  await saveScreenshot(page, 'schedules-390-top', { fullPage: false });
  await page.getByTestId('exceptions-section').scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'schedules-390-exceptions', { fullPage: false });
});
