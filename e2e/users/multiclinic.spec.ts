import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle } from '../support/page';
import { createUser, signInPage, signUpClinic } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * One sign-in across clinics (issue 19): a user of the demo clinic is invited as a supervisor by
 * a second clinic; she signs in once, finds both clinics in the user menu and switches with the
 * keyboard; the page reloads into the other clinic's dashboard with her level there.
 */

const demoClinic = 'Clínica Dental Sonrisa';

/** A new activated clinic (through the API and the outbox) whose administrator invites `email`. */
async function clinicInviting(request: APIRequestContext, email: string, clinicName: string): Promise<void> {
  const { token } = await signUpClinic(request, clinicName, '198.51.100.19');
  const invited = await request.post(rootServer.url('api/users'), {
    headers: { Authorization: `Bearer ${token}` },
    data: { completeName: 'Dra. Inés Castro', email, level: 'supervisor' },
  });
  expect(invited.status(), 'invitation').toBe(201);
}

async function openUserMenu(page: Page, layout: AppLayout) {
  await layout.userMenuButton.click();
  const menu = page.locator('.user-menu .dropdown-menu');
  await expect(menu.getByText('Tus clínicas')).toBeVisible();
  return menu;
}

test('a person with two clinics switches from the user menu (keyboard, axe light and dark, 390 px)', async ({
  page,
}) => {
  // Two themes and 390 px, each with axe and a screenshot: more than the default 30 s on a loaded machine.
  test.slow();
  const person = await createUser(page.request, 'user', 'Inés Castro');
  const other = `Clínica Norte ${Date.now() % 100000}`;
  await clinicInviting(page.request, person.email, other);

  await signInPage(page, person.email, person.password);
  const layout = new AppLayout(page);
  for (const theme of ['light', 'dark'] as const) {
    await page.goto(`/dashboard?layout_theme=${theme}`);
    await expect(layout.userMenuButton).toContainText('Usuario');
    await settle(page);
    const menu = await openUserMenu(page, layout);
    // The current clinic is marked, the other one is a button with the level she has there.
    await expect(menu.locator('[aria-current="true"]')).toContainText(demoClinic);
    await expect(menu.getByRole('button', { name: new RegExp(`^Cambiar a ${other}`) })).toContainText('Supervisor');
    await expectNoAxeViolations(page, `the user menu with two clinics (${theme})`, '.user-menu');
    await saveScreenshot(page, `user-menu-clinics-${theme}`, { fullPage: false });
    await page.keyboard.press('Escape');
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard?layout_theme=light');
  await settle(page);
  await openUserMenu(page, layout);
  await expectNoAxeViolations(page, 'the user menu with two clinics at 390 px', '.user-menu');
  await saveScreenshot(page, 'user-menu-clinics-390', { fullPage: false });
  await page.keyboard.press('Escape');

  // With the keyboard: open the menu, arrow down to the other clinic, Enter.
  await layout.userMenuButton.focus();
  await page.keyboard.press('Enter');
  const target = page
    .locator('.user-menu .dropdown-menu')
    .getByRole('button', { name: new RegExp(`^Cambiar a ${other}`) });
  await expect(target).toBeVisible();
  for (let step = 0; step < 8; step += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press('ArrowDown');
  }
  await expect(target).toBeFocused();
  const switched = page.waitForResponse((response) => response.url().endsWith('/api/auth/switch'));
  await page.keyboard.press('Enter');
  expect((await switched).status()).toBe(200);
  await page.waitForURL('**/dashboard');
  await expect(layout.userMenuButton).toContainText('Supervisor');
  const menu = await openUserMenu(page, layout);
  await expect(menu.locator('[aria-current="true"]')).toContainText(other);
  await expect(menu.getByRole('button', { name: new RegExp(`^Cambiar a ${demoClinic}`) })).toContainText('Usuario');
  await page.keyboard.press('Escape');

  // The profile says the password is the same in both clinics.
  await page.goto('/profile');
  await expect(page.getByTestId('profile-password-all-clinics')).toHaveText(
    'Tu correo y tu contraseña son los mismos en tus 2 clínicas: el cambio vale para todas y cierra tus otras sesiones en cada una.',
  );
});

test('a person with one clinic sees no clinic list', async ({ page }) => {
  const person = await createUser(page.request, 'user', 'Julia Benítez');
  await signInPage(page, person.email, person.password);
  await page.goto('/dashboard');
  const layout = new AppLayout(page);
  await layout.userMenuButton.click();
  await expect(layout.userMenuItem('Mi perfil')).toBeVisible();
  await expect(page.locator('.user-menu .dropdown-menu').getByText('Tus clínicas')).toHaveCount(0);
});
