import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { apiSignIn, demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * The browser's "today" is the clinic's (issue 23). The demo clinic is in Buenos Aires (UTC−3),
 * the test browser in Madrid (UTC+1), and the page's clock is set to 02:30 UTC on 24 November
 * 2026: UTC and Madrid are on the 24th, the clinic still on the 23rd at 23:30.
 */

const instant = new Date('2026-11-24T02:30:00Z');
const clinicToday = '2026-11-23';
const clinicTomorrow = '2026-11-24';
/** As the demo administrator writes dates (profile: DD/MM/YYYY). */
const clinicTodayTyped = '23/11/2026';

async function anyPatientId(request: APIRequestContext): Promise<string> {
  const token = await apiSignIn(request, demoUsers.administrator);
  const response = await request.get(rootServer.url('api/patients?pageSize=1'), {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { id: string }[] }).data[0]?.id ?? '';
}

test('forms start on the clinic’s today and time, and a birthdate after it is refused', async ({ page, request }) => {
  test.setTimeout(60_000);
  const patientId = await anyPatientId(request);
  await page.clock.setFixedTime(instant);
  await signInPage(page, demoUsers.administrator);

  // A new diagnosis and a new laboratory order are dated the clinic's today.
  await page.goto(`/patients/${patientId}/mh/diagnosis/new`);
  await expect(page.getByRole('textbox', { name: 'Fecha', exact: true })).toHaveValue(clinicTodayTyped);
  await page.goto(`/patients/${patientId}/mh/laboratory/new`);
  await expect(page.getByRole('textbox', { name: 'Fecha de la orden' })).toHaveValue(clinicTodayTyped);
  // Its result, once received, is required, marked so, and dated the clinic's today too.
  await page.getByLabel('Estado').selectOption('result_received');
  await expect(page.getByRole('textbox', { name: 'Fecha del resultado' })).toHaveValue(clinicTodayTyped);
  await expect(page.locator('label', { hasText: 'Fecha del resultado' })).toContainText('*');
  // A new attendance starts at the clinic's wall-clock time, not the browser's (03:30 in Madrid).
  await page.goto(`/patients/${patientId}/mh`);
  await page.getByTestId('new-attendance').click();
  await expect(page.getByTestId('attendance-form').getByRole('textbox', { name: 'Fecha', exact: true })).toHaveValue(
    `${clinicToday}T23:30`,
  );

  // Born on the clinic's today: 0 years. Born on its tomorrow (the browser's and UTC's today): refused.
  await page.goto('/patients/create');
  const form = page.getByTestId('patient-form');
  await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Lucía');
  await form.getByLabel('Apellido').fill('Recién Nacida');
  await form.getByLabel('Sexo').selectOption({ label: 'Femenino' });
  await form.getByLabel('Fecha de nacimiento').fill(clinicToday);
  await expect(form.getByTestId('live-age')).toHaveText('Edad: 0 años');
  await form.getByLabel('Fecha de nacimiento').fill(clinicTomorrow);
  await form.getByRole('button', { name: 'Crear paciente' }).click();
  await expect(form.getByLabel('Fecha de nacimiento')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL('/patients/create');
});
