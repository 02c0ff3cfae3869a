import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { seedToken } from '../fixtures/session';
import { expect, test } from '../fixtures/test';
import { settle, tag } from '../support/page';
import { demoPassword, demoUsers } from '../support/real-users';
import { checkScreen, screenshotAtPhoneWidth } from '../support/screens';
import { basePathServer as base } from '../support/servers';

/*
 * Issue 42, Administración › Importar datos, as a clinic leaving GesDent would: its patients'
 * export (e2e/fixtures/gesdent-pacientes.csv: Windows-1252, GesDent's own column names, an
 * impossible date, a row without last name, an id repeated) is uploaded, the encoding is detected,
 * the one column the suggestions miss ("Correo-e") is mapped by hand, the dry run shows each row's
 * fate and why, the import creates the patients, and the same file again changes nothing. On the
 * sub-path server: its demo clinic is the suite's quiet one, so 18 new patients disturb no other
 * spec (and the upload and downloads go through the base path).
 */

const fixture = path.join(import.meta.dirname, '../fixtures/gesdent-pacientes.csv');

interface RunRow {
  id: string;
  source: string;
  state: string;
  counts: Record<string, number>;
}

async function signIn(page: Page): Promise<Record<string, string>> {
  const answer = await page.request.post(base.url('api/auth/sign-in'), {
    data: { email: demoUsers.administrator, password: demoPassword, remember: false },
  });
  expect(answer.status()).toBe(200);
  const token = ((await answer.json()) as { data: { token: string } }).data.token;
  await seedToken(page, token);
  return { Authorization: `Bearer ${token}` };
}

async function runsOf(page: Page, headers: Record<string, string>, source: string): Promise<RunRow[]> {
  const answer = await page.request.get(base.url('api/imports?pageSize=100'), { headers });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { data: RunRow[] }).data.filter((run) => run.source === source);
}

/** Uploads the file from the import page; a double click sends it once. */
async function upload(page: Page, source: string, bytes: Buffer, { slowly = false } = {}) {
  await page.goto(base.url('account/import'));
  await settle(page, { spinners: true });
  const form = page.getByTestId('import-upload-form');
  await expect(form.getByLabel('Qué vas a importar')).toHaveValue('patients');
  const sourceField = form.getByLabel('Sistema de origen');
  if (slowly) await sourceField.pressSequentially(source, { delay: 280 });
  else await sourceField.fill(source);
  await expect(sourceField).toHaveValue(source);
  await form.getByLabel('Archivo (CSV o XLSX)').setInputFiles({
    name: 'pacientes-gesdent.csv',
    mimeType: 'text/csv',
    buffer: bytes,
  });
  await form.getByTestId('import-upload').dblclick();
  await expect(page).toHaveURL(/\/clinica\/account\/import\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('import-mapping-form')).toBeVisible();
}

/** The run's dry run or import has ended: its page shows the state. */
async function waitForState(page: Page, state: 'checked' | 'done') {
  await expect(page.getByTestId('import-run-page')).toHaveAttribute('data-state', state, { timeout: 60_000 });
  await settle(page, { spinners: true });
}

