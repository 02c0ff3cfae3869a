import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { adminHeaders } from '../support/clinic-api';
import { settle } from '../support/page';
import { demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * Issue 14, "errors where the eye is", against the real server with the demo clinic: a server
 * error on a field out of view is scrolled to, focused and toasted; malformed or unknown ids are
 * a not-found page (no "Reintentar"); messages say what is wrong; stale messages go; the history
 * tabs are all reachable at every width.
 */

function stamp(): string {
  return `${Date.now()}${Math.floor(Math.random() * 1000)}`;
}

/** A medicine made through the API, so its SKU is taken. */
async function createMedication(request: APIRequestContext): Promise<{ id: string; sku: string }> {
  const sku = `E2E-DUP-${stamp()}`;
  const response = await request.post(rootServer.url('api/medications'), {
    headers: await adminHeaders(request),
    data: {
      name: `Duplicado ${sku}`,
      sku,
      costPrice: '10',
      basePrice: '20',
      taxRate: '21',
      totalStock: 5,
      minStock: 0,
      reorderStock: 0,
      approvalStatus: 'approved',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { data: { id: string } };
  return { id: body.data.id, sku };
}

async function demoPatientId(request: APIRequestContext): Promise<string> {
  const response = await request.get(rootServer.url('api/patients?pageSize=5'), {
    headers: await adminHeaders(request),
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: { id: string }[] };
  expect(body.data.length).toBeGreaterThan(0);
  return body.data[0]?.id ?? '';
}

/** The toast region's error toasts. */
const toasts = (page: Page): Locator => page.locator('.Toastify__toast--error');

test('a duplicate SKU out of view is scrolled to, focused and toasted (light and dark)', async ({ page, request }) => {
  test.setTimeout(60_000);
  const existing = await createMedication(request);
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInPage(page, demoUsers.administrator);
  await page.goto('/medications/create');
  const form = page.getByTestId('inventory-form');
  await form.getByLabel('Nombre').fill(`Otro ${stamp()}`);
  await form.getByLabel('SKU').fill(existing.sku);
  await form.getByLabel('Precio de costo').fill('10');
  await form.getByLabel('Precio de venta (sin impuesto)').fill('20');
  // The save button is at the bottom of the long form: the SKU leaves the screen.
  await form.getByRole('button', { name: 'Crear medicamento' }).scrollIntoViewIfNeeded();
  const sku = form.getByLabel('SKU');
  await expect(sku).not.toBeInViewport();
  await form.getByRole('button', { name: 'Crear medicamento' }).click();

  await expect(sku).toBeFocused();
  await expect(sku).toBeInViewport({ ratio: 1 });
  await expect(sku).toHaveAccessibleDescription('Ya existe un artículo con este SKU.');
  await expect(toasts(page)).toHaveText('SKU: Ya existe un artículo con este SKU.');
  await expect(page).toHaveURL('/medications/create');
  // What the user sees at that moment: the field in the middle of the screen and the toast (once
  // its entrance is over: the first toast of a page also loads its container).
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(700);
  await saveScreenshot(page, 'errors-duplicate-sku-in-view-light', { fullPage: false, animations: 'allow' });

  await page.goto('/medications/create?layout_theme=dark');
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
  await form.getByLabel('Nombre').fill(`Otro ${stamp()}`);
  await form.getByLabel('SKU').fill(existing.sku);
  await form.getByLabel('Precio de costo').fill('10');
  await form.getByLabel('Precio de venta (sin impuesto)').fill('20');
  await form.getByRole('button', { name: 'Crear medicamento' }).click();
  await expect(sku).toBeFocused();
  await expect(sku).toBeInViewport({ ratio: 1 });
  await expect(toasts(page)).toHaveText('SKU: Ya existe un artículo con este SKU.');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await saveScreenshot(page, 'errors-duplicate-sku-in-view-dark', { fullPage: false, animations: 'allow' });
});

test('a mistake caught in the browser is scrolled to and focused too, with what is wrong', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInPage(page, demoUsers.administrator);
  await page.goto('/medications/create');
  const form = page.getByTestId('inventory-form');
  await form.getByLabel('Nombre').fill('x'.repeat(201));
  await form.getByLabel('Precio de costo').fill('-5');
  await form.getByLabel('Precio de venta (sin impuesto)').fill('20');
  await form.getByRole('button', { name: 'Crear medicamento' }).click();
  const name = form.getByLabel('Nombre');
  await expect(name).toBeFocused();
  await expect(name).toBeInViewport();
  await expect(name).toHaveAccessibleDescription(/^Máximo \d+ caracteres$/);
  await expect(form.getByLabel('Precio de costo')).toHaveAccessibleDescription('No puede ser negativo');
  await expect(toasts(page)).toContainText(/Nombre: Máximo \d+ caracteres/);
});

test('a birthdate in the future says the date cannot be after today', async ({ page }) => {
  await signInPage(page, demoUsers.administrator);
  await page.goto('/patients/create');
  const form = page.getByTestId('patient-form');
  await form.getByLabel('Fecha de nacimiento').fill('2999-01-01');
  await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('y'.repeat(81));
  await form.getByRole('button', { name: /Crear paciente|Guardar/ }).click();
  await expect(form.getByLabel('Fecha de nacimiento')).toHaveAccessibleDescription(
    'La fecha no puede ser posterior a hoy',
  );
  await expect(form.getByRole('textbox', { name: 'Nombre', exact: true })).toHaveAccessibleDescription(
    'Máximo 80 caracteres',
  );
  await expect(form.getByRole('textbox', { name: 'Nombre', exact: true })).toBeFocused();
});

test('the stock adjustment drops the last answer when a new mistake comes', async ({ page, request }) => {
  const item = await createMedication(request);
  await signInPage(page, demoUsers.administrator);
  await page.goto(`/medications/edit/${item.id}`);
  await page.getByTestId('adjust-open').click();
  const dialog = page.getByRole('dialog', { name: 'Registrar un ajuste de stock' });
  await dialog.getByTestId('adjust-direction-out').click();
  await dialog.getByLabel('Cantidad').fill('999');
  await dialog.getByLabel('Motivo').fill('Rotura');
  await dialog.getByRole('button', { name: 'Registrar', exact: true }).click();
  await expect(dialog.getByTestId('insufficient-stock')).toBeVisible();

  await dialog.getByLabel('Cantidad').fill('');
  await dialog.getByRole('button', { name: 'Registrar', exact: true }).click();
  await expect(dialog.getByLabel('Cantidad')).toHaveAccessibleDescription('Este campo es obligatorio');
  await expect(dialog.getByTestId('insufficient-stock')).toHaveCount(0);
});

test('a malformed or unknown id is a not-found page, not a retry', async ({ page, request }) => {
  test.setTimeout(60_000);
  const patientId = await demoPatientId(request);
  const unknown = '0190a0b0-0000-7000-8000-00000000dead';
  await signInPage(page, demoUsers.administrator);
  const cases: [string, string][] = [
    ['/medications/edit/not-a-uuid', 'No se encontró el medicamento.'],
    ['/supplies/edit/123', 'No se encontró el insumo.'],
    [`/supplies/edit/${unknown}`, 'No se encontró el insumo.'],
    ['/patients/edit/123', 'No se encontró el paciente.'],
    ['/patients/123/mh', 'No se encontró el paciente.'],
    [`/patients/${unknown}/mh`, 'No se encontró el paciente.'],
    [`/patients/123/mh/diagnosis/new`, 'No se encontró el paciente.'],
    [`/patients/${patientId}/mh/diagnosis/show/abc`, 'No se encontró el diagnóstico.'],
    [`/patients/${patientId}/mh/laboratory/edit/abc`, 'No se encontró la orden de laboratorio.'],
    [`/patients/${patientId}/mh/attendance/show/${unknown}`, 'No se encontró la atención.'],
    [`/patients/${patientId}/mh/prescription/show/abc`, 'No se encontró la receta.'],
    [`/patients/${patientId}/mh/authorization/edit/abc`, 'No se encontró la autorización de tratamiento.'],
  ];
  for (const [path, message] of cases) {
    await page.goto(path);
    const notFound = page.getByTestId('record-not-found');
    await expect(notFound, path).toBeVisible();
    await expect(notFound, path).toContainText(message);
    await expect(notFound, path).toContainText('Error 404');
    await expect(page.getByRole('button', { name: 'Reintentar' }), path).toHaveCount(0);
  }
  await page.goto('/medications/edit/not-a-uuid');
  await settle(page);
  await saveScreenshot(page, 'errors-record-not-found-light');
  await page.getByTestId('record-not-found').getByRole('link').click();
  await expect(page).toHaveURL('/medications');
});

test('every medical history tab is reachable at 1366, 1024 and 390 px (light and dark)', async ({ page, request }) => {
  test.setTimeout(60_000);
  const patientId = await demoPatientId(request);
  await signInPage(page, demoUsers.administrator);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto(`/patients/${patientId}/mh`);
  const tabs = page.getByRole('tablist').getByRole('tab');
  await expect(tabs.last()).toHaveText('Historial de cambios');
  const count = await tabs.count();
  expect(count).toBeGreaterThan(6);
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    // Wholly visible without scrolling anything sideways: the bar does not overflow and no tab is
    // clipped by it or by the window's sides. (Up and down the page scrolls as usual: the patient's
    // header, with allergies and pending recalls, may push the bar's last row below the fold.)
    const bar = page.getByRole('tablist');
    await expect
      .poll(() => bar.evaluate((element) => element.scrollWidth - element.clientWidth), {
        message: `bar at ${width} px`,
      })
      .toBeLessThanOrEqual(0);
    const barBox = await bar.boundingBox();
    for (let index = 0; index < count; index += 1) {
      const box = await tabs.nth(index).boundingBox();
      expect(box && barBox, `tab ${index} at ${width} px`).toBeTruthy();
      if (!box || !barBox) continue;
      expect(box.x, `tab ${index} at ${width} px`).toBeGreaterThanOrEqual(barBox.x);
      expect(box.x + box.width, `tab ${index} at ${width} px`).toBeLessThanOrEqual(
        Math.min(barBox.x + barBox.width, width) + 0.5,
      );
    }
  }
  await page.setViewportSize({ width: 1366, height: 768 });
  await settle(page);
  await saveScreenshot(page, 'errors-history-tabs-1366-light');
  await page.goto(`/patients/${patientId}/mh?layout_theme=dark`);
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
  await expect(tabs.last()).toBeInViewport({ ratio: 1 });
  await settle(page);
  await saveScreenshot(page, 'errors-history-tabs-1366-dark');

  // A phone: one line that scrolls, with a visible scrollbar; the last tab can be reached and opened.
  await page.goto(`/patients/${patientId}/mh?layout_theme=light`);
  await page.setViewportSize({ width: 390, height: 844 });
  const bar = page.getByRole('tablist');
  const scrollbar = await bar.evaluate((element) => getComputedStyle(element).scrollbarWidth);
  expect(scrollbar).not.toBe('none');
  await tabs.last().click();
  await expect(tabs.last()).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.last()).toBeInViewport({ ratio: 1 });
  await settle(page);
  await saveScreenshot(page, 'errors-history-tabs-390-light');
});
