import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { saveScreenshot } from '../support/artifacts';
import { idOfRow } from '../support/clinic-api';
import { settle } from '../support/page';
import { apiSignIn, demoUsers, signInPage } from '../support/real-users';
import { shootScreens } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Medicines ("Farmacias"), supplies and the "to order" list against the real server, with the
 * Spanish demo clinic (pesos). Every test makes its own items (unique SKU and barcode), so tests
 * running side by side never read what another one changes.
 */

function unique(label: string): { sku: string; barCode: string; name: string } {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  return { sku: `E2E-${label}-${stamp}`, barCode: `779${stamp}`.slice(0, 13), name: `${label} ${stamp}` };
}

/** The id of an item found by its exact SKU (through the API, as the administrator). */
function itemIdBySku(request: APIRequestContext, kind: 'medications' | 'supplies', sku: string) {
  return idOfRow(request, `api/${kind}?q=${encodeURIComponent(sku)}`, { field: 'sku', value: sku }, `item ${sku}`);
}

async function adjust(page: Page, direction: 'in' | 'out', quantity: string, reason: string) {
  await page.getByTestId('adjust-open').click();
  const dialog = page.getByRole('dialog', { name: 'Registrar un ajuste de stock' });
  await dialog.getByTestId(`adjust-direction-${direction}`).click();
  await dialog.getByLabel('Cantidad').fill(quantity);
  await dialog.getByLabel('Motivo').fill(reason);
  await dialog.getByRole('button', { name: 'Registrar', exact: true }).click();
  return dialog;
}

