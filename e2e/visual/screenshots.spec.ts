import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout, NotFoundPage } from '../pages/auth-layout';
import { saveScreenshot } from '../support/artifacts';

/*
 * Screenshots for people to look at (e2e/artifacts/*.png, git-ignored); nothing is compared.
 * Each one is taken once the page has settled: fonts loaded, no progress bar, no request left.
 */

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await expect(page.getByRole('progressbar')).toHaveCount(0);
}

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
    await page.goto('/cc-providers?menu_size=default');
    await expect(new AppLayout(page).title).toHaveText('Cuenta corriente de proveedores');
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
    await page.goto('/dashboard');
    const layout = new AppLayout(page);
    await expect(layout.title).toHaveText('Panel');
    await layout.open('customizer');
    await settle(page);
    await saveScreenshot(page, 'app-customizer-open');
  });

  test('activity open, dark', async ({ page, fakeSession }) => {
    void fakeSession;
    await page.goto('/dashboard?layout_theme=dark');
    const layout = new AppLayout(page);
    await expect(layout.title).toHaveText('Panel');
    await layout.open('activity');
    await settle(page);
    await saveScreenshot(page, 'app-activity-open-dark');
  });

  test.describe('390 px', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('closed and with the sidebar open', async ({ page, fakeSession }) => {
      void fakeSession;
      await page.goto('/patients');
      const layout = new AppLayout(page);
      await expect(layout.title).toHaveText('Pacientes');
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
      await page.goto('/dashboard');
      const layout = new AppLayout(page);
      await expect(layout.title).toHaveText('Panel');
      await layout.userMenuButton.click();
      await expect(layout.userMenuItem('Cerrar sesión')).toBeVisible();
      await settle(page);
      await saveScreenshot(page, 'app-390-user-menu');
    });
  });
});
