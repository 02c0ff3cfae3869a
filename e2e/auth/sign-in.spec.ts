import { fakeUser, storageKey } from '../fixtures/session';
import { expect, test } from '../fixtures/test';
import { AuthLayout } from '../pages/auth-layout';
import { answerEmptyLists } from '../support/fake-users';

/*
 * The sign-in screen on its own. Answers of the server that the real API does not give yet are
 * routed in the browser; the full flow against the server comes with the backend.
 */

test('an empty or malformed form shows the field messages next to the fields, without calling the server', async ({
  page,
}) => {
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/auth/sign-in')) calls.push(request.url());
  });
  await page.goto('/auth/sign-in');
  const auth = new AuthLayout(page);
  const email = auth.card.getByLabel('Correo electrónico');
  const password = auth.card.getByLabel('Contraseña', { exact: true });

  await auth.card.getByRole('button', { name: 'Iniciar sesión' }).click();

  await expect(email).toHaveClass(/is-invalid/);
  await expect(email).toHaveAccessibleDescription('Este campo es obligatorio');
  await expect(password).toHaveAccessibleDescription('Este campo es obligatorio');
  await expect(email).toBeFocused();

  await email.fill('ana@clinica');
  await expect(email).toHaveAccessibleDescription('Correo electrónico no válido');
  await email.fill('ana@clinica.com');
  await expect(email).not.toHaveClass(/is-invalid/);
  expect(calls).toEqual([]);
});

test('the password can be shown and hidden', async ({ page }) => {
  await page.goto('/auth/sign-in');
  const auth = new AuthLayout(page);
  const password = auth.card.getByLabel('Contraseña', { exact: true });
  await password.fill('frase secreta larga');
  await expect(password).toHaveAttribute('type', 'password');

  await auth.card.getByRole('button', { name: 'Mostrar contraseña' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await expect(auth.card.getByRole('button', { name: 'Ocultar contraseña' })).toHaveAttribute('aria-pressed', 'true');

  await auth.card.getByRole('button', { name: 'Ocultar contraseña' }).click();
  await expect(password).toHaveAttribute('type', 'password');
});

test('links lead to sign-up and to the forgotten password page', async ({ page }) => {
  await page.goto('/auth/sign-in');
  const auth = new AuthLayout(page);
  await auth.card.getByRole('link', { name: 'Registra tu clínica' }).click();
  await expect(page).toHaveURL('/auth/sign-up');
  await page.goBack();
  await auth.card.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
  await expect(page).toHaveURL('/auth/forgot-password');
  await expect(auth.heading).toHaveText('¿Olvidaste tu contraseña?');
});

test.describe('answers of the server (routed in the browser)', () => {
  test('invalid_credentials shows the translated message', async ({ page }) => {
    await page.route('**/api/auth/sign-in', (route) =>
      route.fulfill({ status: 401, json: { code: 'invalid_credentials', message: 'Invalid e-mail or password.' } }),
    );
    await page.goto('/auth/sign-in');
    const auth = new AuthLayout(page);
    await auth.signIn('ana@clinica.com', 'incorrecta');

    await expect(page.getByTestId('form-error')).toHaveText('El correo electrónico o la contraseña no son correctos.');
    await expect(page).toHaveURL('/auth/sign-in');
  });

  test('account_not_activated offers to send the activation e-mail again', async ({ page }) => {
    await page.route('**/api/auth/sign-in', (route) =>
      route.fulfill({ status: 403, json: { code: 'account_not_activated', message: 'Not activated.' } }),
    );
    const resent: unknown[] = [];
    await page.route('**/api/auth/resend-activation', async (route) => {
      resent.push(route.request().postDataJSON());
      await route.fulfill({ status: 200, json: { code: 'activation_sent' } });
    });
    await page.goto('/auth/sign-in');
    const auth = new AuthLayout(page);
    await auth.signIn('Ana@Clinica.com', 'una frase larga');

    await expect(page.getByTestId('form-error')).toContainText('La cuenta todavía no está activada.');
    await page.getByRole('button', { name: 'Reenviar el correo de activación' }).click();
    await expect(page.getByTestId('form-success')).toHaveText(
      'Te enviamos un nuevo correo de activación a ana@clinica.com.',
    );
    expect(resent).toEqual([{ email: 'ana@clinica.com' }]);
  });

  test('429 says when to try again', async ({ page }) => {
    await page.route('**/api/auth/sign-in', (route) =>
      route.fulfill({
        status: 429,
        json: { code: 'too_many_requests', message: 'Too many attempts.', details: { retryAfterSeconds: 540 } },
      }),
    );
    await page.goto('/auth/sign-in');
    const auth = new AuthLayout(page);
    await auth.signIn('ana@clinica.com', 'incorrecta');

    await expect(page.getByTestId('form-error')).toHaveText(
      'Demasiados intentos. Vuelve a intentarlo dentro de 9 minutos.',
    );
  });

  test('success keeps the token and the user cookie, follows systemLanguage and returns to the page asked for', async ({
    page,
    context,
  }) => {
    const user = { ...fakeUser, settings: { ...fakeUser.settings, systemLanguage: 'en' } };
    let body: unknown;
    await page.route('**/api/auth/sign-in', async (route) => {
      body = route.request().postDataJSON();
      await route.fulfill({
        status: 200,
        json: {
          data: { token: 'opaque-token-from-server', expiresAt: '2099-01-01T00:00:00.000Z', user },
          code: 'login_success',
        },
      });
    });
    await page.route('**/api/auth/system/me', (route) => route.fulfill({ status: 200, json: { data: user } }));
    await answerEmptyLists(page);

    await page.goto('/patients');
    await expect(page).toHaveURL('/auth/sign-in');
    const auth = new AuthLayout(page);
    await auth.card.getByLabel('Correo electrónico').fill('  Lucia@Clinica-Demo.es ');
    await auth.card.getByLabel('Contraseña', { exact: true }).fill('una frase larga');
    await auth.card.getByLabel('Recordarme en este equipo').check();
    await auth.card.getByRole('button', { name: 'Iniciar sesión' }).click();

    await expect(page).toHaveURL('/patients');
    await expect(page.getByRole('banner').getByRole('heading', { level: 1 })).toHaveText('Patients');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(body).toEqual({ email: 'lucia@clinica-demo.es', password: 'una frase larga', remember: true });

    const stored = await page.evaluate((key) => window.localStorage.getItem(key), storageKey('token'));
    expect(stored).toBe('opaque-token-from-server');
    const cookie = (await context.cookies()).find((candidate) => candidate.name === '_REBACK_AUTH_KEY_');
    expect(cookie?.path).toBe('/');
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.value).not.toContain('opaque-token-from-server');
    expect(JSON.parse(decodeURIComponent(cookie?.value ?? '{}')).email).toBe(user.email);
  });
});
