import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout } from '../pages/auth-layout';

const settingsKey = '__REBACK_NEXT_CONFIG__';

async function storedSettings(page: Page): Promise<unknown> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), settingsKey);
  return raw ? JSON.parse(raw) : null;
}

async function expectHtml(page: Page, attributes: Record<string, string>): Promise<void> {
  const html = page.locator('html');
  for (const [name, value] of Object.entries(attributes)) await expect(html).toHaveAttribute(name, value);
}

const defaults = { theme: 'light', topbarTheme: 'light', menu: { theme: 'light', size: 'sm-hover-active' } };

test('a first visit gets the light theme and the sm-hover-active menu, and saves them', async ({ page }) => {
  await page.goto('/auth/sign-in');
  await expect(new AuthLayout(page).heading).toBeVisible();

  await expectHtml(page, {
    'data-bs-theme': 'light',
    'data-topbar-color': 'light',
    'data-menu-color': 'light',
    'data-menu-size': 'sm-hover-active',
  });
  await expect.poll(() => storedSettings(page)).toEqual(defaults);
});

test.describe('a browser that prefers dark', () => {
  test.use({ colorScheme: 'dark' });

  test('starts in the dark theme', async ({ page }) => {
    await page.goto('/auth/sign-in');
    await expect(new AuthLayout(page).heading).toBeVisible();
    await expectHtml(page, { 'data-bs-theme': 'dark', 'data-menu-size': 'sm-hover-active' });
    await expect.poll(() => storedSettings(page)).toEqual({ ...defaults, theme: 'dark' });
  });
});

test('?layout_theme=dark turns the app dark, is saved and survives a reload without it', async ({ page }) => {
  await page.goto('/auth/sign-in?layout_theme=dark');
  await expect(new AuthLayout(page).heading).toBeVisible();
  await expectHtml(page, { 'data-bs-theme': 'dark' });
  await expect.poll(() => storedSettings(page)).toEqual({ ...defaults, theme: 'dark' });

  await page.goto('/auth/sign-in');
  await expect(new AuthLayout(page).heading).toBeVisible();
  await expectHtml(page, { 'data-bs-theme': 'dark' });
  await page.reload();
  await expect(new AuthLayout(page).heading).toBeVisible();
  await expectHtml(page, { 'data-bs-theme': 'dark' });
});

test('the other query parameters override and are saved; invalid values are ignored', async ({ page }) => {
  await page.goto('/auth/sign-in?topbar_theme=dark&menu_theme=dark&menu_size=condensed');
  await expect(new AuthLayout(page).heading).toBeVisible();
  await expectHtml(page, {
    'data-bs-theme': 'light',
    'data-topbar-color': 'dark',
    'data-menu-color': 'dark',
    'data-menu-size': 'condensed',
  });
  const saved = { theme: 'light', topbarTheme: 'dark', menu: { theme: 'dark', size: 'condensed' } };
  await expect.poll(() => storedSettings(page)).toEqual(saved);

  await page.goto('/auth/sign-in?layout_theme=purple&menu_size=huge&menu_theme=');
  await expect(new AuthLayout(page).heading).toBeVisible();
  await expectHtml(page, { 'data-bs-theme': 'light', 'data-menu-size': 'condensed', 'data-menu-color': 'dark' });
  await expect.poll(() => storedSettings(page)).toEqual(saved);
});

test('a corrupt stored value falls back to the defaults', async ({ page }) => {
  await page.addInitScript((key) => {
    if (!window.sessionStorage.getItem('seeded')) {
      window.sessionStorage.setItem('seeded', '1');
      window.localStorage.setItem(key, '{"theme":"dark","menu":');
    }
  }, settingsKey);
  await page.goto('/auth/sign-in');
  await expect(new AuthLayout(page).heading).toBeVisible();
  await expectHtml(page, { 'data-bs-theme': 'light', 'data-menu-size': 'sm-hover-active' });
  await expect.poll(() => storedSettings(page)).toEqual(defaults);
});

