import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { AppLayout } from '../pages/app-layout';
import { saveScreenshot } from '../support/artifacts';
import { idOfRow } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { apiSignIn, createUser, demoUsers, signInPage } from '../support/real-users';
import { shootScreens } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Patients and their medical history against the real server (demo clinic of Buenos Aires).
 * Every test makes its own patients (a random tag in the surname, a random ID number), so tests
 * running side by side never read what another one changes.
 */

/** Lowercase letters only: a word the search can match as a fragment. */
function uniqueSsn(): string {
  return String(40_000_000 + Math.floor(Math.random() * 9_999_999));
}

interface CreatedPatient extends Record<string, unknown> {
  id: string;
  firstName: string;
  lastName: string;
  skuPatient: string;
  version: number;
}

async function createPatient(
  request: APIRequestContext,
  fields: Record<string, unknown> = {},
): Promise<CreatedPatient> {
  const token = await apiSignIn(request, demoUsers.administrator);
  const response = await request.post(rootServer.url('api/patients'), {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      firstName: 'Carla',
      lastName: `Benítez ${tag()}`,
      sex: 'female',
      birthdate: '1990-05-20',
      ssn: uniqueSsn(),
      ...fields,
    },
  });
  expect(response.status(), 'patient created').toBe(201);
  return ((await response.json()) as { data: CreatedPatient }).data;
}

/** The id of a demo patient found by its ID number (as the administrator). */
function demoPatientId(request: APIRequestContext, ssn: string): Promise<string> {
  return idOfRow(request, `api/patients?q=${ssn}`, { field: 'ssn', value: ssn }, `patient ${ssn}`);
}

