import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { adminHeaders, createPatient } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { checkScreen, themed } from '../support/screens';
import { rootServer } from '../support/servers';
import { onePagePdf, pngPicture } from './images';

/*
 * Files of a diagnosis or a laboratory order (issue 24) against the real server: the
 * laboratory's PDF uploaded and the order marked received in one step, shown beside the result;
 * a photo attached to a diagnosis, removed from it and found still in the patient's files, which
 * say the record each file belongs to and filter by it. Screenshots light, dark and 390 px; axe.
 */

async function setUp(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const me = (await (await request.get(rootServer.url('api/auth/system/me'), { headers })).json()) as {
    data: { id: string };
  };
  const patientId = await createPatient(request, {
    firstName: 'Renata',
    lastName: `Registros ${tag()}`,
    sex: 'female',
    birthdate: '1979-05-02',
  });
  const create = async (collection: string, data: object) => {
    const response = await request.post(rootServer.url(`api/patients/${patientId}/${collection}`), { headers, data });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { data: { id: string } }).data.id;
  };
  const diagnosis = await create('diagnoses', {
    date: '2026-03-02',
    professionalId: me.data.id,
    text: 'Fractura coronaria del 21',
  });
  const laboratory = await create('laboratories', {
    orderDate: '2026-03-02',
    professionalId: me.data.id,
    laboratoryName: 'Laboratorio Central',
    studies: ['blood_count'],
  });
  return { patientId, diagnosis, laboratory, headers };
}

test('attaches the laboratory PDF and marks the order received in one step; a diagnosis file removed stays in the patient files', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const { patientId, diagnosis, laboratory } = await setUp(request);
  await signInPage(page, demoUsers.administrator);

  // The laboratory's result: the PDF, the date and the text in one dialog, one request.
  await page.goto(`/patients/${patientId}/mh/laboratory/show/${laboratory}`);
  await expect(page.getByTestId('record-status')).toHaveText('Solicitado');
  await page.getByTestId('receive-result').click();
  const dialog = page.getByTestId('upload-dialog');
  await expect(dialog.getByRole('heading', { name: 'Recibir resultado del laboratorio' })).toBeVisible();
  // The result date is required, marked so, and proposes today on the clinic's clock.
  await expect(dialog.getByLabel('Fecha del resultado')).toHaveValue(demoClinicToday().split('-').reverse().join('/'));
  await expect(dialog.locator('label', { hasText: 'Fecha del resultado' })).toContainText('*');
  await dialog.getByTestId('receive-text').fill('Hemograma dentro de valores normales.');
  await dialog
    .getByTestId('file-input')
    .setInputFiles({ name: 'hemograma-resultado.pdf', mimeType: 'application/pdf', buffer: onePagePdf('Hemograma') });
  await expect(dialog.getByTestId('upload-type')).toHaveValue('lab_result');
  const posts: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() !== 'GET' && sent.url().includes('/api/')) posts.push(`${sent.method()} ${sent.url()}`);
  });
  await dialog.getByTestId('upload-submit').click();
  await expect(page.getByText('Orden de laboratorio actualizada', { exact: false })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect(posts).toEqual([expect.stringMatching(/POST .*\/laboratories\/[^/]+\/result$/)]);
  await expect(page.getByTestId('record-status')).toHaveText('Resultado recibido');
  await expect(page.getByTestId('record-result')).toContainText('Hemograma dentro de valores normales.');
  await expect(page.getByTestId('record-result-files')).toContainText('hemograma-resultado.pdf');
  await expect(page.getByTestId('receive-result')).toHaveCount(0);
  await expect(page.getByTestId('record-file')).toHaveCount(1);

  // A photo attached to the diagnosis, then removed from it.
  await page.goto(`/patients/${patientId}/mh/diagnosis/show/${diagnosis}`);
  await expect(page.getByTestId('record-files-empty')).toHaveText('Este registro aún no tiene archivos.');
  await page.getByTestId('record-files-attach').click();
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'fractura-21.png', mimeType: 'image/png', buffer: pngPicture(640, 480, [180, 60, 60]) });
  await page.getByTestId('upload-submit').click();
  await expect(page.getByText('Archivos subidos correctamente.')).toBeVisible();
  const files = page.getByTestId('record-file');
  await expect(files).toHaveCount(1);
  await files.getByTestId('record-file-open').click();
  await expect(page.getByTestId('file-viewer')).toBeVisible();
  await page.getByTestId('file-viewer').getByRole('button', { name: 'Cerrar' }).first().click();
  await files.getByTestId('record-file-unlink').click();
  await expect(page.getByTestId('confirm-delete')).toContainText('sigue en los archivos del paciente');
  await page.getByTestId('delete-confirm').click();
  await expect(page.getByText('Archivo quitado del registro', { exact: false })).toBeVisible();
  await expect(page.getByTestId('record-files-empty')).toBeVisible();

  // Still in the patient's files: loose now; the laboratory's PDF says its order and links to it.
  await page.goto(`/patients/${patientId}/mh?tab=files`);
  const cards = page.getByTestId('file-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: 'fractura-21.png' }).getByTestId('file-record')).toHaveCount(0);
  await page.getByTestId('files-record-filter').selectOption('laboratory');
  await expect(cards).toHaveCount(1);
  await expect(cards.getByTestId('file-record')).toHaveText('Orden de laboratorio');
  await page.getByTestId('files-record-filter').selectOption('none');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText('fractura-21.png');
  await page.getByTestId('files-record-filter').selectOption('laboratory');
  await cards.getByTestId('file-record').click();
  await expect(page).toHaveURL(new RegExp(`/mh/laboratory/show/${laboratory}$`));
  expect(issues.all()).toEqual([]);
});

