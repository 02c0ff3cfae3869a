import { expect, type Locator, type Page, test } from '@playwright/test';
import { adminHeaders } from '../support/clinic-api';
import { linkFromOutbox } from '../support/outbox';
import { tag } from '../support/page';
import { invitedPatient, patientPhone } from '../support/portal';
import { signUpClinic } from '../support/real-users';
import { checkScreen, themed } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Issue 37 at 390 px: the patient at two clinics and the patient's own password. One e-mail is a
 * patient of the demo clinic and of a second clinic. She enters the demo clinic by its link (no
 * choice: the link's clinic), chooses a password there (errors in Spanish, usted; a double click
 * saves once), signs out, signs in with the password, chooses the other clinic on "¿En qué clínica
 * quiere entrar?" with the keyboard, and goes back with "Cambiar de clínica".
 */

const demoClinic = 'Clínica Dental Sonrisa';

/** Tabs from where the focus is until `target` has it, then presses Enter. */
async function chooseWithKeyboard(page: Page, target: Locator): Promise<void> {
  for (let step = 0; step < 20; step += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
  await page.keyboard.press('Enter');
}

test('a patient of two clinics sets a password, signs in, chooses the clinic and switches back', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const name = tag();
  const email = `dos.clinicas.${name}@correo.test`;
  const otherClinic = `Consultorio Del Valle ${name}`;
  const other = await signUpClinic(request, otherClinic, '198.51.100.37');
  await invitedPatient(
    request,
    { Authorization: `Bearer ${other.token}` },
    {
      firstName: 'Elena',
      lastName: `Dos Clínicas ${name}`,
      email,
    },
  );
  await invitedPatient(request, await adminHeaders(request), {
    firstName: 'Elena',
    lastName: `Dos Clínicas ${name}`,
    email,
  });

  // The demo clinic's link enters the demo clinic, with no choice.
  const page = await patientPhone(browser);
  await page.goto(rootServer.url(await linkFromOutbox(email, '/p/sonrisa/link/', 20_000)));
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await expect(page.getByTestId('portal-home')).toBeVisible();
  await expect(page.getByTestId('portal-brand')).toContainText(demoClinic);
  await expect(page.getByTestId('switch-clinic')).toHaveText('Cambiar de clínica');

  // Her own password, from the home page's "Contraseña".
  await page.getByTestId('portal-password').click();
  await expect(page.getByRole('heading', { name: 'Elija una contraseña' })).toBeVisible();
  const form = page.getByTestId('password-form');
  const newPassword = form.getByLabel('Nueva contraseña', { exact: true });
  const confirmation = form.getByLabel('Repita la nueva contraseña');
  await newPassword.fill('corta');
  await confirmation.fill('corta');
  await page.getByTestId('password-save').click();
  await expect(form.getByText('La contraseña debe tener al menos 10 caracteres')).toBeVisible();
  await expect(form.getByRole('alert')).toHaveText('Revise los datos del formulario.');
  await newPassword.fill('una frase bastante larga');
  await confirmation.fill('otra frase bastante larga');
  await page.getByTestId('password-save').click();
  await expect(form.getByText('Las contraseñas deben coincidir')).toBeVisible();
  await newPassword.fill('password123');
  await confirmation.fill('password123');
  await page.getByTestId('password-save').click();
  await expect(form.getByText('Esta contraseña es demasiado común; elija otra.')).toBeVisible();
  await expect(newPassword).toHaveAttribute('aria-invalid', 'true');
  await checkScreen(page, 'the password page with its errors', 'portal-password-errors-390');

  const password = 'la sonrisa de dos clínicas';
  await newPassword.fill(password);
  await confirmation.fill(password);
  const saves: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'PUT' && sent.url().endsWith('/api/portal/password')) saves.push(sent.url());
  });
  await page.getByTestId('password-save').dblclick();
  await expect(page.getByTestId('password-done')).toContainText('Desde ahora puede entrar con');
  expect(saves).toHaveLength(1);

  // Signed out, she signs in with it: two clinics, so she chooses.
  await page.getByTestId('password-back').click();
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('clinic-page')).toBeVisible();
  await page.goto(rootServer.url('portal/sign-in'));
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByLabel('Contraseña').press('Enter');
  await expect(page.getByRole('heading', { name: '¿En qué clínica quiere entrar?' })).toBeVisible();
  const options = page.getByTestId('clinic-choice-option');
  await expect(options).toHaveCount(2);
  // By name; the clinic entered last is this session's.
  await expect(options.nth(0)).toContainText(demoClinic);
  await expect(options.nth(0)).toHaveAttribute('aria-current', 'true');
  await expect(options.nth(1)).toContainText(otherClinic);
  await checkScreen(page, 'the choice of clinic', 'portal-clinics-390');

  await chooseWithKeyboard(page, page.getByRole('button', { name: otherClinic }));
  await expect(page.getByTestId('portal-home')).toBeVisible();
  await expect(page.getByTestId('portal-brand')).toContainText(otherClinic);
  await expect(page.getByRole('heading', { name: 'Hola, Elena' })).toBeVisible();
  await checkScreen(page, 'the portal of a patient of two clinics', 'portal-home-two-clinics-390', { spinners: true });

  // "Cambiar de clínica" from the band, by keyboard too, back to the demo clinic.
  await chooseWithKeyboard(page, page.getByTestId('switch-clinic'));
  await expect(page.getByTestId('clinic-choice')).toBeVisible();
  await expect(page.getByRole('button', { name: otherClinic })).toHaveAttribute('aria-current', 'true');
  await page.goto(rootServer.url(themed('portal/clinics', 'dark')));
  await expect(page.getByTestId('clinic-choice')).toBeVisible();
  await checkScreen(page, 'the choice of clinic (dark)', 'portal-clinics-dark-390');
  await chooseWithKeyboard(page, page.getByRole('button', { name: new RegExp(demoClinic) }));
  await expect(page.getByTestId('portal-home')).toBeVisible();
  await expect(page.getByTestId('portal-brand')).toContainText(demoClinic);

  // A password she has is changed with the current one.
  await page.getByTestId('portal-password').click();
  await expect(page.getByRole('heading', { name: 'Cambie su contraseña' })).toBeVisible();
  await form.getByLabel('Contraseña actual').fill('no es esta');
  await newPassword.fill('otra frase para el portal');
  await confirmation.fill('otra frase para el portal');
  await page.getByTestId('password-save').click();
  await expect(form.getByLabel('Contraseña actual')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('La contraseña actual no es correcta.')).toBeVisible();
  await checkScreen(page, 'the password change', 'portal-password-change-390');
  await form.getByLabel('Contraseña actual').fill(password);
  await page.getByTestId('password-save').click();
  await expect(page.getByTestId('password-done')).toContainText('Contraseña cambiada');
  await page.context().close();
});