test('a patient is created through the form, found without accents, opened, edited and deleted', async ({ page }) => {
  test.setTimeout(60_000);
  const word = tag();
  const lastName = `Núñez ${word[0]?.toUpperCase()}${word.slice(1)}`;
  await signInPage(page, demoUsers.administrator);
  const layout = await AppLayout.open(page, '/patients', 'Pacientes');
  await expect(page.getByTestId('patient-row').first()).toBeVisible();
  await expect(page.getByLabel('Buscar pacientes')).toHaveAttribute(
    'placeholder',
    'Nombre, apellido, DNI, n.º de paciente, e-mail o teléfono',
  );
  await page.getByRole('link', { name: 'Nuevo paciente' }).click();
  await expect(page).toHaveURL('/patients/create');
  await expect(layout.title).toHaveText('Nuevo paciente');

  const form = page.getByTestId('patient-form');
  const create = form.getByRole('button', { name: 'Crear paciente' });
  await create.click();
  // Nombre, apellido, sexo y fecha de nacimiento.
  await expect(form.getByText('Este campo es obligatorio')).toHaveCount(4);
  await expect(form.getByRole('textbox', { name: 'Nombre', exact: true })).toBeFocused();

  await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Ana');
  await form.getByLabel('Apellido').fill(lastName);
  await form.getByLabel('Sexo').selectOption({ label: 'Femenino' });
  await form.getByLabel('Fecha de nacimiento').fill('1985-03-14');
  await expect(form.getByTestId('live-age')).toHaveText(/^Edad: \d+ años$/);
  await form.getByLabel('Correo electrónico').fill('ana-en-ningun-lado');
  await form.getByLabel('Teléfono').fill('abc');
  await create.click();
  await expect(form.getByText('Correo electrónico no válido')).toBeVisible();
  await expect(form.getByText('Número de teléfono no válido')).toBeVisible();

  await form.getByLabel('Correo electrónico').fill(`ana.${word}@correo.test`);
  // A country and an area code, as Argentines write it (issue 34: "+54 11" was refused).
  await form.getByLabel('Código de área').fill('+54 11');
  await form.getByLabel('Teléfono').fill('4567-8901');
  await form.getByLabel('DNI / documento de identidad').fill(uniqueSsn());
  await form.getByLabel('Barrio').fill('Caballito');
  await form.getByLabel('Alergias').fill('Látex');
  await form.getByLabel('Enfermedades crónicas').fill('Asma');
  await expect(form.getByTestId('alerts-hint')).toHaveText('Se muestran en todas las pantallas clínicas del paciente.');
  await create.click();

  await expect(page.getByText('Paciente creado correctamente.')).toBeVisible();
  await expect(page).toHaveURL(/\/patients\/[0-9a-f-]+\/mh$/);
  await expect(layout.title).toHaveText('Historia clínica');
  const header = page.getByTestId('patient-header');
  await expect(header.getByTestId('patient-name')).toHaveText(`${lastName}, Ana`);
  await expect(header.getByTestId('patient-summary')).toContainText('Femenino');
  await expect(header.getByTestId('patient-summary')).toContainText(/P-\d{6}/);
  await expect(header.getByTestId('patient-phone')).toHaveText('+54 11 4567-8901');
  await expect(header.getByTestId('alert-allergies')).toContainText('Látex');
  await expect(header.getByTestId('alert-allergies')).toHaveClass(/alert-danger/);
  await expect(header.getByTestId('alert-chronicConditions')).toHaveClass(/alert-warning/);
  await expect(header.getByTestId('patient-audit')).toContainText('Creado por');
  const changesTab = page.getByRole('tab', { name: 'Historial de cambios' });
  await changesTab.click();
  await expect(changesTab).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\?tab=changes$/);
  await expect(page.getByTestId('change-row')).toHaveCount(1);
  await expect(page.getByTestId('change-row').first()).toHaveAttribute('data-action', 'patient_created');
  const historyUrl = page.url().replace(/\?.*$/, '');

  // Part of the surname, without accents, and a fragment of the tag.
  await page.goto('/patients');
  await page.getByLabel('Buscar pacientes').fill(`nune ${word.slice(0, 4)}`);
  await expect(page.getByTestId('patient-row')).toHaveCount(1);
  const row = page.getByTestId('patient-row');
  await expect(row).toContainText(`${lastName}, Ana`);
  await expect(row.getByTestId('alerts-badge')).toBeVisible();
  await row.getByTestId('patient-status').click();
  await expect(page).toHaveURL(historyUrl);

  await page.getByTestId('patient-edit-link').click();
  await expect(page).toHaveURL(/\/patients\/edit\/[0-9a-f-]+$/);
  await expect(layout.title).toHaveText('Editar paciente');
  await expect(form.getByLabel('Apellido')).toHaveValue(lastName);
  await form.getByLabel('Teléfono').fill('11 4000-1234');
  await form.getByLabel('Medicación actual').fill('Salbutamol');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Paciente actualizado correctamente.')).toBeVisible();

  await page.goto(`${historyUrl}?tab=changes`);
  await expect(page.getByTestId('alert-currentMedication')).toContainText('Salbutamol');
  const change = page.locator('[data-testid="change-row"][data-action="patient_updated"]');
  await expect(change).toHaveCount(1);
  await expect(change.locator('[data-field="phone"]')).toContainText('Teléfono');
  await expect(change.locator('[data-field="phone"]')).toContainText('4567-8901');
  await expect(change.locator('[data-field="phone"]')).toContainText('11 4000-1234');
  await expect(change.locator('[data-field="currentMedication"]')).toContainText('(vacío)');

  await page.getByTestId('patient-edit-link').click();
  await page.getByRole('button', { name: 'Eliminar paciente' }).click();
  const dialog = page.getByRole('dialog', { name: '¿Eliminar este paciente?' });
  await expect(dialog).toContainText('La eliminación es permanente');
  await saveScreenshot(page, 'patients-delete-confirm');
  await dialog.getByRole('button', { name: 'Eliminar', exact: true }).click();
  await expect(page.getByText('Paciente eliminado correctamente.')).toBeVisible();
  await expect(page).toHaveURL('/patients');
  await page.getByLabel('Buscar pacientes').fill(`nune ${word}`);
  await expect(page.getByTestId('patients-empty')).toBeVisible();

  await page.goto(historyUrl);
  await expect(page.getByTestId('record-not-found')).toContainText('No se encontró el paciente.');
  await expect(page.getByRole('button', { name: 'Reintentar' })).toHaveCount(0);
});

