import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle, tag } from '../support/page';
import { apiSignIn, createUser, demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * Issue 42, API tokens: a professional makes a personal token from Mi perfil › Tokens de API (a
 * double click on Crear makes one token), sees its secret once and copies it, uses it with `fetch`
 * against the API (a scope it holds answers, one it lacks 403), revokes it (401 after); the
 * administrator's clinic tokens screen; the administrator sees a member's personal token in
 * "Tokens personales del equipo" and revokes it (401 at once); axe in light and dark, 390 px.
 */

const callApi = (page: import('@playwright/test').Page, secret: string, path: string) =>
  page.evaluate(
    async ({ secret, path }) => {
      const response = await fetch(path, { headers: { Authorization: `Bearer ${secret}` } });
      return response.status;
    },
    { secret, path },
  );

test('make a personal token (shown once, copied), use it with fetch, revoke it', async ({ page, context }) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = `ERP ${tag()}`;
  await page.setViewportSize({ width: 1024, height: 800 });
  await signInPage(page, demoUsers.user);
  await page.goto('/profile');
  await page.getByTestId('profile-api-tokens').click();
  await expect(page).toHaveURL(/\/profile\/api-tokens$/);
  await settle(page);
  const panel = page.getByTestId('api-tokens-personal');
  await expect(panel).toBeVisible();
  // A professional is offered only what a user level may do.
  await expect(panel.getByTestId('api-token-scope-patients.read')).toBeVisible();
  await expect(panel.getByTestId('api-token-scope-users.manage')).toHaveCount(0);
  await expectNoAxeViolations(page, 'Mi perfil › Tokens de API');

  // Nothing chosen: the form says what is missing and sends nothing.
  await panel.getByTestId('api-token-create').click();
  await expect(panel.getByText('Escribe un nombre para reconocerlo.')).toBeVisible();

  await panel.getByTestId('api-token-name').fill(name);
  await panel.getByTestId('api-token-expiry').selectOption('30');
  await panel.getByTestId('api-token-scope-patients.read').check();
  const created: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/profile/api-tokens')) created.push(request.url());
  });
  await panel.getByTestId('api-token-create').dblclick();
  const secretBox = page.getByTestId('api-token-secret');
  await expect(secretBox).toBeVisible();
  await expect(page.getByText('Token de API creado.')).toBeVisible();
  const secret = await page.getByTestId('api-token-secret-value').inputValue();
  expect(secret).toMatch(/^odt_[A-Za-z0-9_-]{43}$/);
  await page.getByTestId('api-token-copy').click();
  await expect(page.getByTestId('api-token-copy')).toHaveText(/Copiado/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const row = page.getByTestId('api-token-list').locator('tr', { hasText: name });
  await expect(row).toHaveCount(1);
  expect(created).toHaveLength(1);
  await expect(row).toContainText(secret.slice(0, 12));
  await expect(row.getByTestId('api-token-state')).toHaveText('Activo');
  await expectNoAxeViolations(page, 'the new token’s secret');
  await saveScreenshot(page, 'api-tokens-created-1024', { fullPage: false });

  // Shown once: after dismissing it (or reloading), the page holds only the prefix.
  await page.getByTestId('api-token-dismiss').click();
  await page.reload();
  await settle(page);
  expect(await page.content()).not.toContain(secret);

  // The token works with fetch, within its scope only.
  expect(await callApi(page, secret, '/api/patients?pageSize=1')).toBe(200);
  expect(await callApi(page, secret, '/api/reports')).toBe(403);

  // Revoke it: 401 from then on.
  await page.getByTestId('api-token-list').locator('tr', { hasText: name }).getByTestId('api-token-revoke').click();
  const dialog = page.getByTestId('api-token-revoke-dialog');
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'the revoke dialog', '[role="dialog"]');
  await dialog.getByTestId('delete-confirm').click();
  await expect(page.getByText('Token de API revocado.')).toBeVisible();
  await expect(
    page.getByTestId('api-token-list').locator('tr', { hasText: name }).getByTestId('api-token-state'),
  ).toHaveText('Revocado');
  expect(await callApi(page, secret, '/api/patients?pageSize=1')).toBe(401);

  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
  await expectNoAxeViolations(page, 'Mi perfil › Tokens de API, dark');
  await saveScreenshot(page, 'api-tokens-dark-1024', { fullPage: false });
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'light'));
  await page.setViewportSize({ width: 390, height: 844 });
  await settle(page);
  await expectNoAxeViolations(page, 'Mi perfil › Tokens de API at 390 px');
  await saveScreenshot(page, 'api-tokens-390');
});