test('GesDent’s Latin-1 export: fix a mapping, the dry run, the import, and the same file again changes nothing', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const run = tag();
  // GesDent's bytes as they are, with this run's own ids (a retry imports anew).
  const bytes = Buffer.from((await readFile(fixture)).toString('latin1').replaceAll('G-0', `G${run}-0`), 'latin1');
  const source = `GesDent ${run}`;
  const headers = await signIn(page);

  await page.goto(base.url('account/import'));
  await settle(page, { spinners: true });
  await expect(page.getByRole('heading', { name: 'Importar datos', level: 1 })).toBeVisible();
  await checkScreen(page, 'Importar datos', 'import-page', { spinners: true });

  // Nothing chosen: each missing part is said by its field, and nothing is sent.
  const form = page.getByTestId('import-upload-form');
  await form.getByTestId('import-upload').click();
  await expect(form.getByText('Escribe el sistema de origen.')).toBeVisible();
  await form.getByLabel('Sistema de origen').fill(source);
  await form.getByTestId('import-upload').click();
  await expect(form.getByText('Elige el archivo que vas a importar.')).toBeVisible();
  expect(await runsOf(page, headers, source)).toHaveLength(0);

  // The template a clinic preparing a file by hand starts from.
  const templateDownload = page.waitForEvent('download');
  await page.getByTestId('import-template-patients').click();
  const template = await templateDownload;
  expect(template.suggestedFilename()).toBe('plantilla-patients.csv');

  // Typed slowly, a double click: one upload.
  await upload(page, source, bytes, { slowly: true });
  expect(await runsOf(page, headers, source)).toHaveLength(1);
  const wizard = page.getByTestId('import-run-page');
  await expect(wizard.getByTestId('import-run-file')).toContainText('Pacientes de GesDent');
  await expect(wizard.getByTestId('import-run-file')).toContainText('21 filas');

  // Windows-1252 detected: the accents read right; read as UTF-8 they break, and back.
  const encoding = wizard.getByLabel('Codificación del archivo');
  await expect(encoding).toHaveValue('windows-1252');
  await expect(encoding.locator('option:checked')).toHaveText('Latin-1 / Windows-1252 (detectada)');
  const lastNameRow = wizard.locator('[data-testid="import-mapping-row"][data-field="lastName"]');
  await expect(lastNameRow).toContainText('Núñez Peña');
  await encoding.selectOption('utf-8');
  await expect(lastNameRow).toContainText('\uFFFD');
  await encoding.selectOption('windows-1252');
  await expect(lastNameRow).toContainText('Núñez Peña');

  // The headers' suggestions; "Correo-e" is no name the suggestions know: mapped by hand.
  await expect(wizard.getByTestId('import-mapping-from')).toHaveText(
    'Las columnas se sugieren por sus encabezados: revísalas.',
  );
  await expect(wizard.getByTestId('import-map-externalId')).toHaveValue('0');
  await expect(wizard.getByTestId('import-map-birthdate')).toHaveValue('4');
  const email = wizard.getByLabel('Email', { exact: true });
  await expect(email).toHaveValue('');
  // A required field left out is said where it is, and the dry run waits.
  await wizard.getByTestId('import-map-lastName').selectOption('');
  await wizard.getByTestId('import-check').click();
  await expect(wizard.getByTestId('import-mapping-missing')).toHaveText('Falta asignar: Apellidos.');
  await expect(wizard.getByTestId('import-map-lastName')).toBeFocused();
  await wizard.getByTestId('import-map-lastName').selectOption({ label: 'B: Apellidos' });
  await email.selectOption({ label: 'H: Correo-e' });
  await expect(wizard.locator('[data-testid="import-mapping-row"][data-field="email"]')).toContainText(
    'mjose@example.com',
  );
  await checkScreen(page, 'Importar datos: columns', 'import-columns', { spinners: true });

  // The dry run: nothing written, each row's fate.
  await wizard.getByTestId('import-check').dblclick();
  await waitForState(page, 'checked');
  await expect(wizard.getByTestId('import-count-created')).toContainText('18');
  await expect(wizard.getByTestId('import-count-refused')).toContainText('3');
  await expect(wizard.getByTestId('import-review-summary')).toContainText(
    'Al importar se crearán 18 registros y se actualizarán 0.',
  );
  const refused = wizard.getByTestId('import-row');
  await expect(refused).toHaveCount(3);
  await expect(refused.nth(0)).toContainText('Fecha de nacimiento: Fecha no válida');
  await expect(refused.nth(1)).toContainText('Apellidos: Este campo es obligatorio');
  await expect(refused.nth(2)).toContainText('Id. en el otro sistema: Valor repetido en el archivo');
  const nothingYet = await page.request.get(base.url(`api/patients?q=${encodeURIComponent('Núñez Peña')}`), {
    headers,
  });
  const before = ((await nothingYet.json()) as { data: unknown[] }).data.length;
  await checkScreen(page, 'Importar datos: dry run', 'import-review', { spinners: true });

  // "Cambiar columnas" and Back: the dry run is still there.
  await wizard.getByTestId('import-edit-columns').click();
  await expect(wizard.getByTestId('import-mapping-form')).toBeVisible();
  await expect(wizard.getByLabel('Email', { exact: true })).toHaveValue('7');
  await page.goBack();
  await expect(wizard.getByTestId('import-count-created')).toContainText('18');

  // Import, double-clicked: one import.
  await wizard.getByTestId('import-run').dblclick();
  await waitForState(page, 'done');
  await expect(wizard.getByTestId('import-count-created')).toContainText('18');
  await expect(wizard.getByTestId('import-count-refused')).toContainText('3');
  const runs = await runsOf(page, headers, source);
  expect(runs).toHaveLength(1);
  expect(runs[0]?.counts).toEqual({ created: 18, updated: 0, unchanged: 0, refused: 3 });
  const after = await page.request.get(base.url(`api/patients?q=${encodeURIComponent('Núñez Peña')}`), { headers });
  expect(((await after.json()) as { data: unknown[] }).data.length).toBe(before + 1);

  // Every row, the imported ones linked to their patient.
  await wizard.getByTestId('import-rows-filter').selectOption('created');
  await expect(wizard.getByTestId('import-row')).toHaveCount(18);
  await expect(wizard.getByRole('link', { name: 'Núñez Peña, María José' })).toBeVisible();

  // The refused rows to fix, as a CSV.
  const refusedDownload = page.waitForEvent('download');
  await wizard.getByTestId('import-refused-csv').click();
  const refusedFile = await refusedDownload;
  const refusedText = await readFile(await refusedFile.path(), 'utf8');
  expect(refusedText).toContain('Ruiz');
  expect(refusedText).toContain('F. Nacimiento: Fecha no válida');
  expect(refusedText.split('\n').filter((line) => line.trim() !== '').length).toBe(4);

  await checkScreen(page, 'Importar datos: report', 'import-report', { spinners: true });
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
  await checkScreen(page, 'Importar datos: report (dark)', 'import-report-dark', { spinners: true });
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'light'));
  await screenshotAtPhoneWidth(page, 'import-report-390');

  // The same file again: the saved mapping is proposed, and nothing changes.
  await upload(page, source, bytes);
  await expect(wizard.getByTestId('import-mapping-from')).toHaveText(
    `Se usó la asignación que guardaste para ${source}: revísala.`,
  );
  await expect(wizard.getByLabel('Email', { exact: true })).toHaveValue('7');
  await wizard.getByTestId('import-check').click();
  await waitForState(page, 'checked');
  await expect(wizard.getByTestId('import-count-unchanged')).toContainText('18');
  await expect(wizard.getByTestId('import-count-created')).toContainText('0');
  await expect(wizard.getByTestId('import-review-summary')).toContainText(
    'No hay nada que crear ni actualizar: todo está ya importado.',
  );
  await wizard.getByTestId('import-run').click();
  await waitForState(page, 'done');
  await expect(wizard.getByTestId('import-report-summary')).toContainText(
    'Nada cambió: todas las filas ya estaban importadas.',
  );
  const again = await page.request.get(base.url(`api/patients?q=${encodeURIComponent('Núñez Peña')}`), { headers });
  expect(((await again.json()) as { data: unknown[] }).data.length).toBe(before + 1);

  // The history lists both, newest first.
  await page.getByTestId('import-back').click();
  await settle(page, { spinners: true });
  await expect(page.getByTestId('import-list-row').filter({ hasText: source })).toHaveCount(2);
  await page.setViewportSize({ width: 390, height: 844 });
  await checkScreen(page, 'Importar datos at 390 px', 'import-page-390', { spinners: true });
});