test('a medicine is created through the form, adjusted below its reorder level and listed to order', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const item = unique('Amoxidal');
  await signInPage(page, demoUsers.administrator);
  const layout = await AppLayout.open(page, '/medications', 'Farmacias');
  await page.getByRole('link', { name: 'Nuevo medicamento' }).click();
  await expect(page).toHaveURL('/medications/create');
  await expect(layout.title).toHaveText('Nuevo medicamento');

  const form = page.getByTestId('inventory-form');
  await form.getByRole('button', { name: 'Crear medicamento' }).click();
  await expect(form.getByText('Este campo es obligatorio').first()).toBeVisible();

  await form.getByLabel('Nombre').fill(item.name);
  await form.getByLabel('SKU').fill(item.sku);
  await form.getByLabel('Código de barras').fill(item.barCode);
  await form.getByLabel('Principio activo').fill('Amoxicilina');
  await form.getByLabel('Concentración').fill('875 mg');
  await form.getByLabel('Vía de aplicación').selectOption({ label: 'Oral' });
  await form.getByLabel('Requiere receta').check();
  await form.getByLabel('Precio de costo').fill('800');
  await form.getByLabel('Precio de venta (sin impuesto)').fill('1000,50');
  await form.getByRole('textbox', { name: 'Impuesto', exact: true }).fill('21');
  // 1000.50 × 1.21 = 1210.605 → 1210.61 (half-up), in pesos as an Argentine reads them.
  await expect(page.getByTestId('price-with-tax')).toHaveText(/\$\s1\.210,61/);
  await form.getByRole('textbox', { name: 'Stock', exact: true }).fill('10');
  await form.getByLabel('Stock mínimo').fill('6');
  await form.getByLabel('Punto de pedido').fill('5');
  await form.getByLabel('Stock máximo').fill('20');
  await form.getByRole('button', { name: 'Crear medicamento' }).click();
  await expect(form.getByText('El stock mínimo no puede superar el punto de pedido')).toBeVisible();
  await form.getByLabel('Stock mínimo').fill('2');
  await form.getByRole('button', { name: 'Crear medicamento' }).click();

  await expect(page.getByText('Medicamento creado correctamente.')).toBeVisible();
  await expect(page).toHaveURL(/\/medications\/edit\/[0-9a-f-]+$/);
  await expect(page.getByTestId('item-name')).toHaveText(item.name);
  await expect(page.getByTestId('current-stock')).toHaveText('10');
  await expect(page.getByTestId('stock-summary').getByTestId('stock-badge')).toHaveAttribute('data-level', 'ok');
  await expect(page.getByTestId('movement-row').first()).toContainText('Stock inicial');
  await expect(page.getByTestId('movement-row').first()).toContainText('+10');

  // Taking out more than there is: the item and what is left are named.
  let dialog = await adjust(page, 'out', '50', 'Inventario físico');
  await expect(dialog.getByTestId('insufficient-stock')).toContainText(`«${item.name}»: quedan 10`);
  await saveScreenshot(page, 'inventory-adjust-insufficient');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();

  dialog = await adjust(page, 'out', '6', 'Vencidos');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Ajuste de stock registrado.')).toBeVisible();
  await expect(page.getByTestId('current-stock')).toHaveText('4');
  const badge = page.getByTestId('stock-summary').getByTestId('stock-badge');
  await expect(badge).toHaveAttribute('data-level', 'reorder');
  await expect(badge).toHaveClass(/text-bg-warning/);
  await expect(page.getByTestId('movement-row').first()).toContainText('Ajuste (salida)');
  await expect(page.getByTestId('movement-row').first()).toContainText('−6');
  await expect(page.getByTestId('movement-row').first()).toContainText('Vencidos');

  // "Para pedir": up to the maximum, 20 − 4 = 16.
  await layout.follow('/inventory/reorder');
  await expect(layout.title).toHaveText('Artículos para pedir');
  // The icon sidebar opened under the pointer: move away so it folds again.
  await page.mouse.move(900, 400);
  const row = page.locator(`[data-testid="reorder-row"][data-sku="${item.sku}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('suggested-quantity')).toContainText('16');
  await expect(row).toContainText('Medicamento');
  // A click anywhere on the row opens the item.
  await row.getByTestId('suggested-quantity').click();
  await expect(page.getByTestId('item-name')).toHaveText(item.name);

  await adjust(page, 'out', '3', 'Uso en consultorio');
  await expect(page.getByTestId('current-stock')).toHaveText('1');
  await expect(badge).toHaveAttribute('data-level', 'critical');
  await expect(badge).toHaveClass(/text-bg-danger/);
  await expect(badge).toContainText('Crítico');
});

test('a supply is created through the form; a SKU already in use links to its item', async ({ page }) => {
  const item = unique('Guantes');
  await signInPage(page, demoUsers.administrator);
  await page.goto('/supplies/create');
  const form = page.getByTestId('inventory-form');
  await form.getByLabel('Nombre').fill(item.name);
  await form.getByLabel('SKU').fill('INS-GUA-M');
  await form.getByLabel('Marca').fill('Descarpack');
  await form.getByLabel('Modelo').fill('Nitrilo azul');
  await form.getByLabel('Unidad de medida').selectOption({ label: 'Caja' });
  await form.getByLabel('Unidades por envase').fill('100');
  await form.getByLabel('Precio de costo').fill('9000');
  await form.getByLabel('Precio de venta (sin impuesto)').fill('12000');
  await form.getByRole('textbox', { name: 'Stock', exact: true }).fill('3');
  await form.getByLabel('Stock mínimo').fill('1');
  await form.getByLabel('Punto de pedido').fill('2');
  await form.getByRole('button', { name: 'Crear insumo' }).click();
  await expect(form.getByText('Ya existe un artículo con este SKU.')).toBeVisible();
  await expect(form.getByTestId('duplicate-link')).toHaveAttribute('href', /\/supplies\/edit\/[0-9a-f-]+$/);

  await form.getByLabel('SKU').fill(item.sku);
  await form.getByRole('button', { name: 'Crear insumo' }).click();
  await expect(page.getByText('Insumo creado correctamente.')).toBeVisible();
  await expect(page.getByTestId('item-name')).toHaveText(item.name);
  await expect(page.getByTestId('inventory-item')).toContainText('Descarpack · Nitrilo azul');
  await expect(page.getByTestId('current-stock')).toHaveText('3');

  // Edit and save: the item page keeps the new values.
  await form.getByLabel('Modelo').fill('Nitrilo negro');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Insumo actualizado correctamente.')).toBeVisible();
  await expect(page.getByTestId('inventory-item')).toContainText('Descarpack · Nitrilo negro');

  await page.goto('/supplies');
  await page.getByLabel('Buscar en el inventario').fill(item.sku);
  await expect(page.getByTestId('inventory-row')).toHaveCount(1);
  await expect(page.getByTestId('inventory-row')).toContainText(item.name);
  await expect(page.getByTestId('inventory-row')).toContainText(/\$\s14\.520,00/);
});

test('search: a scanned barcode (code + Enter) opens its item; accents do not matter', async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await page.goto('/medications');
  const search = page.getByLabel('Buscar en el inventario');

  await search.fill('lidocaina');
  await expect(page.getByTestId('inventory-row').first()).toContainText('Lidocaína 2% con epinefrina');

  await search.fill('7795320001014');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/medications\/edit\/[0-9a-f-]+$/);
  await expect(page.getByTestId('item-name')).toHaveText('Lidocaína 2% con epinefrina 1:100.000');
});

test('CSV import: a file with a bad row imports nothing; a good one imports every row', async ({ page }) => {
  const first = unique('Gasa');
  const second = unique('Algodon');
  await signInPage(page, demoUsers.administrator);
  await page.goto('/supplies');
  await page.getByRole('button', { name: 'Importar CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar insumos desde CSV' });
  await expect(dialog).toBeVisible();

  const header = 'Nombre,SKU,Precio de costo,Precio de venta,Impuesto (%),Stock,Stock mínimo,Punto de pedido,Color';
  const bad = `${header}\n${first.name},${first.sku},100,150,21,10,1,2,azul\n,${second.sku},abc,150,21,5,1,2,rojo\n`;
  await dialog.getByTestId('import-file').setInputFiles({
    name: 'insumos.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(bad, 'utf8'),
  });
  await expect(dialog.getByTestId('import-summary')).toContainText('El archivo tiene 2 filas.');
  await expect(dialog.getByTestId('import-summary')).toContainText('Columnas ignoradas: Color.');
  await expect(dialog.getByTestId('import-invalid')).toBeVisible();
  const nameError = dialog.getByTestId('import-error').filter({ hasText: 'Nombre' });
  await expect(nameError).toContainText('3');
  await expect(nameError).toContainText('Este campo es obligatorio');
  await expect(dialog.getByTestId('import-error').filter({ hasText: 'Precio de costo' })).toBeVisible();
  await expect(dialog.getByTestId('import-submit')).toBeDisabled();
  await saveScreenshot(page, 'inventory-import-errors');

  // Nothing was imported: not even the good row.
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await page.getByLabel('Buscar en el inventario').fill(first.sku);
  await expect(page.getByTestId('inventory-empty')).toBeVisible();

  await page.getByRole('button', { name: 'Importar CSV' }).click();
  const good = `${header}\n${first.name},${first.sku},100,150,21,10,1,2,azul\n${second.name},${second.sku},"80,5",120,21,5,1,2,rojo\n`;
  await dialog.getByTestId('import-file').setInputFiles({
    name: 'insumos.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(good, 'utf8'),
  });
  await expect(dialog.getByTestId('import-preview-row')).toHaveCount(2);
  await saveScreenshot(page, 'inventory-import-preview');
  await dialog.getByRole('button', { name: 'Importar 2 artículos' }).click();
  await expect(page.getByText('Artículos importados correctamente.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.getByLabel('Buscar en el inventario').fill(second.sku);
  await expect(page.locator(`[data-testid="inventory-row"][data-sku="${second.sku}"]`)).toBeVisible();
  await page.getByLabel('Buscar en el inventario').fill(first.sku);
  await expect(page.locator(`[data-testid="inventory-row"][data-sku="${first.sku}"]`)).toContainText('10');
});

test('the user level sees the catalogue and the item read-only: no adjustment, no save, no import', async ({
  page,
  request,
}) => {
  const id = await itemIdBySku(request, 'medications', 'MED-AMOX-500');
  await signInPage(page, demoUsers.user);
  await page.goto('/medications');
  await expect(page.getByTestId('inventory-row').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Nuevo medicamento' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Importar CSV' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Exportar CSV' })).toBeVisible();

  await page.goto(`/medications/edit/${id}`);
  await expect(page.getByTestId('item-name')).toHaveText('Amoxicilina 500 mg');
  await expect(page.getByTestId('read-only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Registrar ajuste' })).toHaveCount(0);
  await expect(page.getByTestId('inventory-save')).toHaveCount(0);
  await expect(page.getByTestId('inventory-form').getByLabel('Nombre')).toBeDisabled();
  await expect(page.getByTestId('stock-history')).toBeVisible();
  await settle(page);
  await saveScreenshot(page, 'inventory-item-read-only');

  await page.goto('/medications/create');
  await expect(page.getByTestId('forbidden')).toBeVisible();
});

test('screenshots: list, form and item page in light, dark and at 390 px', async ({ page, request, issues }) => {
  test.setTimeout(90_000);
  const id = await itemIdBySku(request, 'medications', 'MED-LIDO-2E');
  await signInPage(page, demoUsers.administrator);
  const screens = [
    { name: 'inventory-list', path: '/medications', ready: 'inventory-row' },
    { name: 'inventory-supplies', path: '/supplies', ready: 'inventory-row' },
    { name: 'inventory-form', path: '/medications/create', ready: 'inventory-form' },
    { name: 'inventory-item', path: `/medications/edit/${id}`, ready: 'movement-row' },
    { name: 'inventory-reorder', path: '/inventory/reorder', ready: 'reorder-row' },
  ];
  await shootScreens(page, screens);
  // Every inventory page under the strict CSP (zod without eval) and without errors.
  expect(issues.all()).toEqual([]);
});

test('a stale save says someone else changed the item and loads its current values; export downloads CSV', async ({
  page,
  request,
}) => {
  const item = unique('Hilo');
  const token = await apiSignIn(request, demoUsers.administrator);
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post(rootServer.url('api/supplies'), {
    headers,
    data: {
      name: item.name,
      sku: item.sku,
      costPrice: '10',
      basePrice: '20',
      taxRate: '21',
      totalStock: 5,
      minStock: 1,
      reorderStock: 2,
    },
  });
  expect(created.status()).toBe(201);
  const { data } = (await created.json()) as { data: Record<string, unknown> & { id: string } };

  await signInPage(page, demoUsers.administrator);
  await page.goto(`/supplies/edit/${data.id}`);
  const form = page.getByTestId('inventory-form');
  await expect(form.getByLabel('Nombre')).toHaveValue(item.name);

  // Someone else renames it meanwhile.
  const changed = await request.put(rootServer.url(`api/supplies/${data.id}`), {
    headers,
    data: { ...data, name: `${item.name} (otra persona)` },
  });
  expect(changed.status()).toBe(200);

  await form.getByLabel('Marca').fill('3M');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByTestId('version-conflict')).toContainText('Otra persona modificó este artículo');
  await expect(form.getByLabel('Nombre')).toHaveValue(`${item.name} (otra persona)`);
  await expect(form.getByLabel('Marca')).toHaveValue('');

  await page.goto('/supplies');
  await page.getByLabel('Buscar en el inventario').fill(item.sku);
  await expect(page.getByTestId('inventory-row')).toHaveCount(1);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const content = await (await file.createReadStream()).toArray();
  const text = Buffer.concat(content as Buffer[]).toString('utf8');
  expect(text).toContain('Nombre');
  expect(text).toContain(item.sku);
});