test.describe('with a session', () => {
  test('the top bar toggles light and dark live, and the choice is saved', async ({ page, fakeSession }) => {
    void fakeSession;
    const layout = await AppLayout.open(page, '/dashboard', 'Panel');

    await layout.darkModeButton.click();
    await expectHtml(page, { 'data-bs-theme': 'dark' });
    await expect(layout.lightModeButton).toBeVisible();
    await expect(layout.darkModeButton).toHaveCount(0);
    await expect.poll(() => storedSettings(page)).toMatchObject({ theme: 'dark' });

    await page.reload();
    await expect(layout.lightModeButton).toBeVisible();
    await expectHtml(page, { 'data-bs-theme': 'dark' });

    await layout.lightModeButton.click();
    await expectHtml(page, { 'data-bs-theme': 'light' });
    await expect(layout.darkModeButton).toBeVisible();
    await expect.poll(() => storedSettings(page)).toMatchObject({ theme: 'light' });
  });

  test('the customizer changes colours and the menu size live; reset restores the defaults', async ({
    page,
    fakeSession,
  }) => {
    void fakeSession;
    const layout = await AppLayout.open(page, '/patients', 'Pacientes');
    await expectHtml(page, { 'data-menu-size': 'sm-hover-active' });
    // Icon bar: labels hidden, links keep a tooltip.
    await expect(layout.sidebarLink('/patients')).toHaveAttribute('title', 'Pacientes');
    await expect(layout.sidebarLink('/patients').locator('.menu-text')).toBeHidden();

    const customizer = await layout.open('customizer');
    const size = customizer.getByRole('group', { name: 'Tamaño del menú' });
    await expect(size.getByRole('radio', { name: 'Íconos, se despliega y se puede fijar' })).toBeChecked();

    await size.getByRole('radio', { name: 'Completo' }).check();
    await expectHtml(page, { 'data-menu-size': 'default' });
    await expect(layout.sidebarLink('/patients').locator('.menu-text')).toBeVisible();
    await expect(layout.sidebarLink('/patients')).not.toHaveAttribute('title');
    await expect.poll(() => storedSettings(page)).toMatchObject({ menu: { size: 'default' } });

    await size.getByRole('radio', { name: 'Compacto (solo íconos)' }).check();
    await expectHtml(page, { 'data-menu-size': 'condensed' });

    await size.getByRole('radio', { name: 'Oculto' }).check();
    await expectHtml(page, { 'data-menu-size': 'hidden' });
    await expect(layout.sidebar).not.toBeInViewport();

    await customizer.getByRole('group', { name: 'Esquema de color' }).getByRole('radio', { name: 'Oscuro' }).check();
    await customizer
      .getByRole('group', { name: 'Color de la barra superior' })
      .getByRole('radio', { name: 'Oscuro' })
      .check();
    await customizer.getByRole('group', { name: 'Color del menú' }).getByRole('radio', { name: 'Oscuro' }).check();
    await expectHtml(page, { 'data-bs-theme': 'dark', 'data-topbar-color': 'dark', 'data-menu-color': 'dark' });
    await expect
      .poll(() => storedSettings(page))
      .toEqual({ theme: 'dark', topbarTheme: 'dark', menu: { theme: 'dark', size: 'hidden' } });

    await customizer.getByRole('button', { name: 'Restablecer valores predeterminados' }).click();
    await expectHtml(page, {
      'data-bs-theme': 'light',
      'data-topbar-color': 'light',
      'data-menu-color': 'light',
      'data-menu-size': 'sm-hover-active',
    });
    await expect(page.getByTestId('notification')).toHaveText('Se restableció la apariencia predeterminada.');
    await expect.poll(() => storedSettings(page)).toEqual(defaults);
  });

  test('on a desktop the hamburger opens the full menu for the moment; the pin keeps it', async ({
    page,
    fakeSession,
  }) => {
    void fakeSession;
    const layout = await AppLayout.open(page, '/dashboard', 'Panel');
    await expect(layout.menuToggle).not.toHaveAttribute('aria-expanded');

    await layout.menuToggle.click();
    await expectHtml(page, { 'data-menu-size': 'default' });
    await layout.menuToggle.click();
    await expectHtml(page, { 'data-menu-size': 'sm-hover-active' });
    // Only the configured size is saved, not the hamburger's.
    await expect.poll(() => storedSettings(page)).toMatchObject({ menu: { size: 'sm-hover-active' } });

    await layout.sidebar.hover();
    await page.getByRole('button', { name: 'Fijar el menú abierto' }).click();
    await expectHtml(page, { 'data-menu-size': 'default' });
    await expect.poll(() => storedSettings(page)).toMatchObject({ menu: { size: 'default' } });
    await expect(page.getByRole('button', { name: 'Fijar el menú abierto' })).toHaveCount(0);
  });
});
