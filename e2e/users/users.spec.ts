import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout } from '../pages/auth-layout';
import { linkFromOutbox } from '../support/outbox';
import { apiSignIn, createUser, demoUsers, signInPage, uniqueEmail } from '../support/real-users';

/*
 * /account/users against the real server, as the demo administrador. Users a test changes are
 * its own (unique e-mails); nobody signs in with a wrong password here (rate limit per IP).
 */

function rowOf(page: Page, email: string) {
  return page.locator(`[data-testid="user-row"][data-email="${email}"]`);
}

test('an invited user sets a password, signs in as user and may not open the users page', async ({ page, browser }) => {
  await signInPage(page, demoUsers.administrator);
  const _layout = await AppLayout.open(page, '/account/users', 'Usuarios');

  const email = uniqueEmail('invited');
  await page.getByRole('button', { name: 'Invitar usuario' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invitar a un usuario' });
  await dialog.getByLabel('Nombre y apellido').fill('Tomás Herrera');
  await dialog.getByLabel('Correo electrónico').fill(email);
  await expect(dialog.getByLabel('Nivel')).toHaveValue('user');
  await dialog.getByRole('button', { name: 'Enviar la invitación' }).click();
  await expect(
    page.getByText('Invitación enviada. La persona recibirá un correo para unirse a la clínica.'),
  ).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByLabel('Buscar usuarios').fill(email);
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await expect(rowOf(page, email)).toContainText('Invitación pendiente');

  // The invitation mail opens the reset page; the password activates the user.
  const invited = await browser.newPage({ locale: 'es-ES' });
  const auth = new AuthLayout(invited);
  await invited.goto(await linkFromOutbox(email, '/auth/reset_password/'));
  await auth.card.getByLabel('Nueva contraseña').fill('mi frase de acceso segura');
  await auth.card.getByLabel('Repite la contraseña').fill('mi frase de acceso segura');
  await auth.card.getByRole('button', { name: 'Guardar la contraseña' }).click();
  await expect(invited.getByTestId('reset-password-done')).toBeVisible();

  await invited.goto('/auth/sign-in');
  await auth.signIn(email, 'mi frase de acceso segura');
  await expect(invited).toHaveURL('/dashboard');

  const invitedLayout = new AppLayout(invited);
  await expect(invitedLayout.userMenuButton).toContainText('Usuario');
  await expect(invitedLayout.sidebarLink('/patients')).toBeVisible();
  await expect(invitedLayout.sidebarLink('/account/users')).toHaveCount(0);
  await expect(invitedLayout.sidebarLink('/settings')).toHaveCount(0);
  await expect(invitedLayout.sidebarLink('/reports')).toHaveCount(0);
  await invitedLayout.userMenuButton.click();
  await expect(invitedLayout.userMenuItem('Mi perfil')).toBeVisible();
  await expect(invitedLayout.userMenuItem('Usuarios')).toHaveCount(0);
  await invited.keyboard.press('Escape');

  await invited.goto('/account/users');
  await expect(invited.getByTestId('forbidden')).toBeVisible();
  await expect(invited.getByRole('heading', { name: 'No tienes permiso para ver esta página' })).toBeVisible();
  await expect(invited.getByTestId('users-page')).toHaveCount(0);
  await invited.close();

  // Now active for the administrator too.
  await page.reload();
  await page.getByLabel('Buscar usuarios').fill(email);
  await expect(rowOf(page, email)).toContainText('Activo');
});

test('an administrator is not offered to deactivate their own user (spec §5)', async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await page.goto('/account/users');
  await page.getByLabel('Buscar usuarios').fill('administrador@sonrisa');
  const own = rowOf(page, demoUsers.administrator);
  await expect(own).toContainText('Tú');
  await expect(own).toContainText('Activo');
  await expect(own.getByRole('button', { name: 'Datos profesionales', exact: false })).toBeVisible();
  await expect(own.getByRole('button', { name: /Desactivar/ })).toHaveCount(0);
});

test('the administrator changes a level, deactivates after confirming and reactivates', async ({ page, request }) => {
  const user = await createUser(request, 'user', 'Irene Castro');
  await signInPage(page, demoUsers.administrator);
  await page.goto('/account/users');
  await page.getByLabel('Buscar usuarios').fill(user.email);
  const row = rowOf(page, user.email);
  await expect(page.getByTestId('user-row')).toHaveCount(1);

  await row.getByLabel('Nivel de Irene Castro').selectOption('supervisor');
  await expect(page.getByText('Usuario actualizado correctamente.').first()).toBeVisible();
  await expect(row.getByLabel('Nivel de Irene Castro')).toHaveValue('supervisor');

  await row.getByRole('button', { name: /Desactivar/ }).click();
  const dialog = page.getByRole('dialog', { name: '¿Desactivar este usuario?' });
  await expect(dialog).toContainText('Irene Castro ya no podrá iniciar sesión');
  await dialog.getByRole('button', { name: 'Sí, desactivar' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Desactivado');

  await row.getByRole('button', { name: /Reactivar/ }).click();
  await expect(row).toContainText('Activo');

  // The server keeps the change: a reload shows the same.
  await page.reload();
  await page.getByLabel('Buscar usuarios').fill(user.email);
  await expect(rowOf(page, user.email).getByLabel('Nivel de Irene Castro')).toHaveValue('supervisor');
});

test('a stale row answers version_conflict, translated, and the list reloads', async ({ page, request }) => {
  const user = await createUser(request, 'user', 'Sergio Paz');
  await signInPage(page, demoUsers.administrator);
  await page.goto('/account/users');
  // The row may already show in the unfiltered first page: wait for the search's own answer, or it
  // could arrive after the other administrator's change and carry the new version.
  const searched = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname.endsWith('/api/users') &&
      new URL(response.url()).searchParams.get('q') === user.email,
  );
  await page.getByLabel('Buscar usuarios').fill(user.email);
  await searched;
  const row = rowOf(page, user.email);
  await expect(row).toBeVisible();

  // Another administrator changes the user meanwhile.
  const otherToken = await apiSignIn(request, demoUsers.administrator);
  const headers = { Authorization: `Bearer ${otherToken}` };
  const listed = await request.get(`/api/users?q=${encodeURIComponent(user.email)}`, { headers });
  const { data } = (await listed.json()) as { data: { id: string; version: number }[] };
  const changed = await request.patch(`/api/users/${user.id}`, {
    headers,
    data: { level: 'supervisor', version: data[0]?.version },
  });
  expect(changed.status()).toBe(200);

  await row.getByLabel('Nivel de Sergio Paz').selectOption('administrator');
  await expect(
    page.getByText('Otra persona modificó este registro. Recarga la página para ver los cambios.'),
  ).toBeVisible();
  await expect(row.getByLabel('Nivel de Sergio Paz')).toHaveValue('supervisor');
});

test('the supervisor sees reports but not the users; a customer sees only the profile', async ({
  page,
  browser,
  request,
}) => {
  await signInPage(page, demoUsers.supervisor);
  await page.goto('/dashboard');
  const layout = new AppLayout(page);
  await expect(layout.sidebarLink('/reports')).toBeVisible();
  await expect(layout.sidebarLink('/account/users')).toHaveCount(0);
  await page.goto('/settings');
  await expect(page.getByTestId('forbidden')).toBeVisible();

  const customer = await createUser(request, 'customer', 'Lía Ortega');
  const customerPage = await browser.newPage({ locale: 'es-ES' });
  await signInPage(customerPage, customer.email, customer.password);
  await customerPage.goto('/dashboard');
  await expect(customerPage).toHaveURL('/profile');
  const customerLayout = new AppLayout(customerPage);
  await expect(customerLayout.title).toHaveText('Mi perfil');
  await expect(customerLayout.nav.getByRole('link')).toHaveText(['Mi perfil']);
  await customerPage.goto('/patients');
  await expect(customerPage.getByTestId('forbidden')).toBeVisible();
  await expect(customerPage.getByRole('link', { name: 'Ir a mi perfil' })).toBeVisible();
  await customerPage.close();
});
