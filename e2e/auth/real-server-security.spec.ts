import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { AuthLayout } from '../pages/auth-layout';
import { linkFromOutbox } from '../support/outbox';
import { rootServer } from '../support/servers';

/*
 * Issue 3's security scenarios against the real API of the root server. The server counts
 * sign-in failures per client address; the e2e servers trust X-Forwarded-For (TRUST_PROXY=true,
 * as behind a proxy), so every group here signs in from its own address and the throttling never
 * reaches the other specs, which come from 127.0.0.1.
 */

const demoAdmin = { email: 'administrador@sonrisa.demo', password: 'sonrisa-demo-2026' };
const invalidCredentials = 'El correo electrónico o la contraseña no son correctos.';

const octet = Math.floor(Math.random() * 200) + 20;
/** Distinct per group and per run (a server of a previous run is gone, its counters with it). */
const clientAddress = (group: number) => `10.20.${group}.${octet}`;
const uniqueEmail = (label: string) =>
  `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@clinica.test`;

async function signInForm(page: Page, email: string, password: string): Promise<void> {
  const auth = new AuthLayout(page);
  await auth.signIn(email, password);
}

test.describe('session and passwords', () => {
  test.use({ extraHTTPHeaders: { 'x-forwarded-for': clientAddress(30) } });

  test('a data call while the screen is locked answers 401 session_locked, 200 after unlocking', async ({ page }) => {
    await page.goto('/auth/sign-in');
    const signedIn = page.waitForResponse((response) => response.url().endsWith('/api/auth/sign-in'));
    await signInForm(page, demoAdmin.email, demoAdmin.password);
    const token = ((await (await signedIn).json()) as { data: { token: string } }).data.token;
    await expect(page).toHaveURL('/dashboard');
    const usersCall = () =>
      page.request.get(rootServer.url('api/users'), { headers: { authorization: `Bearer ${token}` } });
    expect((await usersCall()).status()).toBe(200);

    const layout = new AppLayout(page);
    const locked = page.waitForResponse((response) => response.url().endsWith('/api/auth/lock'));
    await layout.userMenuButton.click();
    await layout.userMenuItem('Bloquear pantalla').click();
    expect((await locked).ok()).toBe(true);
    await expect(page).toHaveURL('/auth/lock-screen');
    const refused = await usersCall();
    expect(refused.status()).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('session_locked');

    const auth = new AuthLayout(page);
    await auth.card.getByLabel('Contraseña', { exact: true }).fill(demoAdmin.password);
    await auth.card.getByRole('button', { name: 'Desbloquear' }).click();
    await expect(page).toHaveURL('/dashboard');
    expect((await usersCall()).status()).toBe(200);
  });

  test('forgot → reset from the mailed link: the new password signs in, the old one is refused', async ({ page }) => {
    const email = uniqueEmail('reset');
    const oldPassword = 'una frase bastante larga';
    const newPassword = 'otra frase bien distinta';
    const auth = new AuthLayout(page);
    await page.goto('/auth/sign-up');
    await auth.card.getByLabel('Nombre y apellido').fill('Lucía Gómez');
    await auth.card.getByLabel('Correo electrónico').fill(email);
    await auth.card.getByLabel('Contraseña', { exact: true }).fill(oldPassword);
    await auth.card.getByLabel('Repite la contraseña').fill(oldPassword);
    await auth.card.getByLabel('Nombre de la clínica').fill('Clínica Gómez');
    await auth.card.getByLabel('Teléfono de contacto').fill('+34 600 654 321');
    await auth.card.getByRole('checkbox', { name: 'Acepto los términos de uso' }).check();
    await auth.card.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page.getByTestId('sign-up-done')).toContainText(email);
    await page.goto(await linkFromOutbox(email, '/auth/activation/'));
    await expect(page.getByTestId('activation-success')).toBeVisible();

    await page.goto('/auth/forgot-password');
    await auth.card.getByLabel('Correo electrónico').fill(email);
    await auth.card.getByRole('button', { name: 'Enviar enlace' }).click();
    await expect(page.getByTestId('forgot-password-sent')).toBeVisible();
    await page.goto(await linkFromOutbox(email, '/auth/reset_password/'));
    await auth.card.getByLabel('Nueva contraseña').fill(newPassword);
    await auth.card.getByLabel('Repite la contraseña').fill(newPassword);
    await auth.card.getByRole('button', { name: 'Guardar la contraseña' }).click();
    await expect(page.getByTestId('reset-password-done')).toBeVisible();

    await page.goto('/auth/sign-in');
    await signInForm(page, email, oldPassword);
    await expect(page.getByTestId('form-error')).toHaveText(invalidCredentials);
    await expect(page).toHaveURL('/auth/sign-in');
    await signInForm(page, email, newPassword);
    await expect(page).toHaveURL('/dashboard');
  });

  test('a wrong password shows the translated error', async ({ page }) => {
    await page.goto('/auth/sign-in');
    await signInForm(page, demoAdmin.email, 'no-es-la-contraseña');
    await expect(page.getByTestId('form-error')).toHaveText(invalidCredentials);
    await expect(page).toHaveURL('/auth/sign-in');
  });
});

test.describe('throttling', () => {
  // Its own client address: the 10 failures block this address for 15 minutes.
  test.use({ extraHTTPHeaders: { 'x-forwarded-for': clientAddress(31) } });

  test('the 11th wrong attempt says when to try again', async ({ page }) => {
    const email = uniqueEmail('throttle');
    await page.goto('/auth/sign-in');
    for (let attempt = 1; attempt <= 10; attempt++) {
      const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/sign-in'));
      await signInForm(page, email, `equivocada-${attempt}`);
      expect((await answered).status()).toBe(401);
      await expect(page.getByTestId('form-error')).toHaveText(invalidCredentials);
    }
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/sign-in'));
    await signInForm(page, email, 'equivocada-11');
    expect((await answered).status()).toBe(429);
    await expect(page.getByTestId('form-error')).toHaveText(
      /^Demasiados intentos\. Vuelve a intentarlo dentro de \d+ minutos\.$/,
    );
    await expect(page).toHaveURL('/auth/sign-in');
  });
});
