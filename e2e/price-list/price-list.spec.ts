import { readFile } from 'node:fs/promises';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { saveScreenshot } from '../support/artifacts';
import { createPatient } from '../support/clinic-api';
import { settle } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';
import { checkScreen } from '../support/screens';

/*
 * Issue 18, H1: the price list (search as you type, create, CSV export and import), the
 * customers of the clinic (an insurer with its CUIT), and an attendance line that bills a
 * treatment of the list on one tooth. Each run makes its own codes and names.
 */

const stamp = () => `${Date.now() % 1_000_000}`;

/** A valid CUIT (prefix 30) with random digits, printed with its dashes. */
function randomCuit(): string {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  for (;;) {
    const body = `30${String(Math.floor(Math.random() * 100_000_000)).padStart(8, '0')}`;
    const sum = weights.reduce((total, weight, index) => total + weight * Number(body[index]), 0);
    const check = (11 - (sum % 11)) % 11;
    if (check !== 10) return `${body.slice(0, 2)}-${body.slice(2)}-${check}`;
  }
}

test('the price list: create a treatment, find it as you type, export and import a CSV', async ({ page }) => {
  test.setTimeout(90_000);
  const code = `E2E-${stamp()}`;
  const name = `Blanqueamiento ${code}`;
  await signInPage(page, demoUsers.administrator);
  await page.goto('/price-list');
  await expect(new AppLayout(page).title).toHaveText('Lista de precios');

  await page.getByTestId('treatment-new').click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo tratamiento' });
  await dialog.getByLabel('Nombre').fill(name);
  await dialog.getByLabel('Código').fill(code);
  await dialog.getByLabel('Grupo').fill('Estética');
  await dialog.getByLabel('Precio').fill('-5');
  await dialog.getByTestId('record-save').click();
  await expect(dialog.getByLabel('Precio')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Precio').fill('85000,50');
  await dialog.getByLabel('IVA (%)').fill('21');
  await dialog.getByLabel('Duración (minutos)').fill('45');
  await dialog.getByTestId('record-save').click();
  await expect(dialog).toBeHidden();

  await page.getByTestId('price-list-search').fill(code.toLowerCase());
  const row = page.getByTestId('treatment-row').filter({ hasText: name });
  await expect(page.getByTestId('treatment-row')).toHaveCount(1);
  await expect(row).toContainText('Estética');
  await expect(row.getByTestId('treatment-price')).toContainText('85.000,50');
  await expect(row).toContainText('21 %');

  const download = page.waitForEvent('download');
  await page.getByTestId('price-list-export').click();
  const file = await (await download).path();
  const csv = await readFile(file, 'utf8');
  expect(csv.startsWith('\uFEFFCódigo;Nombre;Grupo;Precio;IVA (%)')).toBe(true);
  expect(csv).toContain(`${code};${name};Estética;85000,50;21,00;45;sí`);

  // Import: a row with an error is shown and nothing is written; a good file updates by code.
  await page.getByTestId('price-list-import').click();
  const modal = page.getByTestId('import-modal');
  await modal.getByTestId('import-file').setInputFiles({
    name: 'precios.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`Código;Nombre;Precio\n${code};${name};abc\n`),
  });
  await expect(modal.getByTestId('import-error')).toHaveCount(1);
  await expect(page.getByTestId('import-submit')).toBeDisabled();
  await modal.getByTestId('import-file').setInputFiles({
    name: 'precios.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`Código;Nombre;Precio\n${code};${name};90000\n`),
  });
  await expect(modal.getByTestId('import-preview-row')).toContainText('Se actualiza');
  await page.getByTestId('import-submit').click();
  await expect(page.getByText('Lista de precios importada.')).toBeVisible();
  await expect(row.getByTestId('treatment-price')).toContainText('90.000,00');
});

test('an insurer is created with its CUIT and found; a second one with the CUIT is refused naming it', async ({
  page,
}) => {
  const cuit = randomCuit();
  const name = `Obra Social E2E ${stamp()}`;
  await signInPage(page, demoUsers.administrator);
  await page.goto('/customers');
  await expect(new AppLayout(page).title).toHaveText('Clientes');
  const fill = async (customer: string) => {
    await page.getByTestId('customer-new').click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo cliente' });
    await dialog.getByLabel('Nombre o razón social').fill(customer);
    await dialog.getByLabel('Tipo de identificación').selectOption('cuit');
    await dialog.getByLabel('Identificación fiscal').fill(cuit);
    await dialog.getByLabel('Condición fiscal').selectOption('ar_responsable_inscripto');
    await dialog.getByLabel('Plazo de pago (días)').fill('60');
    await dialog.getByTestId('customer-save').click();
    return dialog;
  };
  const first = await fill(name);
  await expect(first).toBeHidden();
  await page.getByTestId('customers-search').fill(cuit);
  await expect(page.getByTestId('customer-row')).toHaveCount(1);
  await expect(page.getByTestId('customer-row')).toContainText(name);
  await expect(page.getByTestId('customer-row')).toContainText('60 días');
  const second = await fill(`${name} bis`);
  await expect(second.getByTestId('duplicate-holder')).toContainText(name);
});

test('an attendance line bills a treatment of the price list on one tooth', async ({ page, request }) => {
  const code = `E2E-${stamp()}`;
  await signInPage(page, demoUsers.administrator);
  const patientId = await createPatient(request, {
    firstName: 'Lucía',
    lastName: `Precios ${stamp()}`,
    sex: 'female',
    birthdate: '1985-06-01',
  });
  await page.goto('/price-list');
  await page.getByTestId('treatment-new').click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo tratamiento' });
  await dialog.getByLabel('Nombre').fill(`Endodoncia ${code}`);
  await dialog.getByLabel('Código').fill(code);
  await dialog.getByLabel('Precio').fill('45000');
  await dialog.getByTestId('record-save').click();
  await expect(dialog).toBeHidden();

  await page.goto(`/patients/${patientId}/mh/attendance/new`);
  const form = page.getByTestId('attendance-form');
  await form.getByLabel('Tipo de atención').selectOption('dentistry');
  await form.getByLabel('Título').fill('Endodoncia pieza 16');
  await form.getByTestId('line-add').click();
  const line = form.getByTestId('billing-line');
  await line.getByLabel('Tratamiento de la lista').selectOption({ label: `${code} · Endodoncia ${code}` });
  await expect(line.getByLabel('Descripción')).toHaveValue(`Endodoncia ${code}`);
  await expect(line.getByTestId('line-total')).toContainText('45.000');
  await line.getByLabel('Pieza (FDI)').fill('19');
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(line.getByLabel('Pieza (FDI)')).toHaveAttribute('aria-invalid', 'true');
  await line.getByLabel('Pieza (FDI)').fill('16');
  await settle(page);
  await saveScreenshot(page, 'price-list-attendance-line');
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Atención creada correctamente.')).toBeVisible();
  await expect(page.getByTestId('attendance-line')).toContainText(`${code} · pieza 16`);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the price list and customers pages pass axe and are captured, ${theme}`, async ({ page }) => {
    await signInPage(page, demoUsers.administrator);
    await page.setViewportSize({ width: 1280, height: 900 });
    for (const [path, name] of [
      ['/price-list', 'price-list'],
      ['/customers', 'customers'],
    ] as const) {
      await page.goto(`${path}?layout_theme=${theme}`);
      await checkScreen(page, `${name} ${theme}`, `${name}-${theme}`, { spinners: true });
    }
    await page.getByTestId('customer-new').click();
    await checkScreen(page, `customer dialog ${theme}`, `customers-dialog-${theme}`, { fullPage: false });
  });
}

test('the price list on a 390 px phone', async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/price-list');
  await checkScreen(page, 'price list phone', 'price-list-phone', { spinners: true });
  await page.getByTestId('treatment-new').click();
  await settle(page);
  await saveScreenshot(page, 'price-list-dialog-phone', { fullPage: false });
});
