import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { saveScreenshot } from '../support/artifacts';
import { settle } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';

/*
 * Screenshots of the profile and users pages for people to look at (e2e/artifacts, git-ignored):
 * light, dark and 390 px, as the demo administrador (nothing is changed).
 */

const screens = [
  { name: 'profile', path: '/profile', title: 'Mi perfil', ready: 'profile-page' },
  { name: 'users', path: '/account/users', title: 'Usuarios', ready: 'user-row' },
];

for (const screen of screens) {
  test(`${screen.name}: light, dark and 390 px`, async ({ page }) => {
    await signInPage(page, demoUsers.administrator);
    const layout = new AppLayout(page);
    for (const [suffix, query] of [
      ['light', '?layout_theme=light'],
      ['dark', '?layout_theme=dark'],
    ] as const) {
      await page.goto(`${screen.path}${query}`);
      await expect(layout.title).toHaveText(screen.title);
      await expect(page.getByTestId(screen.ready).first()).toBeVisible();
      await settle(page);
      await saveScreenshot(page, `${screen.name}-${suffix}`);
    }
    await page.goto(`${screen.path}?layout_theme=light`);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId(screen.ready).first()).toBeVisible();
    await settle(page);
    await saveScreenshot(page, `${screen.name}-390`);
  });
}

test('users: invitation dialog and the 403 page', async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await page.goto('/account/users');
  await page.getByRole('button', { name: 'Invitar usuario' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Enviar la invitación' }).click();
  await expect(page.getByRole('dialog').getByText('Este campo es obligatorio').first()).toBeVisible();
  await settle(page);
  await saveScreenshot(page, 'users-invite-errors');
});

test('403 page of the user level', async ({ page }) => {
  await signInPage(page, demoUsers.user);
  await page.goto('/account/users');
  await expect(page.getByTestId('forbidden')).toBeVisible();
  await settle(page);
  await saveScreenshot(page, 'forbidden-light');
});
