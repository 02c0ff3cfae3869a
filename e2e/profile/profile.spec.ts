import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { createUser, signInPage } from '../support/real-users';

/*
 * /profile against the real server. Every test works on a user of its own (invited by the demo
 * administrator), so none changes the demo users other specs sign in with.
 */

test('a new name is saved and is still there after a reload', async ({ page, request }) => {
  const user = await createUser(request, 'user', 'Paula Gómez');
  await signInPage(page, user.email, user.password);
  const layout = await AppLayout.open(page, '/profile', 'Mi perfil');

  const details = page.getByTestId('profile-details');
  await expect(details.getByLabel('Nombre y apellido')).toHaveValue('Paula Gómez');
  await details.getByLabel('Nombre y apellido').fill('Paula Gómez Ibarra');
  await details.getByRole('button', { name: 'Guardar los datos' }).click();
  await expect(page.getByText('Perfil actualizado correctamente.')).toBeVisible();
  await expect(layout.userMenuButton).toContainText('Paula Gómez Ibarra');

  await page.reload();
  await expect(page.getByTestId('profile-details').getByLabel('Nombre y apellido')).toHaveValue('Paula Gómez Ibarra');
});

test('choosing another language switches the interface at once and stays after a reload', async ({ page, request }) => {
  const user = await createUser(request, 'user');
  await signInPage(page, user.email, user.password);
  await page.goto('/profile');
  const preferences = page.getByTestId('profile-preferences');
  await preferences.getByLabel('Idioma de la interfaz').selectOption('pt');
  await preferences.getByLabel('Moneda').selectOption('brazilian_real');
  await preferences.getByRole('button', { name: 'Guardar las preferencias' }).click();

  const layout = new AppLayout(page);
  await expect(layout.title).toHaveText('Meu perfil');
  await expect(page.getByRole('heading', { name: 'Preferências' })).toBeVisible();
  await expect(page.getByText('Perfil atualizado com sucesso.')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt');

  await page.reload();
  await expect(layout.title).toHaveText('Meu perfil');
  await expect(page.getByTestId('profile-preferences').getByLabel('Moeda')).toHaveValue('brazilian_real');
});

test('a wrong current password shows the translated message next to the field', async ({ page, request }) => {
  const user = await createUser(request, 'user');
  await signInPage(page, user.email, user.password);
  await page.goto('/profile');

  const password = page.getByTestId('profile-password');
  await expect(password).toContainText('se cerrarán tus sesiones abiertas en otros dispositivos');
  await password.getByLabel('Contraseña actual').fill('no es mi contraseña');
  await password.getByLabel('Nueva contraseña', { exact: true }).fill('otra frase bien larga');
  await password.getByLabel('Repite la nueva contraseña').fill('otra frase bien larga');
  await password.getByRole('button', { name: 'Cambiar la contraseña' }).click();
  const current = password.getByLabel('Contraseña actual');
  await expect(current).toHaveAttribute('aria-invalid', 'true');
  await expect(current).toHaveAccessibleDescription('La contraseña actual no es correcta.');
});

test('the new password and its confirmation are checked before sending; a right one is changed', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'user');
  await signInPage(page, user.email, user.password);
  await page.goto('/profile');

  const password = page.getByTestId('profile-password');
  await password.getByLabel('Contraseña actual').fill(user.password);
  await password.getByLabel('Nueva contraseña', { exact: true }).fill('corta');
  await password.getByLabel('Repite la nueva contraseña').fill('otra cosa');
  await password.getByRole('button', { name: 'Cambiar la contraseña' }).click();
  await expect(password.getByText('Las contraseñas deben coincidir')).toBeVisible();

  await password.getByLabel('Nueva contraseña', { exact: true }).fill('otra frase bien larga');
  await password.getByLabel('Repite la nueva contraseña').fill('otra frase bien larga');
  await password.getByRole('button', { name: 'Cambiar la contraseña' }).click();
  await expect(page.getByText('Contraseña actualizada correctamente.')).toBeVisible();
  // This session stays open.
  await page.reload();
  await expect(new AppLayout(page).title).toHaveText('Mi perfil');
});

test('a new e-mail asks for the current password', async ({ page, request }) => {
  const user = await createUser(request, 'user');
  await signInPage(page, user.email, user.password);
  await page.goto('/profile');

  const details = page.getByTestId('profile-details');
  await expect(details.getByLabel('Contraseña actual')).toHaveCount(0);
  const newEmail = user.email.replace('@', '.nuevo@');
  await details.getByLabel('Correo electrónico').fill(newEmail);
  await details.getByRole('button', { name: 'Guardar los datos' }).click();
  await expect(details.getByLabel('Contraseña actual')).toHaveAccessibleDescription('Este campo es obligatorio');
  await details.getByLabel('Contraseña actual').fill(user.password);
  await details.getByRole('button', { name: 'Guardar los datos' }).click();
  await expect(page.getByText('Perfil actualizado correctamente.')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('profile-details').getByLabel('Correo electrónico')).toHaveValue(newEmail);
});