test('the administrator makes a clinic token, which acts for the clinic', async ({ page }) => {
  test.setTimeout(60_000);
  const name = `Clínica ${tag()}`;
  await page.setViewportSize({ width: 1024, height: 800 });
  await signInPage(page, demoUsers.administrator);
  await page.goto('/settings/api-tokens');
  await settle(page);
  const panel = page.getByTestId('api-tokens-clinic');
  await expect(panel).toBeVisible();
  await expectNoAxeViolations(page, 'Administración › Tokens de API');
  await panel.getByTestId('api-token-name').fill(name);
  await panel.getByTestId('api-token-scope-users.manage').check();
  await panel.getByTestId('api-token-create').click();
  const secret = await page.getByTestId('api-token-secret-value').inputValue();
  expect(await callApi(page, secret, '/api/users')).toBe(200);
  // A token never makes tokens.
  expect(await callApi(page, secret, '/api/api-tokens')).toBe(403);
  await page.setViewportSize({ width: 390, height: 844 });
  await settle(page);
  await expectNoAxeViolations(page, 'Administración › Tokens de API at 390 px');
  await saveScreenshot(page, 'clinic-api-tokens-390');
  // Tidy: revoke it.
  await page.getByTestId('api-token-list').locator('tr', { hasText: name }).getByTestId('api-token-revoke').click();
  await page.getByTestId('api-token-revoke-dialog').getByTestId('delete-confirm').click();
  await expect(page.getByText('Token de API revocado.')).toBeVisible();
});

test("the administrator revokes a member's personal token from the team's card", async ({ page }) => {
  test.setTimeout(90_000);
  const name = `Hoja de Paula ${tag()}`;
  const member = await createUser(page.request, 'user', `Paula Gómez ${tag()}`);
  const session = await apiSignIn(page.request, member.email, member.password);
  const made = await page.request.post(rootServer.url('api/profile/api-tokens'), {
    headers: { Authorization: `Bearer ${session}`, 'Idempotency-Key': `e2e-team-${tag()}` },
    data: { name, expiresInDays: 30, scopes: ['patients.read'] },
  });
  expect(made.status(), await made.text()).toBe(201);
  const { secret } = (await made.json()) as { secret: string };

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInPage(page, demoUsers.administrator);
  await page.goto('/settings/api-tokens');
  await settle(page);
  expect(await callApi(page, secret, '/api/patients?pageSize=1')).toBe(200);
  const team = page.getByTestId('api-tokens-team');
  await expect(page.getByRole('heading', { name: 'Tokens personales del equipo' })).toBeVisible();
  const row = team.getByTestId('api-token-team-list').locator('tr', { hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(member.completeName);
  await expect(row).toContainText(secret.slice(0, 12));
  await expect(row.getByTestId('api-token-team-state')).toHaveText('Activo');
  expect(await page.content()).not.toContain(secret);
  await expectNoAxeViolations(page, 'Administración › Tokens de API with the team card');

  const revokes: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/api-tokens\/members\/.+\/revoke$/.test(request.url()))
      revokes.push(request.url());
  });
  await row.getByTestId('api-token-team-revoke').click();
  const dialog = page.getByTestId('api-token-team-revoke-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(member.completeName);
  await expectNoAxeViolations(page, 'the team revoke dialog', '[role="dialog"]');
  // A double click on Revocar sends one revoke.
  await dialog.getByTestId('delete-confirm').dblclick();
  await expect(page.getByText('Token de API revocado.')).toBeVisible();
  await expect(row.getByTestId('api-token-team-state')).toContainText('Revocado');
  await expect(row.getByTestId('api-token-team-revoke')).toHaveCount(0);
  expect(revokes).toHaveLength(1);
  expect(await callApi(page, secret, '/api/patients?pageSize=1')).toBe(401);
  await expectNoAxeViolations(page, 'the team card after the revoke');
  await page.setViewportSize({ width: 390, height: 844 });
  await settle(page);
  await expectNoAxeViolations(page, 'the team card at 390 px');
  // The revoked badge wraps: the team's table fits a phone without scrolling sideways.
  const table = team.locator('section.table-responsive');
  expect(await table.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  await saveScreenshot(page, 'team-api-tokens-390');
});

test('the supervisor has no clinic tokens in the sidebar', async ({ page }) => {
  await signInPage(page, demoUsers.supervisor);
  await page.goto('/profile/api-tokens');
  await settle(page);
  await expect(page.getByTestId('api-tokens-personal')).toBeVisible();
  await expect(page.locator('a[href$="/settings/api-tokens"]')).toHaveCount(0);
});
