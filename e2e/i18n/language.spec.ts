import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout, NotFoundPage } from '../pages/auth-layout';

const storedLanguage = (page: Page) => page.evaluate(() => window.localStorage.getItem('i18nextLng'));

test('?lng=fr shows French, sets <html lang="fr"> and is remembered', async ({ page }) => {
  await page.goto('/auth/sign-in?lng=fr');

  const auth = new AuthLayout(page);
  await expect(auth.heading).toHaveText('Se connecter');
  await expect(auth.card.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  await expect(auth.card.getByLabel('Adresse e-mail')).toBeVisible();
  await expect(auth.languageSelect).toHaveValue('fr');
  await expect(page).toHaveTitle('Odontia | Se connecter');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  expect(await storedLanguage(page)).toBe('fr');

  // No parameter any more: the cached choice wins over the Spanish browser.
  await page.goto('/no-existe');
  await expect(new NotFoundPage(page).heading).toHaveText('Page introuvable');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
});

test('an unsupported ?lng=xx falls back to English, not to the browser language', async ({ page }) => {
  await page.goto('/auth/sign-in?lng=xx');

  await expect(new AuthLayout(page).heading).toHaveText('Sign in');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page).toHaveTitle('Odontia | Sign in');
});

test.describe('an Argentinian browser', () => {
  test.use({ locale: 'es-AR' });

  test('gets Spanish, lang="es" and dir="ltr", cached in localStorage', async ({ page }) => {
    await page.goto('/auth/sign-in');

    await expect(new AuthLayout(page).heading).toHaveText('Iniciar sesión');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    expect(await storedLanguage(page)).toMatch(/^es\b/);
  });
});

test.describe('a browser in an unsupported language', () => {
  test.use({ locale: 'de-DE' });

  test('gets English', async ({ page }) => {
    await page.goto('/no-existe');

    await expect(new NotFoundPage(page).heading).toHaveText('Page not found');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });
});

test('the select of the plain layout switches the language live and remembers it', async ({ page }) => {
  await page.goto('/auth/sign-in');
  const auth = new AuthLayout(page);
  await expect(auth.heading).toHaveText('Iniciar sesión');

  await auth.languageSelect.selectOption({ label: 'Português' });

  await expect(auth.heading).toHaveText('Entrar');
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt');
  await expect(page).toHaveTitle('Odontia | Entrar');
  expect(await storedLanguage(page)).toBe('pt');

  await page.reload();
  await expect(auth.heading).toHaveText('Entrar');
});

test('the language menu of the top bar switches the language live', async ({ page, fakeSession }) => {
  void fakeSession;
  const layout = await AppLayout.open(page, '/patients?menu_size=default', 'Pacientes');
  // The button shows the code; its name also says what it is ("Idioma: ES").
  await expect(layout.languageButton).toHaveAccessibleName('Idioma: ES');
  await expect(layout.languageButton.locator('.topbar-btn-label')).toHaveText('ES');

  await layout.languageButton.click();
  await page.getByRole('button', { name: 'English' }).click();

  // Every namespace follows without a reload: menu, top bar, page, footer.
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' }),
  ).toBeVisible();
  await expect(page.getByRole('banner').getByRole('heading', { level: 1 })).toHaveText('Patients');
  await expect(page.getByRole('button', { name: 'Language' })).toHaveAccessibleName('Language: EN');
  await expect(page.getByRole('button', { name: 'Switch to dark mode' })).toBeVisible();
  // The page's own texts (namespace 'patients', loaded with the page) follow too.
  await expect(page.getByTestId('patients-empty')).toContainText('No patients yet');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page).toHaveTitle('Odontia | Patients');
  expect(await storedLanguage(page)).toBe('en');

  await page.getByRole('button', { name: 'Language' }).click();
  await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-current', 'true');
  await page.getByRole('button', { name: 'Français' }).click();
  await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page).toHaveTitle('Odontia | Patients');
  await expect(page.getByRole('banner').getByRole('heading', { level: 1 })).toHaveText('Patients');
  await expect(page.getByTestId('patients-empty')).toContainText("Aucun patient pour l'instant");
});
