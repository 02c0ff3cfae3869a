import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { apiSignIn, createUser, demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * Dates are typed as the user writes them (their profile's date format), not in the browser's
 * mm/dd/yyyy (issue 14): the test browser is Spanish, the form shows dd/mm/aaaa to the demo's
 * administrator and mm/dd/yyyy to a user who chose that format; the record keeps 'YYYY-MM-DD'.
 */

test('a birthdate is typed in the user’s date format and saved as the day it says', async ({ page, request }) => {
  await signInPage(page, demoUsers.administrator);
  await page.goto('/patients/create');
  const form = page.getByTestId('patient-form');
  const birthdate = form.getByLabel('Fecha de nacimiento');
  await expect(birthdate).toHaveAttribute('placeholder', 'dd/mm/aaaa');
  await form.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Inés');
  const lastName = `Fechas ${Math.random().toString(36).slice(2, 8)}`;
  await form.getByLabel('Apellido').fill(lastName);
  await form.getByLabel('Sexo').selectOption({ label: 'Femenino' });
  await birthdate.fill('31/02/1985');
  await form.getByRole('button', { name: 'Crear paciente' }).click();
  await expect(birthdate).toHaveAttribute('aria-invalid', 'true');
  await birthdate.fill('14/3/1985');
  await expect(form.getByTestId('live-age')).toHaveText(/^Edad: \d+ años$/);
  await birthdate.blur();
  await expect(birthdate).toHaveValue('14/03/1985');
  await birthdate.scrollIntoViewIfNeeded();
  await saveScreenshot(page, 'date-input-light', { fullPage: false });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
  await saveScreenshot(page, 'date-input-dark', { fullPage: false });
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'light'));
  await form.getByRole('button', { name: 'Crear paciente' }).click();
  await expect(page).toHaveURL(/\/patients\/[^/]+\/mh$/);

  const token = await apiSignIn(request, demoUsers.administrator);
  const found = await request.get(rootServer.url(`api/patients?q=${encodeURIComponent(lastName)}`), {
    headers: { Authorization: `Bearer ${token}` },
  });
  const [patient] = ((await found.json()) as { data: { id: string; birthdate: string }[] }).data;
  expect(patient?.birthdate).toBe('1985-03-14');

  // The edit form shows the saved day in the same format.
  await page.goto(`/patients/edit/${patient?.id}`);
  await expect(page.getByTestId('patient-form').getByLabel('Fecha de nacimiento')).toHaveValue('14/03/1985');
});

test('a user who writes month first types month first', async ({ page, request }) => {
  const user = await createUser(request, 'user');
  const token = await apiSignIn(request, user.email, user.password);
  const changed = await request.patch(rootServer.url('api/auth/system/me'), {
    headers: { Authorization: `Bearer ${token}` },
    data: { dateFormat: 'MM/DD/YYYY' },
  });
  expect(changed.status()).toBe(200);
  await signInPage(page, user.email, user.password);
  await page.goto('/patients/create');
  const birthdate = page.getByTestId('patient-form').getByLabel('Fecha de nacimiento');
  await expect(birthdate).toHaveAttribute('placeholder', 'mm/dd/aaaa');
  await birthdate.fill('3/14/1985');
  await birthdate.blur();
  await expect(birthdate).toHaveValue('03/14/1985');
  await expect(page.getByTestId('live-age')).toHaveText(/^Edad: \d+ años$/);
});
