import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout, NotFoundPage } from '../pages/auth-layout';
import { areas } from '../support/areas';
import { answerEmptyLists } from '../support/fake-users';

test('the pages are served with a strict Content-Security-Policy', async ({ page }) => {
  const response = await page.goto('/auth/sign-in');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("style-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
});

test('the CSP watcher does catch a violation (so silence below means something)', async ({ page, issues }) => {
  await page.goto('/auth/sign-in');
  await expect(new AuthLayout(page).heading).toBeVisible();

  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.head.append(script);
  });

  await expect.poll(() => issues.cspViolations.length).toBeGreaterThan(0);
  expect(issues.cspViolations[0]).toContain('script-src');
  expect(await page.evaluate(() => 'inlineRan' in window || '__inlineRan' in window)).toBe(false);
});

test('public pages: no console error, CSP violation or failed request', async ({ page, issues }) => {
  const auth = new AuthLayout(page);
  // The activation page calls the server as it opens; answer it here, the real flow has its own test.
  await page.route('**/api/auth/activation/*', (route) =>
    route.fulfill({ status: 200, json: { code: 'account_activated' } }),
  );
  // The reset page checks its link as it opens: this one is valid.
  await page.route('**/api/auth/reset-password/*', (route) =>
    route.fulfill({ status: 200, json: { data: { valid: true } } }),
  );
  const publicPages: [string, string][] = [
    ['/auth/sign-in', 'Iniciar sesión'],
    ['/auth/sign-up', 'Registra tu clínica'],
    ['/auth/forgot-password', '¿Olvidaste tu contraseña?'],
    ['/auth/reset_password/abc', 'Crea una nueva contraseña'],
    ['/auth/activation/abc', '¡Tu cuenta está activa!'],
    ['/auth/terms', 'Términos de uso'],
    // Without a session there is nothing to unlock.
    ['/auth/lock-screen', 'Iniciar sesión'],
  ];
  for (const [path, heading] of publicPages) {
    await page.goto(path);
    await expect(auth.heading).toHaveText(heading);
  }
  await page.goto('/auth');
  await expect(page).toHaveURL('/auth/sign-in');

  await auth.languageSelect.selectOption('fr');
  await expect(auth.heading).toHaveText('Se connecter');

  await page.goto('/no-existe?layout_theme=dark');
  await expect(new NotFoundPage(page).heading).toHaveText('Page introuvable');

  await page.waitForLoadState('networkidle');
  expect(issues.all()).toEqual([]);
});

test('authenticated pages and panels: no console error, CSP violation or failed request', async ({
  page,
  fakeSession,
  issues,
}) => {
  void fakeSession;
  await answerEmptyLists(page);
  const layout = await AppLayout.open(page, '/dashboard', 'Panel');

  // The dropdowns (Popper), both off-canvas panels, a notification, dark mode, another language.
  await layout.userMenuButton.click();
  await expect(layout.userMenuItem('Mi perfil')).toBeVisible();
  await page.keyboard.press('Escape');

  await layout.open('activity');
  await page.keyboard.press('Escape');
  await expect(layout.activityStream).toBeHidden();

  const customizer = await layout.open('customizer');
  await customizer.getByRole('group', { name: 'Tamaño del menú' }).getByRole('radio', { name: 'Completo' }).check();
  await customizer.getByRole('button', { name: 'Restablecer valores predeterminados' }).click();
  await expect(page.getByTestId('notification')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(layout.customizer).toBeHidden();

  await layout.darkModeButton.click();
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');

  const visited = ['/patients', '/medications', '/collections', '/cc-providers', '/settings', '/account/users'];
  for (const area of areas.filter((candidate) => visited.includes(candidate.path))) {
    await layout.follow(area.path, area.group);
    await expect(page).toHaveURL(area.path);
    await expect(layout.title).toHaveText(area.title);
  }

  await layout.languageButton.click();
  await page.getByRole('button', { name: 'Português' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Mostrar ou ocultar o menu' }).click();
  await expect(layout.backdrop).toBeVisible();

  await page.waitForLoadState('networkidle');
  expect(issues.all()).toEqual([]);
});
