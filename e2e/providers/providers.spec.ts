import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { apiCreate } from '../support/clinic-api';
import { demoUsers, signInPage } from '../support/real-users';
import { shootScreens } from '../support/screens';

/*
 * Providers (issue 17) against the real server with the Spanish demo clinic: create one through
 * the form (a wrong CUIT first: the field says so before anything is sent), find it as you type,
 * edit it, and meet the duplicate tax id's 409 with its link. Each run makes its own CUIT.
 */

/** A valid CUIT (prefix 30) with random digits, printed with its dashes. */
function randomCuit(): { printed: string; digits: string; wrong: string } {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  for (;;) {
    const body = `30${String(Math.floor(Math.random() * 100_000_000)).padStart(8, '0')}`;
    const sum = weights.reduce((total, weight, index) => total + weight * Number(body[index]), 0);
    const check = (11 - (sum % 11)) % 11;
    if (check === 10) continue;
    const digits = `${body}${check}`;
    const wrong = `${body.slice(0, 2)}-${body.slice(2)}-${(check + 1) % 10}`;
    return { printed: `${body.slice(0, 2)}-${body.slice(2)}-${check}`, digits, wrong };
  }
}

test('a provider is created (a wrong CUIT refused first), found, edited, and a duplicate CUIT links to it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const cuit = randomCuit();
  const name = `Dental Sur ${cuit.digits.slice(4, 9)}`;
  await signInPage(page, demoUsers.administrator);
  const layout = await AppLayout.open(page, '/providers', 'Proveedores');
  await expect(page.getByTestId('provider-row').first()).toBeVisible();
  await page.getByRole('link', { name: 'Nuevo proveedor' }).click();
  await expect(page).toHaveURL('/providers/create');
  await expect(layout.title).toHaveText('Nuevo proveedor');

  const form = page.getByTestId('provider-form');
  await form.getByLabel('Nombre de fantasía').fill(name);
  await form.getByLabel('Razón social').fill(`${name} S.R.L.`);
  await form.getByLabel('Tipo de identificación').selectOption('cuit');
  await form.getByLabel('Número de identificación fiscal').fill(cuit.wrong);
  await form.getByLabel('Condición fiscal').selectOption('ar_responsable_inscripto');
  await form.getByLabel('Contacto').fill('Rocío Almada');
  await form.getByLabel('E-mail').fill('ventas@dentalsur.com.ar');
  await form.getByLabel('Cuenta (CBU/IBAN)').fill('0110599520000001234567');
  await form.getByLabel('Plazo de pago (días)').fill('45');
  await form.getByRole('button', { name: 'Crear proveedor' }).click();
  await expect(form.getByText('El número de identificación fiscal no es válido (revisa los dígitos)')).toBeVisible();
  await expect(page).toHaveURL('/providers/create');

  await form.getByLabel('Número de identificación fiscal').fill(cuit.printed);
  await form.getByRole('button', { name: 'Crear proveedor' }).click();
  await expect(page).toHaveURL(/\/providers\/edit\/[0-9a-f-]{36}$/);
  const providerUrl = page.url();
  await expect(page.getByTestId('provider-name')).toHaveText(name);
  await expect(page.getByText(cuit.printed)).toBeVisible();
  await expect(page.getByLabel('Número de identificación fiscal')).toHaveValue(cuit.printed);
  await expect(page.getByTestId('provider-delete')).toBeVisible();

  // Edit: the contact changes, saved as a new version.
  await page.getByLabel('Contacto').fill('Rocío Almada (compras)');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Proveedor actualizado correctamente.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Guardar cambios' })).toBeDisabled();

  // Found as you type, by name without its accents and by the CUIT as printed.
  await page.goto('/providers');
  await page.getByTestId('providers-search').fill(`DENTAL SÚR ${cuit.digits.slice(4, 9)}`);
  await expect(page.getByTestId('provider-row')).toHaveCount(1);
  await expect(page.getByTestId('provider-row')).toContainText('Rocío Almada (compras)');
  await page.getByTestId('providers-search').fill(cuit.printed);
  await expect(page.getByTestId('provider-row')).toHaveCount(1);
  await expect(page.getByTestId('provider-row')).toContainText(name);

  // The same CUIT typed without dashes: 409 on the field, with a link to the provider that has it.
  await page.goto('/providers/create');
  await form.getByLabel('Nombre de fantasía').fill(`${name} bis`);
  await form.getByLabel('Tipo de identificación').selectOption('cuit');
  await form.getByLabel('Número de identificación fiscal').fill(cuit.digits);
  await form.getByRole('button', { name: 'Crear proveedor' }).click();
  await expect(form.getByText('Ya hay un proveedor con ese número de identificación fiscal.')).toBeVisible();
  const link = page.getByTestId('duplicate-link');
  await expect(link).toHaveText(`Abrir «${name}», que ya tiene ese número`);
  await link.click();
  await expect(page).toHaveURL(providerUrl);
  await expect(page.getByTestId('provider-name')).toHaveText(name);
});

test('screenshots: list, form and edit in light, dark and at 390 px', async ({ page }) => {
  test.setTimeout(90_000);
  await signInPage(page, demoUsers.administrator);
  await page.goto('/providers?q=rivadavia');
  await page.getByTestId('provider-link').first().click();
  await expect(page).toHaveURL(/\/providers\/edit\//);
  const editPath = new URL(page.url()).pathname;
  const screens = [
    { name: 'providers-list', path: '/providers', ready: 'provider-row' },
    { name: 'providers-form', path: '/providers/create', ready: 'provider-form' },
    { name: 'providers-edit', path: editPath, ready: 'provider-form' },
  ];
  await shootScreens(page, screens);
});

test('a provider without documents is deleted after confirming; one with documents is offered "Desactivar"', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const doomed = await apiCreate(request, 'api/providers', {
    fantasyName: `Borrable ${Date.now()}`,
    currency: 'argentine_peso',
  });
  const kept = await apiCreate(request, 'api/providers', {
    fantasyName: `Con facturas ${Date.now()}`,
    currency: 'argentine_peso',
  });
  await signInPage(page, demoUsers.administrator);

  await page.goto(`/providers/edit/${doomed.id}`);
  await page.getByTestId('provider-delete').click();
  const dialog = page.getByRole('dialog', { name: 'Eliminar proveedor' });
  await dialog.getByRole('button', { name: 'Eliminar' }).click();
  await expect(page).toHaveURL('/providers');
  await expect(page.getByText('Proveedor eliminado correctamente.')).toBeVisible();

  // Documents name it (the purchases screens are another helper's: the answer says so here).
  await page.route(`**/api/providers/${kept.id}`, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({ response, json: { ...body, data: { ...body.data, hasDocuments: true } } });
  });
  await page.goto(`/providers/edit/${kept.id}`);
  await expect(page.getByTestId('provider-has-documents')).toBeVisible();
  await expect(page.getByTestId('provider-delete')).toHaveCount(0);
  await page.getByRole('button', { name: 'Desactivar' }).click();
  await expect(page.getByText('Proveedor actualizado correctamente.')).toBeVisible();
  await expect(page.getByTestId('provider-edit').getByText('Inactivo', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Desactivar' })).toHaveCount(0);
  await expect(page.getByLabel('Activo')).not.toBeChecked();
});
