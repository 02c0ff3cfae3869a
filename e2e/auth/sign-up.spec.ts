import { expect, test } from '../fixtures/test';
import { AuthLayout } from '../pages/auth-layout';

/* The sign-up form's own rules, checked in the browser before anything is sent. */

test.beforeEach(async ({ page }) => {
  await page.goto('/auth/sign-up');
  await expect(new AuthLayout(page).heading).toHaveText('Registra tu clínica');
});

test('an empty form says which fields are missing and asks to fill them all', async ({ page }) => {
  const auth = new AuthLayout(page);
  await auth.card.getByRole('button', { name: 'Crear cuenta' }).click();

  await expect(page.getByTestId('form-incomplete')).toHaveText('Completa todos los campos obligatorios');
  for (const label of ['Nombre y apellido', 'Correo electrónico', 'Nombre de la clínica', 'Teléfono de contacto']) {
    await expect(auth.card.getByLabel(label, { exact: true })).toHaveAccessibleDescription('Este campo es obligatorio');
  }
  await expect(auth.card.getByLabel('Contraseña', { exact: true })).toHaveAccessibleDescription(
    'Este campo es obligatorio',
  );
  await expect(auth.card.getByRole('checkbox', { name: 'Acepto los términos de uso' })).toHaveAccessibleDescription(
    'Debes aceptar los términos de uso',
  );
});

test('passwords must match, be long enough, and the phone must look like one', async ({ page }) => {
  const auth = new AuthLayout(page);
  await auth.card.getByLabel('Contraseña', { exact: true }).fill('corta');
  await auth.card.getByLabel('Repite la contraseña').fill('otra cosa');
  await auth.card.getByLabel('Teléfono de contacto').fill('abc');
  await auth.card.getByRole('button', { name: 'Crear cuenta' }).click();

  await expect(auth.card.getByLabel('Contraseña', { exact: true })).toHaveAccessibleDescription(
    'La contraseña debe tener al menos 10 caracteres',
  );
  await expect(auth.card.getByLabel('Repite la contraseña')).toHaveAccessibleDescription(
    'Las contraseñas deben coincidir',
  );
  await expect(auth.card.getByLabel('Teléfono de contacto')).toHaveAccessibleDescription(
    'Número de teléfono no válido',
  );

  // The messages follow the typing once the form was sent.
  await auth.card.getByLabel('Contraseña', { exact: true }).fill('una frase bastante larga');
  await auth.card.getByLabel('Repite la contraseña').fill('una frase bastante larga');
  await expect(auth.card.getByLabel('Repite la contraseña')).not.toHaveClass(/is-invalid/);
});

test('the promotional code is asked for only when ticked, and then it is required', async ({ page }) => {
  const auth = new AuthLayout(page);
  const code = auth.card.getByLabel('Código promocional', { exact: true });
  await expect(code).toHaveCount(0);

  await auth.card.getByLabel('Tengo un código promocional').check();
  await expect(code).toBeVisible();
  await auth.card.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(code).toHaveAccessibleDescription('Ingresa el código promocional');

  await code.fill('SONRISA30');
  await expect(code).not.toHaveClass(/is-invalid/);
  await auth.card.getByLabel('Tengo un código promocional').uncheck();
  await expect(code).toHaveCount(0);
});

