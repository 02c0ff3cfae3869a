import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { settle, tag } from '../support/page';
import { apiSignIn, demoUsers, signInPage } from '../support/real-users';

/*
 * Issue 42, a patient moving in as FHIR: a demo patient's bundle is exported through the API and
 * made another clinic's (another name, no ID number), then imported from the patients list's
 * "Importar paciente (FHIR)"; the new patient opens. A file that is not JSON and a bundle that is
 * not a collection are refused in Spanish words. Axe clean on the dialog.
 */

type Json = Record<string, unknown>;

test('the staff import a FHIR bundle from the patients list and open the new patient', async ({ page }) => {
  test.setTimeout(90_000);
  await signInPage(page, demoUsers.administrator);
  const token = await apiSignIn(page.request, demoUsers.administrator);
  const headers = { Authorization: `Bearer ${token}` };
  const found = await page.request.get('api/patients?pageSize=1&sort=lastName', { headers });
  const [patient] = ((await found.json()) as { data: { id: string }[] }).data;
  const exported = await page.request.get(`api/patients/${patient?.id}/fhir`, { headers });
  expect(exported.status()).toBe(200);
  expect(exported.headers()['content-type']).toContain('application/fhir+json');
  const bundle = (await exported.json()) as { entry: { resource: Json }[] };
  // Another clinic's patient: its own name, and no ID number that this clinic already holds.
  const family = `Importada ${tag()}`;
  const resource = bundle.entry.find((entry) => entry.resource.resourceType === 'Patient')?.resource as Json;
  resource.name = [{ family, given: ['Lucía'] }];
  resource.identifier = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'odontia-fhir-'));
  const good = path.join(dir, 'paciente.fhir.json');
  writeFileSync(good, JSON.stringify(bundle));
  const broken = path.join(dir, 'roto.json');
  writeFileSync(broken, '{"resourceType": "Bundle", "entry": [');
  const search = path.join(dir, 'busqueda.json');
  writeFileSync(search, JSON.stringify({ resourceType: 'Bundle', type: 'searchset', entry: [] }));

  await page.goto('/patients');
  await settle(page);
  await page.getByTestId('fhir-import-open').click();
  const dialog = page.getByRole('dialog', { name: 'Importar un paciente desde FHIR' });
  await expect(dialog).toBeVisible();
  const file = dialog.getByLabel('Archivo FHIR (.json)');

  // A file cut short: not JSON, said so before anything is sent.
  await file.setInputFiles(broken);
  await dialog.getByTestId('fhir-import-submit').click();
  await expect(dialog.getByTestId('fhir-import-error')).toContainText('El archivo no es JSON válido');

  // JSON, but a search result: the server's refusal, each problem in words.
  await file.setInputFiles(search);
  await dialog.getByTestId('fhir-import-submit').click();
  const error = dialog.getByTestId('fhir-import-error');
  await expect(error).toContainText('no es un Bundle FHIR R4 de tipo collection');
  await expect(error).toContainText('El Bundle no es de tipo collection.');
  await expect(error).toContainText('No tiene ningún paciente (Patient).');
  await expectNoAxeViolations(page, 'the FHIR import refusing a file', '[data-testid="fhir-import"]');
  await saveScreenshot(page, 'fhir-import-error', { fullPage: false });

  await file.setInputFiles(good);
  await dialog.getByTestId('fhir-import-submit').click();
  const result = dialog.getByTestId('fhir-import-result');
  await expect(result).toContainText('Paciente importado');
  await expectNoAxeViolations(page, 'the FHIR import done', '[data-testid="fhir-import"]');
  await saveScreenshot(page, 'fhir-import-done', { fullPage: false });
  await result.getByTestId('fhir-import-patient').click();
  await expect(page).toHaveURL(/\/patients\/edit\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('patient-name')).toContainText(family);
});
