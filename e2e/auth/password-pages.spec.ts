import { expect, test } from '../fixtures/test';
import { AuthLayout } from '../pages/auth-layout';

/* Activation, forgotten password and reset: the screens' states, with the server's answers routed. */

test.describe('activation', () => {
  test('loading, then success with a link to sign in', async ({ page }) => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tokens: string[] = [];
    await page.route('**/api/auth/activation/*', async (route) => {
      tokens.push(new URL(route.request().url()).pathname);
      await released;
      await route.fulfill({ status: 200, json: { code: 'account_activated' } });
    });
    await page.goto('/auth/activation/tok-123');
    await expect(page.getByTestId('activation-loading')).toContainText('Activando tu cuenta…');
    release();
    await expect(page.getByTestId('activation-success')).toContainText('¡Tu cuenta está activa!');
    expect(tokens).toEqual(['/api/auth/activation/tok-123']);
    await page.getByRole('link', { name: 'Ir a iniciar sesión' }).click();
    await expect(page).toHaveURL('/auth/sign-in');
  });

  test('already activated', async ({ page }) => {
    await page.route('**/api/auth/activation/*', (route) =>
      route.fulfill({ status: 409, json: { code: 'account_already_activated', message: 'Already.' } }),
    );
    await page.goto('/auth/activation/tok-123');
    await expect(page.getByTestId('activation-already')).toContainText('Tu cuenta ya estaba activada');
  });

  test('an error offers a retry that can succeed', async ({ page }) => {
    let calls = 0;
    await page.route('**/api/auth/activation/*', async (route) => {
      calls += 1;
      await route.fulfill(
        calls === 1
          ? { status: 500, json: { code: 'internal_server_error', message: 'Boom.' } }
          : { status: 200, json: { code: 'account_activated' } },
      );
    });
    await page.goto('/auth/activation/tok-123');
    await expect(page.getByTestId('activation-error')).toContainText('No pudimos activar la cuenta');
    await expect(page.getByTestId('activation-error')).toContainText('Se produjo un error en el servidor.');
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await expect(page.getByTestId('activation-success')).toBeVisible();
    expect(calls).toBe(2);
  });
});

test.describe('forgotten password', () => {
  test('checks the e-mail, then gives the same answer whatever it is', async ({ page }) => {
    const bodies: unknown[] = [];
    await page.route('**/api/auth/forgot-password', async (route) => {
      bodies.push(route.request().postDataJSON());
      await route.fulfill({ status: 200, json: { code: 'password_reset_link_sent' } });
    });
    await page.goto('/auth/forgot-password');
    const auth = new AuthLayout(page);
    await auth.card.getByRole('button', { name: 'Enviar enlace' }).click();
    await expect(auth.card.getByLabel('Correo electrónico')).toHaveAccessibleDescription('Este campo es obligatorio');
    await auth.card.getByLabel('Correo electrónico').fill('no-existe@ejemplo');
    await expect(auth.card.getByLabel('Correo electrónico')).toHaveAccessibleDescription(
      'Correo electrónico no válido',
    );
    await auth.card.getByLabel('Correo electrónico').fill('Nadie@Ejemplo.com');
    await auth.card.getByRole('button', { name: 'Enviar enlace' }).click();

    await expect(page.getByTestId('forgot-password-sent')).toContainText(
      'Si hay una cuenta con nadie@ejemplo.com, te llegará un enlace',
    );
    expect(bodies).toEqual([{ email: 'nadie@ejemplo.com' }]);
  });
});

test.describe('reset password', () => {
  test('new password and confirmation must match; success leads to sign in', async ({ page }) => {
    const calls: { path: string; body: unknown }[] = [];
    await page.route('**/api/auth/reset-password/*', async (route) => {
      if (route.request().method() === 'GET') {
        await route.fulfill({ status: 200, json: { data: { valid: true } } });
        return;
      }
      calls.push({ path: new URL(route.request().url()).pathname, body: route.request().postDataJSON() });
      await route.fulfill({ status: 200, json: { code: 'password_reset' } });
    });
    await page.goto('/auth/reset_password/reset-42');
    const auth = new AuthLayout(page);
    await auth.card.getByLabel('Nueva contraseña').fill('una frase bastante larga');
    await auth.card.getByLabel('Repite la contraseña').fill('otra frase bastante larga');
    await auth.card.getByRole('button', { name: 'Guardar la contraseña' }).click();
    await expect(auth.card.getByLabel('Repite la contraseña')).toHaveAccessibleDescription(
      'Las contraseñas deben coincidir',
    );
    expect(calls).toEqual([]);

    await auth.card.getByLabel('Repite la contraseña').fill('una frase bastante larga');
    await auth.card.getByRole('button', { name: 'Guardar la contraseña' }).click();
    await expect(page.getByTestId('reset-password-done')).toContainText('Contraseña actualizada');
    expect(calls).toEqual([
      {
        path: '/api/auth/reset-password/reset-42',
        body: { password: 'una frase bastante larga', passwordConfirmation: 'una frase bastante larga' },
      },
    ]);
    await page.getByRole('link', { name: 'Ir a iniciar sesión' }).click();
    await expect(page).toHaveURL('/auth/sign-in');
  });

  test('an expired or used link says so as the page opens and offers a new one', async ({ page }) => {
    const methods: string[] = [];
    await page.route('**/api/auth/reset-password/*', (route) => {
      methods.push(route.request().method());
      return route.fulfill({ status: 410, json: { code: 'token_expired', message: 'Expired.' } });
    });
    await page.goto('/auth/reset_password/old-link');
    const auth = new AuthLayout(page);
    // Nobody has to type a new password twice to learn the link is dead.
    await expect(page.getByTestId('reset-password-expired')).toContainText('Este enlace ya no sirve');
    await expect(auth.card.getByLabel('Nueva contraseña')).toHaveCount(0);
    expect(methods).toEqual(['GET']);
    await page.getByRole('link', { name: 'Pedir un enlace nuevo' }).click();
    await expect(page).toHaveURL('/auth/forgot-password');
  });
});
