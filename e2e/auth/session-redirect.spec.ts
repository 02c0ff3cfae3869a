import { holdSessionCheck, storageKey } from '../fixtures/session';
import { expect, test } from '../fixtures/test';
import { AuthLayout } from '../pages/auth-layout';

test.describe('signed out', () => {
  test('/ and protected deep links end at the sign-in page in the plain layout', async ({ page }) => {
    const auth = new AuthLayout(page);
    for (const path of ['/', '/patients', '/patients/0190a0b0-0000-7000-8000-00000000abcd/mh', '/account/users']) {
      await page.goto(path);

      await expect(page).toHaveURL('/auth/sign-in');
      await expect(auth.heading).toHaveText('Iniciar sesión');
      await expect(auth.languageSelect).toHaveValue('es');
      await expect(auth.card.getByLabel('Correo electrónico')).toBeVisible();
      await expect(page).toHaveTitle('Odontia | Iniciar sesión');
      // The plain layout: no sidebar, no top bar.
      await expect(page.getByRole('navigation', { name: 'Menú principal' })).toHaveCount(0);
      await expect(page.getByRole('banner')).toHaveCount(0);
    }
  });

  test('without a token there is no session check at all', async ({ page }) => {
    const meCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/system/me')) meCalls.push(request.url());
    });

    await page.goto('/dashboard');

    await expect(page).toHaveURL('/auth/sign-in');
    await expect(new AuthLayout(page).heading).toHaveText('Iniciar sesión');
    expect(meCalls).toEqual([]);
  });

  test('with a stale token the spinner shows while the session is checked, then sign-in', async ({ page }) => {
    await page.addInitScript((key) => window.localStorage.setItem(key, 'stale-token'), storageKey('token'));
    const sessionCheck = await holdSessionCheck(page);

    await page.goto('/patients');

    const request = await sessionCheck.requested;
    expect(new URL(request.url()).pathname).toBe('/api/auth/system/me');
    expect(await request.headerValue('authorization')).toBe('Bearer stale-token');
    await expect(page.getByTestId('session-check')).toBeVisible();
    await expect(page.getByTestId('session-check').getByRole('status')).toHaveText('Cargando…');
    await expect(page).toHaveURL('/patients');

    // The real server answers 404 today (no `me` endpoint yet): that is "signed out".
    sessionCheck.release();

    await expect(page).toHaveURL('/auth/sign-in');
    await expect(page.getByTestId('session-check')).toHaveCount(0);
    await expect(new AuthLayout(page).heading).toHaveText('Iniciar sesión');
    // Where the visitor wanted to go is kept for after sign-in.
    expect(await page.evaluate(() => window.history.state?.usr?.from?.pathname)).toBe('/patients');
  });

  test('the real server refuses an unknown token, which means signed out', async ({ page }) => {
    await page.addInitScript((key) => window.localStorage.setItem(key, 'stale-token'), storageKey('token'));
    const answered = page.waitForResponse('**/api/auth/system/me');

    await page.goto('/dashboard');

    // 404 until the session endpoints land on the server, 401 after.
    expect([401, 404]).toContain((await answered).status());
    await expect(page).toHaveURL('/auth/sign-in');
  });
});
