import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout } from '../pages/auth-layout';
import { linkFromOutbox } from '../support/outbox';

/*
 * The auth screens against the real API of the root server (PGlite, demo clinic seeded, mail in
 * the outbox). No wrong password here: the server's rate limit counts failures per IP.
 */

const demoAdmin = { email: 'administrador@sonrisa.demo', password: 'sonrisa-demo-2026' };

test('the demo administrador signs in, locks, unlocks and signs out', async ({ page, context }) => {
  const auth = new AuthLayout(page);
  await page.goto('/patients');
  await expect(page).toHaveURL('/auth/sign-in');
  await auth.signIn(demoAdmin.email, demoAdmin.password);

  await expect(page).toHaveURL('/patients');
  const layout = new AppLayout(page);
  await expect(layout.title).toHaveText('Pacientes');
  const cookie = (await context.cookies()).find((candidate) => candidate.name === '_REBACK_AUTH_KEY_');
  expect(JSON.parse(decodeURIComponent(cookie?.value ?? '{}')).email).toBe(demoAdmin.email);

  await layout.userMenuButton.click();
  await layout.userMenuItem('Bloquear pantalla').click();
  await expect(page).toHaveURL('/auth/lock-screen');
  // The server keeps it locked: opening a protected page comes back here.
  await page.goto('/dashboard');
  await expect(page).toHaveURL('/auth/lock-screen');
  await auth.card.getByLabel('Contraseña', { exact: true }).fill(demoAdmin.password);
  await auth.card.getByRole('button', { name: 'Desbloquear' }).click();
  await expect(page).toHaveURL('/dashboard');
  await expect(layout.title).toHaveText('Panel');

  await layout.userMenuButton.click();
  await layout.userMenuItem('Cerrar sesión').click();
  await expect(page).toHaveURL('/auth/sign-in');
  expect((await context.cookies()).some((candidate) => candidate.name === '_REBACK_AUTH_KEY_')).toBe(false);
});

test('sign-up, activation mail, activation twice, sign-in; then forgot and reset password', async ({
  page,
  browser,
}) => {
  const email = `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@clinica.test`;
  const auth = new AuthLayout(page);
  await page.goto('/auth/sign-up');
  await auth.card.getByLabel('Nombre y apellido').fill('Marta Ruiz');
  await auth.card.getByLabel('Correo electrónico').fill(email);
  await auth.card.getByLabel('Contraseña', { exact: true }).fill('una frase bastante larga');
  await auth.card.getByLabel('Repite la contraseña').fill('una frase bastante larga');
  await auth.card.getByLabel('Nombre de la clínica').fill('Clínica Ruiz');
  await auth.card.getByLabel('Teléfono de contacto').fill('+34 600 123 456');
  await auth.card.getByRole('checkbox', { name: 'Acepto los términos de uso' }).check();
  await auth.card.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page.getByTestId('sign-up-done')).toContainText(email);

  const activation = await linkFromOutbox(email, '/auth/activation/');
  await page.goto(activation);
  await expect(page.getByTestId('activation-success')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('activation-already')).toBeVisible();

  await page.getByRole('link', { name: 'Ir a iniciar sesión' }).click();
  await auth.signIn(email, 'una frase bastante larga');
  await expect(page).toHaveURL('/dashboard');

  const other = await browser.newPage({ locale: 'es-ES' });
  const otherAuth = new AuthLayout(other);
  await other.goto('/auth/forgot-password');
  await otherAuth.card.getByLabel('Correo electrónico').fill(email);
  await otherAuth.card.getByRole('button', { name: 'Enviar enlace' }).click();
  await expect(other.getByTestId('forgot-password-sent')).toBeVisible();
  const reset = await linkFromOutbox(email, '/auth/reset_password/');
  await other.goto(reset);
  await otherAuth.card.getByLabel('Nueva contraseña').fill('otra frase bien larga');
  await otherAuth.card.getByLabel('Repite la contraseña').fill('otra frase bien larga');
  await otherAuth.card.getByRole('button', { name: 'Guardar la contraseña' }).click();
  await expect(other.getByTestId('reset-password-done')).toBeVisible();
  // The used link says so as soon as it opens, before anyone types a password.
  await other.goto(reset);
  await expect(other.getByTestId('reset-password-expired')).toBeVisible();
  await expect(otherAuth.card.getByLabel('Nueva contraseña')).toHaveCount(0);
  await other.close();
});