test('Back from a patient and a reload keep the list where it was: page, search, filter and sort', async ({
  page,
  request,
}) => {
  const patient = await createPatient(request, { firstName: 'Olga', lastName: `Quiroga ${tag()}` });
  await signInPage(page, demoUsers.administrator);
  await page.goto('/patients');
  const range = page.getByTestId('patients-range');
  await page.getByRole('button', { name: 'Página siguiente' }).click();
  await expect(range).toHaveText(/^21–/);
  await page.getByTestId('patient-link').first().click();
  await expect(page).toHaveURL(/\/mh$/);
  await page.goBack();
  await expect(range).toHaveText(/^21–/);

  // Each change waits for the URL to hold it, as a person's would.
  await page.getByLabel('Buscar pacientes').fill(patient.lastName);
  await expect(page).toHaveURL(/[?&]q=/);
  await page.getByTestId('patients-active').selectOption('true');
  await expect(page).toHaveURL(/[?&]active=true/);
  await page.getByTestId('patients-sort').selectOption('firstName');
  await expect(page).toHaveURL(/[?&]sort=firstName/);
  await expect(page.getByTestId('patient-row')).toHaveCount(1);
  await expect(range).toHaveText(/^1–1 /);
  await page.getByTestId('patient-link').click();
  await expect(page.getByTestId('patient-name')).toHaveText(`${patient.lastName}, Olga`);
  await page.goBack();
  await expect(page.getByLabel('Buscar pacientes')).toHaveValue(patient.lastName);
  await expect(page.getByTestId('patients-active')).toHaveValue('true');
  await expect(page.getByTestId('patients-sort')).toHaveValue('firstName');
  await expect(page.getByTestId('patient-row')).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel('Buscar pacientes')).toHaveValue(patient.lastName);
  await expect(page.getByTestId('patient-row')).toHaveCount(1);
});