test('screenshots and axe: a record with its files, light, dark and 390 px', async ({ page, request, issues }) => {
  test.setTimeout(120_000);
  const { patientId, diagnosis, laboratory, headers } = await setUp(request);
  const attach = async (collection: string, id: string, name: string, buffer: Buffer, fileType: string) => {
    const form = new FormData();
    form.append('metadata', JSON.stringify([{ fileType }]));
    form.append('files', new Blob([new Uint8Array(buffer)]), name);
    const response = await request.post(rootServer.url(`api/patients/${patientId}/${collection}/${id}/files`), {
      headers,
      multipart: form,
    });
    expect(response.status(), name).toBe(201);
  };
  await attach('diagnoses', diagnosis, 'fractura-21 vestibular.png', pngPicture(640, 480, [180, 60, 60]), 'photo');
  await attach('diagnoses', diagnosis, 'periapical-21.png', pngPicture(480, 600, [30, 30, 36]), 'dental_radiography');
  await attach('laboratories', laboratory, 'hemograma-resultado.pdf', onePagePdf('Hemograma'), 'lab_result');
  await signInPage(page, demoUsers.administrator);
  const screens = [
    ['record-files-diagnosis', `/patients/${patientId}/mh/diagnosis/show/${diagnosis}`],
    ['record-files-laboratory', `/patients/${patientId}/mh/laboratory/show/${laboratory}`],
    ['record-files-laboratory-edit', `/patients/${patientId}/mh/laboratory/edit/${laboratory}`],
    ['record-files-patient-files', `/patients/${patientId}/mh?tab=files`],
  ] as const;
  for (const theme of ['light', 'dark'] as const) {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const [name, path] of screens) {
      await page.goto(themed(path, theme));
      await checkScreen(page, `${path} (${theme})`, `${name}-${theme}`, { spinners: true });
    }
    await page.goto(`${screens[1][1]}?layout_theme=${theme}`);
    await page.getByTestId('receive-result').click();
    await settle(page);
    await saveScreenshot(page, `record-files-receive-dialog-${theme}`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [name, path] of screens) {
    await page.goto(themed(path, 'light'));
    await settle(page, { spinners: true });
    await saveScreenshot(page, `${name}-390`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} fits 390 px`).toBeLessThanOrEqual(
      390,
    );
  }
  expect(issues.all()).toEqual([]);
});