test('a complete form sends the contract body with the interface language, then says to check the e-mail', async ({
  page,
}) => {
  let body: unknown;
  await page.route('**/api/auth/sign-up', async (route) => {
    body = route.request().postDataJSON();
    await route.fulfill({ status: 201, json: { code: 'account_created' } });
  });
  const auth = new AuthLayout(page);
  await auth.card.getByLabel('Nombre y apellido').fill('Lucía Fernández');
  await auth.card.getByLabel('Correo electrónico').fill('Lucia@Clinica-Demo.es');
  await auth.card.getByLabel('Contraseña', { exact: true }).fill('una frase bastante larga');
  await auth.card.getByLabel('Repite la contraseña').fill('una frase bastante larga');
  await auth.card.getByLabel('Nombre de la clínica').fill('Clínica Dental Sonrisas');
  await auth.card.getByLabel('Teléfono de contacto').fill('+54 11 5555-1234');
  await auth.card.getByLabel('Tengo un código promocional').check();
  await auth.card.getByLabel('Código promocional', { exact: true }).fill(' SONRISA30 ');
  await auth.card.getByRole('checkbox', { name: 'Acepto los términos de uso' }).check();
  await auth.card.getByRole('button', { name: 'Crear cuenta' }).click();

  await expect(page.getByTestId('sign-up-done')).toContainText('Revisa tu correo');
  await expect(page.getByTestId('sign-up-done')).toContainText('lucia@clinica-demo.es');
  expect(body).toEqual({
    completeName: 'Lucía Fernández',
    email: 'lucia@clinica-demo.es',
    password: 'una frase bastante larga',
    passwordConfirmation: 'una frase bastante larga',
    clinicName: 'Clínica Dental Sonrisas',
    contact: '+54 11 5555-1234',
    promotionalCode: 'SONRISA30',
    acceptTerms: true,
    language: 'es',
  });
});

test('the server field errors and email_already_exists show in the form', async ({ page }) => {
  let calls = 0;
  await page.route('**/api/auth/sign-up', async (route) => {
    calls += 1;
    await route.fulfill(
      calls === 1
        ? {
            status: 400,
            json: {
              code: 'validation_error',
              message: 'Invalid.',
              details: { fields: [{ path: ['password'], code: 'password_too_common' }] },
            },
          }
        : { status: 409, json: { code: 'email_already_exists', message: 'Taken.' } },
    );
  });
  const auth = new AuthLayout(page);
  await auth.card.getByLabel('Nombre y apellido').fill('Lucía Fernández');
  await auth.card.getByLabel('Correo electrónico').fill('lucia@clinica-demo.es');
  await auth.card.getByLabel('Contraseña', { exact: true }).fill('1234567890');
  await auth.card.getByLabel('Repite la contraseña').fill('1234567890');
  await auth.card.getByLabel('Nombre de la clínica').fill('Clínica Dental Sonrisas');
  await auth.card.getByLabel('Teléfono de contacto').fill('+54 11 5555-1234');
  await auth.card.getByRole('checkbox', { name: 'Acepto los términos de uso' }).check();
  await auth.card.getByRole('button', { name: 'Crear cuenta' }).click();

  await expect(auth.card.getByLabel('Contraseña', { exact: true })).toHaveAccessibleDescription(
    'Esta contraseña es demasiado común; elige otra',
  );

  await auth.card.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page.getByTestId('form-error')).toContainText('Ya existe una cuenta con este correo electrónico.');
});

test('the terms of use open in every language from the sign-up form', async ({ page, context }) => {
  const auth = new AuthLayout(page);
  const [terms] = await Promise.all([
    context.waitForEvent('page'),
    auth.card.getByRole('link', { name: 'términos de uso' }).click(),
  ]);
  await expect(terms).toHaveURL('/auth/terms');
  const termsLayout = new AuthLayout(terms);
  await expect(termsLayout.heading).toHaveText('Términos de uso');
  await expect(terms.getByRole('heading', { level: 2 })).toHaveCount(8);
  await expect(terms.getByRole('heading', { level: 2 }).first()).toHaveText('El servicio');
  await expect(terms).toHaveTitle('Odontia | Términos de uso');

  for (const [language, title, first] of [
    ['en', 'Terms of use', 'The service'],
    ['fr', "Conditions d'utilisation", 'Le service'],
    ['pt', 'Termos de uso', 'O serviço'],
  ] as const) {
    await termsLayout.languageSelect.selectOption(language);
    await expect(termsLayout.heading).toHaveText(title);
    await expect(terms.getByRole('heading', { level: 2 }).first()).toHaveText(first);
  }
});
