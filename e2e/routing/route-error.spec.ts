import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { NotFoundPage } from '../pages/auth-layout';
import { basePathServer } from '../support/servers';

/** The lazy chunks of the reports page (its page and its texts; issue 19). */
const reportsChunk = '**/assets/reports-*.js';
/** The dashboard's lazy chunks (its page and its texts): the home link's first page (issue 16). */
const dashboardChunk = '**/assets/dashboard-*.js';

test('a page chunk that fails to load while navigating shows the route error, and reload recovers', async ({
  page,
  fakeSession,
}) => {
  void fakeSession;
  await page.goto('/no-existe');
  const notFound = new NotFoundPage(page);
  await expect(notFound.heading).toHaveText('Página no encontrada');

  await page.route(dashboardChunk, (route) => route.abort('connectionfailed'));
  await notFound.homeLink.click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unexpected Application Error!');
  const message = page.getByTestId('route-error-message');
  await expect(message).toContainText(/dashboard-[\w-]+\.js/);
  await expect(message).not.toBeEmpty();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ir al inicio' })).toHaveAttribute('href', '/');

  await page.unroute(dashboardChunk);
  await page.getByRole('button', { name: 'Recargar la página' }).click();

  await expect(new AppLayout(page).title).toHaveText('Panel');
  await expect(page).toHaveURL('/dashboard');
});

test('a page chunk that fails on the first load shows the route error too', async ({ page, fakeSession }) => {
  void fakeSession;
  await page.route(reportsChunk, (route) => route.abort('failed'));

  await page.goto('/reports');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unexpected Application Error!');
  await expect(page.getByTestId('route-error-message')).toContainText(/reports-[\w-]+\.js/);
  await expect(page.getByRole('link', { name: 'Ir al inicio' })).toBeVisible();
});

test('under the base path the route error links home to the base path', async ({ page, fakeSession }) => {
  void fakeSession;
  await page.route(reportsChunk, (route) => route.abort('failed'));

  await page.goto(basePathServer.url('reports'));

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Unexpected Application Error!');
  await expect(page.getByRole('link', { name: 'Ir al inicio' })).toHaveAttribute('href', '/clinica/');
});
