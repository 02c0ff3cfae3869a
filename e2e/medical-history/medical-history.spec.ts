import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { adminHeaders, demoPatients } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { shootScreens } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * The clinical records of the medical history against the real server (demo clinic of Buenos
 * Aires): a diagnosis, a laboratory order and its result, and an attendance that takes two
 * supplies from stock, is edited in two pages (the stale one sees the conflict) and is deleted
 * (the stock comes back). The supplies are the test's own, so no other test sees their stock move.
 */

/** A demo patient with clinical alerts (the banner must show on every clinical screen). */
async function demoPatient(request: APIRequestContext): Promise<{ id: string; lastName: string; allergies: string }> {
  const body = { data: await demoPatients<{ id: string; lastName: string; allergies: string | null }>(request) };
  const patient = body.data.find((candidate) => candidate.allergies);
  expect(patient, 'a demo patient with allergies').toBeTruthy();
  return { id: patient?.id ?? '', lastName: patient?.lastName ?? '', allergies: patient?.allergies ?? '' };
}

async function createSupply(request: APIRequestContext, name: string, stock: number): Promise<string> {
  const response = await request.post(rootServer.url('api/supplies'), {
    headers: await adminHeaders(request),
    data: {
      name,
      sku: `E2E-${name.replace(/\W+/g, '-').toUpperCase()}`,
      costPrice: '10',
      basePrice: '20',
      taxRate: '21',
      totalStock: stock,
      minStock: 1,
      reorderStock: 2,
      unitMeasurement: 'unit',
    },
  });
  expect(response.status(), `supply ${name} created`).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function stockOf(page: Page, id: string): Promise<string> {
  await page.goto(`/supplies/edit/${id}`);
  const stock = page.getByTestId('current-stock');
  await expect(stock).toBeVisible();
  return (await stock.textContent()) ?? '';
}

async function pickSupply(page: Page, name: string): Promise<void> {
  const search = page.getByTestId('search-supply').getByRole('combobox');
  await search.fill(name);
  const add = page.locator(`[data-testid="item-add"][data-name="${name}"]`);
  await expect(add).toBeVisible();
  await add.click();
  await expect(page.locator(`[data-testid="used-item"][data-name="${name}"]`)).toBeVisible();
}

test('diagnosis, laboratory order with its result, and an attendance that takes stock, conflicts and gives it back', async ({
  page,
  context,
  request,
  issues,
}) => {
  test.setTimeout(120_000);
  const word = tag();
  const gauze = `Gasas e2e ${word}`;
  const gloves = `Guantes e2e ${word}`;
  const [gauzeId, glovesId] = [await createSupply(request, gauze, 20), await createSupply(request, gloves, 10)];
  const patient = await demoPatient(request);
  await signInPage(page, demoUsers.administrator);

  // The history opens on its attendances, with the other tabs beside it.
  await page.goto(`/patients/${patient.id}/mh`);
  await expect(page.getByRole('tab', { name: 'Atenciones' })).toHaveAttribute('aria-selected', 'true');
  for (const name of ['Diagnósticos', 'Laboratorio', 'Línea de tiempo', 'Historial de cambios']) {
    await expect(page.getByRole('tab', { name, exact: true })).toBeVisible();
  }

  // A diagnosis with two teeth.
  await page.getByRole('tab', { name: 'Diagnósticos' }).click();
  await page.getByTestId('new-diagnosis').click();
  await expect(page).toHaveURL(/\/mh\/diagnosis\/new$/);
  await expect(page.getByTestId('patient-name')).toContainText(patient.lastName);
  await expect(page.getByTestId('alert-allergies')).toContainText(patient.allergies);
  const diagnosisForm = page.getByTestId('diagnosis-form');
  await diagnosisForm.getByRole('button', { name: 'Guardar' }).click();
  await expect(diagnosisForm.getByText('Este campo es obligatorio')).toBeVisible();
  await diagnosisForm.getByLabel('Diagnóstico').fill(`Caries oclusal ${word}`);
  await diagnosisForm.getByLabel('Código CIE-10').fill('k02.1');
  await diagnosisForm.getByRole('button', { name: 'Pieza 36', exact: true }).click();
  await diagnosisForm.getByRole('button', { name: 'Pieza 46', exact: true }).click();
  await expect(diagnosisForm.getByTestId('teeth-selected')).toContainText('36, 46');
  await diagnosisForm.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Diagnóstico creado correctamente.')).toBeVisible();
  await expect(page.getByTestId('record-icd10')).toHaveText('K02.1');
  await expect(page.getByTestId('record-teeth')).toHaveText('36, 46');
  await expect(page.getByTestId('alert-allergies')).toBeVisible();
  await expect(page.getByTestId('change-row')).toHaveCount(1);

  // A laboratory order, then its result.
  await page.goto(`/patients/${patient.id}/mh?tab=laboratory`);
  await page.getByTestId('new-laboratory').click();
  const labForm = page.getByTestId('laboratory-form');
  await expect(labForm.getByTestId('studies-laboratory')).toContainText('Hemograma');
  await expect(labForm.getByTestId('studies-imaging')).toContainText('Radiografía dental');
  await labForm.getByLabel('Laboratorio o centro').fill(`Laboratorio Central ${word}`);
  await labForm.getByLabel('Hemograma').check();
  await labForm.getByLabel('Radiografía dental').check();
  await labForm.getByLabel('Indicaciones').fill('Ayuno de 8 horas.');
  await labForm.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Orden de laboratorio creada correctamente.')).toBeVisible();
  await expect(page.getByTestId('record-status')).toHaveText('Solicitado');
  const [pdf] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('print-order').click()]);
  await expect.poll(() => pdf.url()).toMatch(/^blob:/);
  await pdf.close();
  await page.getByTestId('record-edit').click();
  await labForm.getByLabel('Estado').selectOption('result_received');
  // The result date is required, marked so, and proposes today on the clinic's clock.
  const today = demoClinicToday();
  const resultDate = labForm.getByLabel('Fecha del resultado');
  await expect(resultDate).toHaveValue(today.split('-').reverse().join('/'));
  await expect(labForm.locator('label', { hasText: 'Fecha del resultado' })).toContainText('*');
  await resultDate.fill('');
  await labForm.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(labForm.getByText('Este campo es obligatorio')).toBeVisible();
  await resultDate.fill(today);
  await labForm.getByLabel('Resultado', { exact: true }).fill('Hemograma dentro de valores normales.');
  await labForm.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Orden de laboratorio actualizada correctamente.')).toBeVisible();
  await expect(page.getByTestId('record-status')).toHaveText('Resultado recibido');
  await expect(page.getByTestId('record-result')).toContainText('valores normales');

  // An attendance that uses two supplies.
  await page.goto(`/patients/${patient.id}/mh`);
  await page.getByTestId('new-attendance').click();
  const form = page.getByTestId('attendance-form');
  await expect(form.getByLabel('Tipo de atención').locator('optgroup')).toHaveCount(6);
  await form.getByLabel('Tipo de atención').selectOption('dentistry');
  await form.getByLabel('Título').fill(`Obturación ${word}`);
  await form.getByLabel('Honorarios').fill('10000');
  await form.getByTestId('line-add').click();
  const line = form.getByTestId('billing-line');
  await line.getByLabel('Descripción').fill('Resina compuesta');
  await line.getByLabel('Cantidad').fill('3');
  await line.getByLabel('Precio').fill('0,10');
  await expect(line.getByTestId('line-total')).toContainText('0,30');
  await expect(form.getByTestId('total-billable')).toContainText('10.000,30');
  await pickSupply(page, gauze);
  await pickSupply(page, gloves);
  await form.getByLabel(`Cantidad: ${gauze}`).fill('3');
  await form.getByLabel(`Cantidad: ${gloves}`).fill('2');
  await settle(page);
  await saveScreenshot(page, 'medical-history-attendance-filled');
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Atención creada correctamente.')).toBeVisible();
  await expect(page.getByTestId('record-supplies')).toContainText(`${gauze} × 3`);
  await expect(page.getByTestId('record-total')).toContainText('10.000,30');
  const attendanceUrl = page.url();
  const attendanceId = attendanceUrl.split('/').pop() ?? '';

  expect(await stockOf(page, gauzeId)).toBe('17');
  expect(await stockOf(page, glovesId)).toBe('8');

  // Not enough stock: the save is refused and names the item.
  await page.goto(attendanceUrl.replace('/show/', '/edit/'));
  await form.getByLabel(`Cantidad: ${gloves}`).fill('50');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByTestId('insufficient-stock')).toContainText(gloves);
  await expect(page.getByTestId('insufficient-stock')).toContainText('No se guardó nada');

  // Edited in two pages: the second save sees the first one's values.
  const other = await context.newPage();
  await page.goto(attendanceUrl.replace('/show/', '/edit/'));
  await other.goto(attendanceUrl.replace('/show/', '/edit/'));
  const otherForm = other.getByTestId('attendance-form');
  await expect(otherForm.getByLabel('Título')).toHaveValue(`Obturación ${word}`);
  await form.getByLabel('Especialidad').fill('Operatoria dental');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Atención actualizada correctamente.')).toBeVisible();
  await otherForm.getByLabel('Resumen').fill('Otra versión');
  await otherForm.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(other.getByTestId('version-conflict')).toContainText('Otra persona modificó este registro');
  await expect(otherForm.getByLabel('Especialidad')).toHaveValue('Operatoria dental');
  await saveScreenshot(other, 'medical-history-conflict');
  await other.close();

  // The timeline lists the three records, newest first, each opening its page.
  await page.goto(`/patients/${patient.id}/mh?tab=timeline`);
  await expect(page.getByTestId('timeline-entry').filter({ hasText: word })).toHaveCount(3);
  await page
    .getByTestId('timeline-entry')
    .filter({ hasText: `Caries oclusal ${word}` })
    .getByRole('link')
    .click();
  await expect(page).toHaveURL(/\/mh\/diagnosis\/show\//);

  // Deleted: permanent, and the supplies are back in stock.
  await page.goto(attendanceUrl);
  await page.getByTestId('record-delete').click();
  const dialog = page.getByRole('dialog', { name: 'Eliminar atención' });
  await expect(dialog).toContainText('La eliminación es permanente');
  await expect(dialog).toContainText('vuelven al stock');
  await dialog.getByRole('button', { name: 'Eliminar', exact: true }).click();
  await expect(page.getByText('Atención eliminada correctamente.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/patients/${patient.id}/mh\\?tab=attendances$`));
  expect(await stockOf(page, gauzeId)).toBe('20');
  expect(await stockOf(page, glovesId)).toBe('10');
  await page.goto(attendanceUrl);
  await expect(page.getByTestId('record-not-found')).toContainText('No se encontró la atención.');
  expect(attendanceId).not.toBe('');
  // Expected 4xx: the empty save, the refused stock, the stale version and the deleted record.
  const unexpected = issues
    .all()
    .filter((issue) => !/HTTP (400|404|409)/.test(issue) && !/status of (400|404|409)/.test(issue));
  expect(unexpected).toEqual([]);
});

test('a finished attendance is read-only: addenda correct it and its edit page says so', async ({ page, request }) => {
  const patient = await demoPatient(request);
  const headers = await adminHeaders(request);
  const me = (await (await request.get(rootServer.url('api/auth/system/me'), { headers })).json()) as {
    data: { id: string };
  };
  const created = await request.post(rootServer.url(`api/patients/${patient.id}/attendances`), {
    headers,
    data: {
      date: new Date().toISOString(),
      attendanceType: 'checkup_control',
      professionalId: me.data.id,
      titleResume: `Control finalizado ${tag()}`,
      finished: true,
    },
  });
  expect(created.status()).toBe(201);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  await signInPage(page, demoUsers.administrator);
  await page.goto(`/patients/${patient.id}/mh/attendance/show/${id}`);
  await expect(page.getByTestId('record-status')).toHaveText('Finalizada');
  await expect(page.getByTestId('record-edit')).toHaveCount(0);
  await expect(page.getByTestId('record-delete')).toHaveCount(0);
  const addendum = page.getByTestId('addendum-form');
  await addendum.getByLabel('Nueva adenda').fill('Se indicó control en 6 meses.');
  await addendum.getByRole('button', { name: 'Agregar adenda' }).click();
  await expect(page.getByTestId('addendum')).toContainText('Se indicó control en 6 meses.');
  await page.goto(`/patients/${patient.id}/mh/attendance/edit/${id}`);
  await expect(page.getByTestId('attendance-locked')).toContainText('no se puede editar');
});

test('screenshots: the history and the attendance form in light, dark and at 390 px', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const patient = await demoPatient(request);
  await signInPage(page, demoUsers.administrator);
  const screens = [
    { name: 'medical-history-timeline', path: `/patients/${patient.id}/mh?tab=timeline`, ready: 'tab-timeline' },
    { name: 'medical-history-attendances', path: `/patients/${patient.id}/mh`, ready: 'tab-attendance' },
    {
      name: 'medical-history-attendance-form',
      path: `/patients/${patient.id}/mh/attendance/new`,
      ready: 'attendance-form',
    },
    {
      name: 'medical-history-diagnosis-form',
      path: `/patients/${patient.id}/mh/diagnosis/new`,
      ready: 'diagnosis-form',
    },
    {
      name: 'medical-history-laboratory-form',
      path: `/patients/${patient.id}/mh/laboratory/new`,
      ready: 'laboratory-form',
    },
  ];
  await shootScreens(page, screens);
  expect(issues.all()).toEqual([]);
});
