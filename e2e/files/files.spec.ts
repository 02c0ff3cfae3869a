import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { settle, tag } from '../support/page';
import { apiSignIn, demoUsers, openAsAdministrator, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';
import { onePagePdf, pngPicture } from './images';

/*
 * Files and exams of a patient against the real server (UPLOAD_MAX_MB=2 in playwright.config.ts):
 * several files uploaded at once (the image gets its thumbnail), a file too large refused by name
 * before anything is sent, a disguised page refused by the server, the image viewed in the modal
 * and downloaded, the PDF opened in a new tab, an edit, a delete, a failed download.
 */

async function newPatient(request: APIRequestContext): Promise<{ id: string; token: string }> {
  const token = await apiSignIn(request, demoUsers.administrator);
  const response = await request.post(rootServer.url('api/patients'), {
    headers: { Authorization: `Bearer ${token}` },
    data: { firstName: 'Valentina', lastName: `Archivos ${tag()}`, sex: 'female', birthdate: '1988-09-14' },
  });
  expect(response.status(), 'patient created').toBe(201);
  return { id: ((await response.json()) as { data: { id: string } }).data.id, token };
}

/** Every thumbnail shown has really loaded (an object URL of the server's JPEG). */
async function expectThumbnailsLoaded(page: Page, count: number): Promise<void> {
  const thumbnails = page.getByTestId('file-thumbnail');
  await expect(thumbnails).toHaveCount(count);
  for (const thumbnail of await thumbnails.all()) {
    await expect(thumbnail).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  }
}

const smile = pngPicture(640, 480, [70, 120, 190]);
const panoramic = pngPicture(900, 420, [40, 40, 48]);

test('uploads several files (thumbnail shown), refuses one too large by name, views, downloads, edits and deletes', async ({
  page,
  context,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const patient = await newPatient(request);
  await openAsAdministrator(page, `/patients/${patient.id}/mh?tab=files`);
  await expect(page.getByRole('tab', { name: 'Archivos y estudios' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('empty-files')).toHaveText('Todavía no hay archivos ni estudios de este paciente.');

  // A file over 2 MB is refused here, by name, before anything is sent.
  await page.getByTestId('upload-files').click();
  const dialog = page.getByTestId('upload-dialog');
  await expect(dialog.getByText('Hasta 2 MB por archivo y 10 MB en total.', { exact: false })).toBeVisible();
  const huge = Buffer.concat([smile, Buffer.alloc(2 * 1024 * 1024)]);
  await dialog
    .getByTestId('file-input')
    .setInputFiles({ name: 'tomografía-completa.png', mimeType: 'image/png', buffer: huge });
  await expect(dialog.getByTestId('upload-error')).toHaveText(
    'El archivo tomografía-completa.png supera el tamaño máximo de 2 MB.',
  );
  await expect(dialog.getByTestId('upload-submit')).toBeDisabled();
  await dialog.getByRole('button', { name: 'Quitar tomografía-completa.png' }).click();
  await expect(dialog.getByTestId('upload-error')).toHaveCount(0);

  // Two files at once, each with its type and note.
  await dialog.getByTestId('file-input').setInputFiles([
    { name: 'sonrisa frontal.png', mimeType: 'image/png', buffer: smile },
    { name: 'hemograma.pdf', mimeType: 'application/pdf', buffer: onePagePdf('Hemograma completo') },
  ]);
  const items = dialog.getByTestId('upload-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).getByTestId('upload-type')).toHaveValue('photo');
  await expect(items.nth(1).getByTestId('upload-type')).toHaveValue('lab_result');
  await items.nth(0).getByTestId('upload-note').fill('Sonrisa antes del tratamiento');
  await expect(dialog.getByTestId('upload-submit')).toHaveText('Subir 2 archivos');
  await dialog.getByTestId('upload-submit').click();
  await expect(page.getByText('Archivos subidos correctamente.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const cards = page.getByTestId('file-card');
  await expect(cards).toHaveCount(2);
  await expect(page.getByTestId('files-count')).toHaveText('2 archivos');
  // Newest first: both came in one upload, in the order sent (the later id first).
  const photoCard = cards.filter({ hasText: 'sonrisa frontal.png' });
  const pdfCard = cards.filter({ hasText: 'hemograma.pdf' });
  await expect(photoCard.getByTestId('file-type')).toHaveText('Fotografía');
  await expect(photoCard.getByTestId('file-note')).toHaveText('Sonrisa antes del tratamiento');
  await expect(photoCard.getByTestId('file-uploaded')).toContainText('por ');
  await expect(pdfCard.getByTestId('file-pdf-icon')).toBeVisible();
  await expect(pdfCard.getByTestId('file-type')).toHaveText('Resultado de laboratorio');
  await expectThumbnailsLoaded(page, 1);

  // The image in the viewer, then downloaded with its name.
  await photoCard.getByTestId('file-view').click();
  const viewer = page.getByTestId('file-viewer');
  await expect(viewer.getByTestId('file-viewer-image')).toBeVisible();
  await expect
    .poll(() => viewer.getByTestId('file-viewer-image').evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBe(640);
  const downloading = page.waitForEvent('download');
  await viewer.getByTestId('viewer-download').click();
  expect((await downloading).suggestedFilename()).toBe('sonrisa frontal.png');
  await viewer.getByRole('button', { name: 'Cerrar' }).click();
  await expect(viewer).toHaveCount(0);

  // The PDF opens in a new tab, from an object URL (the session travels in the fetch).
  const opened = context.waitForEvent('page');
  await pdfCard.getByTestId('file-view').click();
  const pdfTab = await opened;
  await expect.poll(() => pdfTab.url()).toMatch(/^blob:/);
  await pdfTab.close();

  // Type and note changed.
  await photoCard.getByTestId('file-edit').click();
  const edit = page.getByTestId('file-edit-dialog');
  await edit.getByTestId('edit-type').selectOption('dental_radiography');
  await edit.getByTestId('edit-note').fill('Control a los 6 meses');
  await edit.getByTestId('edit-save').click();
  await expect(page.getByText('Archivo actualizado correctamente.')).toBeVisible();
  await expect(photoCard.getByTestId('file-type')).toHaveText('Radiografía dental');
  await expect(photoCard.getByTestId('file-note')).toHaveText('Control a los 6 meses');

  // A failed download says so.
  const contentDownload = (url: URL) => url.pathname.endsWith('/content') && url.searchParams.get('download') === '1';
  await page.route(contentDownload, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":"internal_server_error"}' }),
  );
  await pdfCard.getByTestId('file-download').click();
  await expect(page.getByText('No se pudo descargar el archivo.')).toBeVisible();
  await page.unroute(contentDownload);

  // Deleted after the confirmation.
  await pdfCard.getByTestId('file-delete').click();
  const confirm = page.getByTestId('delete-file');
  await expect(confirm).toContainText('Vas a eliminar «hemograma.pdf».');
  await expect(confirm).toContainText('La eliminación es permanente');
  await confirm.getByTestId('delete-confirm').click();
  await expect(page.getByText('Archivo eliminado correctamente.')).toBeVisible();
  await expect(cards).toHaveCount(1);
  await expect(page.getByTestId('files-count')).toHaveText('1 archivo');

  // Only the failed download (its answer and the browser's console line about it).
  expect(issues.all().filter((issue) => !/\b500\b/.test(issue))).toEqual([]);
});

test('the server refuses a page disguised as an image, naming it', async ({ page, request, issues }) => {
  const patient = await newPatient(request);
  await openAsAdministrator(page, `/patients/${patient.id}/mh?tab=files`);
  await page.getByTestId('upload-files').click();
  const dialog = page.getByTestId('upload-dialog');
  await dialog.getByTestId('file-input').setInputFiles([
    { name: 'radiografía.png', mimeType: 'image/png', buffer: smile },
    { name: 'falsa.png', mimeType: 'image/png', buffer: Buffer.from('<!doctype html><script>alert(1)</script>') },
  ]);
  await dialog.getByTestId('upload-submit').click();
  await expect(dialog.getByTestId('upload-error')).toHaveText(
    'El archivo falsa.png no es de un tipo admitido (imágenes JPEG, PNG o WebP, o PDF).',
  );
  // Nothing of the upload was kept.
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(page.getByTestId('empty-files')).toBeVisible();
  expect(issues.all()).toContainEqual(expect.stringMatching(/^HTTP 415: POST .*\/files$/));
  expect(issues.all().filter((issue) => !/\b415\b/.test(issue))).toEqual([]);
});

test('screenshots: the files with their thumbnails and the upload dialog, light, dark and 390 px', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(90_000);
  const patient = await newPatient(request);
  const upload = async (name: string, buffer: Buffer, mimeType: string, fileType: string, note: string | null) => {
    const form = new FormData();
    form.append('metadata', JSON.stringify([{ fileType, note, takenOn: '2026-03-02' }]));
    form.append('files', new Blob([new Uint8Array(buffer)], { type: mimeType }), name);
    const response = await request.post(rootServer.url(`api/patients/${patient.id}/files`), {
      headers: { Authorization: `Bearer ${patient.token}` },
      multipart: form,
    });
    expect(response.status(), `${name} uploaded`).toBe(201);
  };
  await upload(
    'informe-laboratorio.pdf',
    onePagePdf('Informe'),
    'application/pdf',
    'lab_result',
    'Glucemia y hemograma',
  );
  await upload('panorámica inicial.png', panoramic, 'image/png', 'x_ray', 'Panorámica antes de la extracción del 38');
  await upload('periapical 36.png', pngPicture(480, 600, [30, 30, 36]), 'image/png', 'dental_radiography', null);
  await upload('sonrisa.png', smile, 'image/png', 'photo', 'Sonrisa frontal, control a los 6 meses');
  await signInPage(page, demoUsers.administrator);
  const path = `/patients/${patient.id}/mh?tab=files`;
  const openDialog = async () => {
    await page.getByTestId('upload-files').click();
    await page.getByTestId('file-input').setInputFiles([
      { name: 'radiografía de control con nombre largo.png', mimeType: 'image/png', buffer: smile },
      { name: 'receta-escaneada.pdf', mimeType: 'application/pdf', buffer: onePagePdf('Receta') },
    ]);
    await expect(page.getByTestId('upload-item')).toHaveCount(2);
  };
  for (const theme of ['light', 'dark'] as const) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${path}&layout_theme=${theme}`);
    await expectThumbnailsLoaded(page, 3);
    await settle(page);
    await saveScreenshot(page, `files-list-${theme}`);
    await openDialog();
    await saveScreenshot(page, `files-upload-dialog-${theme}`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${path}&layout_theme=light`);
  await expectThumbnailsLoaded(page, 3);
  await settle(page);
  await saveScreenshot(page, 'files-list-390');
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'files fit 390 px').toBeLessThanOrEqual(390);
  await openDialog();
  await saveScreenshot(page, 'files-upload-dialog-390');
  expect(issues.all()).toEqual([]);
});
