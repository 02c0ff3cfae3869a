import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout, NotFoundPage } from '../pages/auth-layout';

const notFoundPaths = ['/no-existe', '/pages/error-404-alt', '/error-404', '/patients/create/extra/segments'];

for (const path of notFoundPaths) {
  test(`${path} shows the Spanish not-found page; its home link leads through /dashboard to sign-in`, async ({
    page,
  }) => {
    await page.goto(path);

    const notFound = new NotFoundPage(page);
    await expect(notFound.heading).toHaveText('Página no encontrada');
    await expect(notFound.root).toContainText('La página solicitada no existe o cambió de dirección.');
    await expect(notFound.root).toContainText('404');
    await expect(page).toHaveTitle('Odontia | Página no encontrada');
    await expect(page).toHaveURL(path);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');

    await expect(notFound.homeLink).toHaveText('Ir al inicio');
    await notFound.homeLink.click();

    // `/` redirects to /dashboard, which is protected: signed out, it ends at sign-in.
    await expect(page).toHaveURL('/auth/sign-in');
    await expect(new AuthLayout(page).heading).toHaveText('Iniciar sesión');
    expect(await page.evaluate(() => window.history.state?.usr?.from?.pathname)).toBe('/dashboard');
  });
}

test('with a session, the not-found home link opens the dashboard', async ({ page, fakeSession }) => {
  await page.goto('/error-404');
  const notFound = new NotFoundPage(page);
  await expect(notFound.heading).toHaveText('Página no encontrada');
  // The 404 page stays outside the authenticated layout.
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toHaveCount(0);

  await notFound.homeLink.click();

  await expect(page).toHaveURL('/dashboard');
  const layout = new AppLayout(page);
  await expect(layout.title).toHaveText('Panel');
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page).toHaveTitle('Odontia | Panel');
  expect(fakeSession.meRequests.length).toBeGreaterThan(0);
});

test('an unknown API path answers JSON 404, not the web page', async ({ request }) => {
  const response = await request.get('/api/no-existe');
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toContain('application/json');
  expect(await response.json()).toMatchObject({ code: 'route_not_found' });
});