test('a search with more than 1,000 matches says so and pages on without a last page', async ({ page }) => {
  // The demo clinic has a few dozen patients: the server's real answer is stretched to a
  // capped count, as it comes back for three common letters in a clinic of 100,000.
  await page.route(/\/api\/patients\?/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { total: number };
    await route.fulfill({ response, json: { ...body, total: 1000, totalIsLowerBound: true } });
  });
  await signInPage(page, demoUsers.administrator);
  await page.goto('/patients');
  const range = page.getByTestId('patients-range');
  // Spanish groups thousands from five digits on (CLDR): 1000, but 10.000.
  await expect(range).toHaveText('1–20 de más de 1000');
  await expect(page.getByText('Página 1', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Página siguiente' }).click();
  await expect(range).toHaveText('21–40 de más de 1000');
  await expect(page.getByText('Página 2', { exact: true })).toBeVisible();
  // A refetch still in the handler when the page closes would fail on a disposed response.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('an ID number already in the clinic links to the patient who has it', async ({ page, request }) => {
  const existing = await createPatient(request, { firstName: 'Raúl', lastName: `Ibáñez ${tag()}` });
  await signInPage(page, demoUsers.administrator);
  await page.goto('/patients/create');
  const form = page.getByTestId('patient-form');
  await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Otro');
  await form.getByLabel('Apellido').fill(`Paciente ${tag()}`);
  await form.getByLabel('Sexo').selectOption({ label: 'Masculino' });
  await form.getByLabel('Fecha de nacimiento').fill('2001-01-30');
  await form.getByLabel('DNI / documento de identidad').fill(String(existing.ssn));
  await form.getByRole('button', { name: 'Crear paciente' }).click();
  await expect(form.getByText('Ya hay un paciente con este número de documento en tu clínica.')).toBeVisible();
  const link = form.getByTestId('duplicate-link');
  await expect(link).toHaveText(`Abrir la ficha de Raúl ${existing.lastName}`);
  await expect(link).toHaveAttribute('href', `/patients/${existing.id}/mh`);
  await saveScreenshot(page, 'patients-duplicate-ssn');
  await link.click();
  await expect(page.getByTestId('patient-name')).toHaveText(`${existing.lastName}, Raúl`);
});

test('a stale edit in a second page says someone else changed the patient and shows the current values', async ({
  page,
  context,
  request,
}) => {
  const patient = await createPatient(request);
  await signInPage(page, demoUsers.administrator);
  const other = await context.newPage();
  await page.goto(`/patients/edit/${patient.id}`);
  await other.goto(`/patients/edit/${patient.id}`);
  const first = page.getByTestId('patient-form');
  const second = other.getByTestId('patient-form');
  await expect(second.getByLabel('Apellido')).toHaveValue(patient.lastName);

  await first.getByLabel('Barrio').fill('Palermo');
  await first.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Paciente actualizado correctamente.')).toBeVisible();

  await second.getByLabel('Ciudad').fill('Rosario');
  await second.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(other.getByTestId('version-conflict')).toContainText('Otra persona modificó este paciente');
  await expect(second.getByLabel('Barrio')).toHaveValue('Palermo');
  await expect(second.getByLabel('Ciudad')).toHaveValue('');
  await saveScreenshot(other, 'patients-conflict');
  // Redone on the current version, it saves.
  await second.getByLabel('Ciudad').fill('Rosario');
  await second.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(other.getByText('Paciente actualizado correctamente.')).toBeVisible();
  await other.close();
});

test('the user level reads and edits patients; a customer cannot open them', async ({ page, browser, request }) => {
  const patient = await createPatient(request, { allergies: 'Ibuprofeno' });
  await signInPage(page, demoUsers.user);
  await page.goto('/patients');
  await expect(page.getByTestId('patient-row').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Nuevo paciente' })).toBeVisible();
  await page.goto(`/patients/${patient.id}/mh`);
  await expect(page.getByTestId('alert-allergies')).toContainText('Ibuprofeno');
  await page.getByTestId('patient-edit-link').click();
  const form = page.getByTestId('patient-form');
  await form.getByLabel('Código postal').fill('C1405');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Paciente actualizado correctamente.')).toBeVisible();

  const customer = await createUser(request, 'customer', 'Bruno Ledesma');
  const customerPage = await browser.newPage({ locale: 'es-ES' });
  await signInPage(customerPage, customer.email, customer.password);
  await customerPage.goto('/patients');
  await expect(customerPage.getByTestId('forbidden')).toBeVisible();
  await customerPage.goto(`/patients/${patient.id}/mh`);
  await expect(customerPage.getByTestId('forbidden')).toBeVisible();
  await customerPage.close();
});

test('screenshots: list, form and medical history in light, dark and at 390 px', async ({ page, request, issues }) => {
  test.setTimeout(90_000);
  // María González: allergies, a chronic condition and medication.
  const id = await demoPatientId(request, '17845231');
  await signInPage(page, demoUsers.administrator);
  const screens = [
    { name: 'patients-list', path: '/patients', ready: 'patient-row' },
    { name: 'patients-form', path: '/patients/create', ready: 'patient-form' },
    { name: 'patients-edit', path: `/patients/edit/${id}`, ready: 'patient-form' },
    { name: 'patients-history', path: `/patients/${id}/mh`, ready: 'patient-alerts' },
    { name: 'patients-changes', path: `/patients/${id}/mh?tab=changes`, ready: 'change-row' },
  ];
  await shootScreens(page, screens);
  // The required-field messages on the form.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/patients/create');
  await page.getByRole('button', { name: 'Crear paciente' }).click();
  await expect(page.getByText('Este campo es obligatorio').first()).toBeVisible();
  await settle(page);
  await saveScreenshot(page, 'patients-form-errors');
  expect(issues.all()).toEqual([]);
});
