import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout } from '../pages/auth-layout';
import { setTabVisibility } from '../support/visibility';

const comeBackTitle = 'Odontia · ¡Vuelve pronto, te esperamos!';

test('a hidden tab says come back soon, and gets its title back when shown', async ({ page }) => {
  await page.goto('/auth/sign-in');
  await expect(page).toHaveTitle('Odontia | Iniciar sesión');

  await setTabVisibility(page, 'hidden');
  await expect(page).toHaveTitle(comeBackTitle);

  await setTabVisibility(page, 'visible');
  await expect(page).toHaveTitle('Odontia | Iniciar sesión');

  // Again: hiding twice in a row must not lose the real title.
  await setTabVisibility(page, 'hidden');
  await setTabVisibility(page, 'hidden');
  await expect(page).toHaveTitle(comeBackTitle);
  await setTabVisibility(page, 'visible');
  await expect(page).toHaveTitle('Odontia | Iniciar sesión');
});

test('the come-back title is Spanish in every language', async ({ page }) => {
  await page.goto('/auth/sign-in?lng=en');
  await expect(page).toHaveTitle('Odontia | Sign in');

  await setTabVisibility(page, 'hidden');
  await expect(page).toHaveTitle(comeBackTitle);
  await setTabVisibility(page, 'visible');
  await expect(page).toHaveTitle('Odontia | Sign in');
});

test('a title change while hidden shows up when the tab comes back', async ({ page }) => {
  await page.goto('/auth/sign-in');
  await expect(page).toHaveTitle('Odontia | Iniciar sesión');
  await setTabVisibility(page, 'hidden');

  await new AuthLayout(page).languageSelect.selectOption('en');
  await expect(new AuthLayout(page).heading).toHaveText('Sign in');
  await expect(page).toHaveTitle(comeBackTitle);

  await setTabVisibility(page, 'visible');
  await expect(page).toHaveTitle('Odontia | Sign in');
});

test('navigating inside the app while hidden keeps the come-back title until shown', async ({ page, fakeSession }) => {
  void fakeSession;
  await page.goto('/dashboard?menu_size=default');
  const layout = new AppLayout(page);
  await expect(page).toHaveTitle('Odontia | Panel');

  await setTabVisibility(page, 'hidden');
  await layout.sidebarLink('/calendar').click();
  await expect(layout.title).toHaveText('Agenda');
  await expect(page).toHaveTitle(comeBackTitle);

  await setTabVisibility(page, 'visible');
  await expect(page).toHaveTitle('Odontia | Agenda');
});
