import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout, NotFoundPage } from '../pages/auth-layout';
import { saveScreenshot } from '../support/artifacts';
import { answerEmptyLists } from '../support/fake-users';
import { settle } from '../support/page';

/*
 * Screenshots for people to look at (e2e/artifacts/*.png, git-ignored); nothing is compared.
 * Each one is taken once the page has settled: fonts loaded, no progress bar, no request left.
 */

test.describe('plain layout', () => {
  test('light', async ({ page }) => {
    await page.goto('/auth/sign-in');
    await expect(new AuthLayout(page).heading).toHaveText('Iniciar sesión');
    await settle(page);
    await saveScreenshot(page, 'plain-light');
  });

  test('dark', async ({ page }) => {
    await page.goto('/auth/sign-in?layout_theme=dark');
    await expect(new AuthLayout(page).heading).toHaveText('Iniciar sesión');
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
    await settle(page);
    await saveScreenshot(page, 'plain-dark');
  });

  test('390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/auth/sign-in');
    await expect(new AuthLayout(page).heading).toHaveText('Iniciar sesión');
    await settle(page);
    await saveScreenshot(page, 'plain-390');
  });

  test('not found', async ({ page }) => {
    await page.goto('/no-existe');
    await expect(new NotFoundPage(page).heading).toHaveText('Página no encontrada');
    await settle(page);
    await saveScreenshot(page, 'not-found-light');
  });
});

test.describe('auth screens', () => {
  const screens = [
    { name: 'sign-up', path: '/auth/sign-up', heading: 'Registra tu clínica' },
    { name: 'forgot-password', path: '/auth/forgot-password', heading: '¿Olvidaste tu contraseña?' },
    { name: 'reset-password', path: '/auth/reset_password/abc', heading: 'Crea una nueva contraseña' },
    { name: 'terms', path: '/auth/terms', heading: 'Términos de uso' },
  ];
  for (const screen of screens) {
    test(`${screen.name}: light, dark and 390 px`, async ({ page }) => {
      await page.route('**/api/auth/reset-password/*', (route) =>
        route.fulfill({ status: 200, json: { data: { valid: true } } }),
      );
      await page.goto(screen.path);
      await expect(new AuthLayout(page).heading).toHaveText(screen.heading);
      await settle(page);
      await saveScreenshot(page, `auth-${screen.name}-light`);
      await page.goto(`${screen.path}?layout_theme=dark`);
      await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
      await settle(page);
      await saveScreenshot(page, `auth-${screen.name}-dark`);
      await page.goto(`${screen.path}?layout_theme=light`);
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(new AuthLayout(page).heading).toHaveText(screen.heading);
      await settle(page);
      await saveScreenshot(page, `auth-${screen.name}-390`);
    });
  }

  test('sign-in and sign-up with their messages', async ({ page }) => {
    await page.route('**/api/auth/sign-in', (route) =>
      route.fulfill({ status: 403, json: { code: 'account_not_activated', message: 'Not activated.' } }),
    );
    await page.goto('/auth/sign-in');
    const auth = new AuthLayout(page);
    await auth.card.getByRole('button', { name: 'Iniciar sesión' }).click();
    await settle(page);
    await saveScreenshot(page, 'auth-sign-in-errors');
    await auth.signIn('ana@clinica.com', 'una frase larga');
    await expect(page.getByTestId('form-error')).toBeVisible();
    await settle(page);
    await saveScreenshot(page, 'auth-sign-in-not-activated');

    await page.goto('/auth/sign-up?layout_theme=dark');
    await auth.card.getByLabel('Tengo un código promocional').check();
    await auth.card.getByRole('button', { name: 'Crear cuenta' }).click();
    await settle(page);
    await saveScreenshot(page, 'auth-sign-up-errors-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await settle(page);
    await saveScreenshot(page, 'auth-sign-up-errors-390');
  });

  test('activation and lock screen', async ({ page, fakeSession }) => {
    void fakeSession;
    await page.route('**/api/auth/activation/*', (route) =>
      route.fulfill({ status: 409, json: { code: 'account_already_activated', message: 'Already.' } }),
    );
    await page.goto('/auth/activation/abc');
    await expect(page.getByTestId('activation-already')).toBeVisible();
    await settle(page);
    await saveScreenshot(page, 'auth-activation-already');

    await page.goto('/dashboard');
    await expect(new AppLayout(page).title).toHaveText('Panel');
    await page.goto('/auth/lock-screen?layout_theme=dark');
    await expect(page.getByTestId('lock-user-name')).toBeVisible();
    await settle(page);
    await saveScreenshot(page, 'auth-lock-screen-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await settle(page);
    await saveScreenshot(page, 'auth-lock-screen-390');
  });
});

test.describe('authenticated layout', () => {
  test('light', async ({ page, fakeSession }) => {
    void fakeSession;
    await page.goto('/patients');
    await expect(new AppLayout(page).title).toHaveText('Pacientes');
    await settle(page);
    await saveScreenshot(page, 'app-light');
  });

  test('light, full menu', async ({ page, fakeSession }) => {
    void fakeSession;
    await answerEmptyLists(page);
    await page.goto('/cc-customers?menu_size=default');
    await expect(new AppLayout(page).title).toHaveText('Cuenta corriente de clientes');
    await settle(page);
    await saveScreenshot(page, 'app-light-full-menu');
  });

  test('dark', async ({ page, fakeSession }) => {
    void fakeSession;
    await page.goto('/patients?layout_theme=dark&topbar_theme=dark&menu_theme=dark&menu_size=default');
    await expect(new AppLayout(page).title).toHaveText('Pacientes');
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
    await settle(page);
    await saveScreenshot(page, 'app-dark');
  });

  test('customizer open', async ({ page, fakeSession }) => {
    void fakeSession;
    const layout = await AppLayout.open(page, '/dashboard', 'Panel');
    await layout.open('customizer');
    await settle(page);
    await saveScreenshot(page, 'app-customizer-open');
  });

  test('activity open, dark', async ({ page, fakeSession }) => {
    void fakeSession;
    const layout = await AppLayout.open(page, '/dashboard?layout_theme=dark', 'Panel');
    await layout.open('activity');
    await settle(page);
    await saveScreenshot(page, 'app-activity-open-dark');
  });

  test.describe('390 px', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('closed and with the sidebar open', async ({ page, fakeSession }) => {
      void fakeSession;
      const layout = await AppLayout.open(page, '/patients', 'Pacientes');
      await settle(page);
      await saveScreenshot(page, 'app-390');

      await layout.menuToggle.click();
      await expect(layout.backdrop).toBeVisible();
      await expect(layout.sidebar).toBeInViewport({ ratio: 1 });
      await settle(page);
      await saveScreenshot(page, 'app-390-sidebar-open');
    });

    test('user menu open', async ({ page, fakeSession }) => {
      void fakeSession;
      const layout = await AppLayout.open(page, '/dashboard', 'Panel');
      await layout.userMenuButton.click();
      await expect(layout.userMenuItem('Cerrar sesión')).toBeVisible();
      await settle(page);
      await saveScreenshot(page, 'app-390-user-menu');
    });
  });
});
