import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout, NotFoundPage } from '../pages/auth-layout';
import { areas } from '../support/areas';
import { basePathServer } from '../support/servers';

/** Everything under BASE_PATH=/clinica/ (the second server of playwright.config.ts). */
const base = basePathServer;

test('/clinica/ ends at /clinica/auth/sign-in with every asset loaded and no error', async ({ page, issues }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));

  await page.goto(base.url());

  await expect(page).toHaveURL(base.url('auth/sign-in'));
  const auth = new AuthLayout(page);
  await expect(auth.heading).toHaveText('Iniciar sesión');
  await expect(page).toHaveTitle('Odontia | Iniciar sesión');
  expect(await page.evaluate(() => document.baseURI)).toBe(base.url());

  // The stylesheet really applied (Bootstrap's card, the app's own layout).
  await expect(auth.card).toHaveCSS('border-radius', /px/);
  expect(
    await page.evaluate(() => Array.from(document.styleSheets).reduce((n, sheet) => n + sheet.cssRules.length, 0)),
  ).toBeGreaterThan(100);

  await page.waitForLoadState('networkidle');
  expect(requested.length).toBeGreaterThan(3);
  for (const url of requested) expect(url.startsWith(base.url()), url).toBe(true);
  expect(issues.all()).toEqual([]);
});

test('the server sends the bare origin and /clinica to the base path', async ({ page }) => {
  await page.goto(`${base.origin}/`);
  await expect(page).toHaveURL(base.url('auth/sign-in'));

  await page.goto(`${base.origin}/clinica`);
  await expect(page).toHaveURL(base.url('auth/sign-in'));
});

test('the API lives under /clinica/api only', async ({ request }) => {
  const health = await request.get(base.url('api/health'));
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', database: 'pglite' });

  const outside = await request.get(`${base.origin}/api/health`);
  expect(outside.status()).toBe(404);
  expect(outside.headers()['content-type']).toContain('application/json');
});

test('with a session, a deep link renders the layout and every link keeps the /clinica/ prefix', async ({
  page,
  fakeSession,
  issues,
}) => {
  await page.goto(base.url('patients?menu_size=default'));

  const layout = new AppLayout(page);
  await expect(layout.title).toHaveText('Pacientes');
  // The patients list, its API call under the base path too (the fake clinic has none).
  await expect(page.getByTestId('patients-empty')).toBeVisible();
  await expect(page).toHaveURL(base.url('patients?menu_size=default'));

  // The session check went to the API under the base path, with the token.
  expect(fakeSession.meRequests.length).toBeGreaterThan(0);
  for (const request of fakeSession.meRequests) {
    expect(new URL(request.url()).pathname).toBe('/clinica/api/auth/system/me');
    expect(await request.headerValue('authorization')).toBe('Bearer e2e-fake-session-token');
  }

  await expect(layout.sidebarLink('/patients')).toHaveAttribute('aria-current', 'page');
  const hrefs = await layout.nav.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
  expect(hrefs.length).toBe(areas.length);
  for (const href of hrefs) expect(href).toMatch(/^\/clinica\/[a-z]/);
  await expect(page.getByRole('link', { name: 'Odontia: ir al panel' })).toHaveAttribute('href', '/clinica/dashboard');

  await layout.sidebarLink('/calendar').click();
  await expect(page).toHaveURL(base.url('calendar'));
  await expect(layout.title).toHaveText('Agenda');
  await expect(page).toHaveTitle('Odontia | Agenda');

  await layout.userMenuButton.click();
  await expect(layout.userMenuItem('Mi perfil')).toHaveAttribute('href', '/clinica/profile');
  await layout.userMenuItem('Cerrar sesión').click();

  await expect(page).toHaveURL(base.url('auth/sign-in'));
  expect(fakeSession.signOutRequests.map((request) => new URL(request.url()).pathname)).toEqual([
    '/clinica/api/auth/sign-out',
  ]);
  expect(issues.all()).toEqual([]);
});

test('an unknown page under the base path shows the not-found page and links home under it', async ({ page }) => {
  await page.goto(base.url('no-existe/en/absoluto'));

  const notFound = new NotFoundPage(page);
  await expect(notFound.heading).toHaveText('Página no encontrada');
  await expect(notFound.homeLink).toHaveAttribute('href', /^\/clinica\/?$/);

  await notFound.homeLink.click();
  await expect(page).toHaveURL(base.url('auth/sign-in'));
});

test('the not-found aliases work under the base path too', async ({ page }) => {
  for (const path of ['error-404', 'pages/error-404-alt']) {
    await page.goto(base.url(path));
    await expect(new NotFoundPage(page).heading).toHaveText('Página no encontrada');
    await expect(page).toHaveURL(base.url(path));
  }
});
