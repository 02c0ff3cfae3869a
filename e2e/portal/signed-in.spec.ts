import { expect, test } from '@playwright/test';
import { saveScreenshot } from '../support/artifacts';
import { adminHeaders } from '../support/clinic-api';
import { linkFromOutbox } from '../support/outbox';
import { settle, tag } from '../support/page';
import { invitedPatient, openOnlineBooking, patientPhone } from '../support/portal';
import { checkScreen, themed } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Issue 37, the signed-in patient at 390 px: a patient invited by the clinic enters by the e-mail's
 * link, confirms an appointment (its state then shows, no button) and moves it to another free time
 * (starting at the day, its treatment and professional chosen); a demo patient signs in with a password,
 * downloads an invoice and sees the balance with the clinic's payment instructions.
 */

/** The demo patients with portal access (README). */
const maria = { email: 'maria.gonzalez@correo.demo', password: 'sonrisa-paciente-2026' };

test('an invited patient enters by the link and reschedules an appointment', async ({ browser, request }) => {
  test.setTimeout(90_000);
  await openOnlineBooking(request);
  const headers = await adminHeaders(request);
  const name = tag();
  const email = `invitado.${name}@correo.test`;
  await invitedPatient(request, headers, { firstName: 'Elena', lastName: `Invitada ${name}`, email });

  const page = await patientPhone(browser);
  const link = await linkFromOutbox(email, '/p/sonrisa/link/', 20_000);
  await page.goto(rootServer.url(link));
  await expect(page.getByTestId('sign-in-link')).toBeVisible();
  await checkScreen(page, 'the sign-in link', 'portal-sign-in-link-390');
  await page.getByRole('button', { name: 'Ingresar' }).dblclick();
  await expect(page.getByTestId('portal-home')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Hola, Elena' })).toBeVisible();

  // She books, then moves the appointment to another time (both well before the clinic's window).
  await page.getByTestId('portal-book').click();
  await page.getByTestId('booking-step').waitFor();
  await page.locator('.portal-choices a').first().click();
  await page.getByRole('link', { name: 'Cualquier profesional disponible' }).click();
  await page.locator('.portal-days a').last().click();
  await page.getByTestId('booking-slot').first().click();
  await page.getByTestId('booking-submit').dblclick();
  await expect(page.getByTestId('portal-done')).toBeVisible();
  const card = page.getByTestId('portal-appointment');
  await expect(card).toHaveCount(1);
  const before = await card.locator('p').first().innerText();
  await settle(page, { spinners: true });
  await checkScreen(page, 'the portal home', 'portal-home-390');

  // She confirms it: its state shows where the button was, and nothing asks to confirm it again.
  await card.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByTestId('portal-done')).toHaveText(/confirmad/i);
  await expect(card.getByTestId('portal-appointment-confirmed')).toHaveText('Confirmada');
  await expect(card.getByRole('button', { name: 'Confirmar' })).toHaveCount(0);
  await settle(page, { spinners: true });
  await checkScreen(page, 'the portal home with a confirmed appointment', 'portal-home-confirmed-390');

  // The move starts at the day, with the same treatment and professional chosen; Back changes them.
  await card.getByRole('link', { name: 'Cambiar fecha' }).click();
  await expect(page.getByRole('heading', { name: 'Cambiar la fecha de su cita' })).toBeVisible();
  await expect(page.getByTestId('booking-step')).toHaveText('Elija el día');
  const moving = new URL(page.url()).searchParams;
  expect(moving.get('treatment')).toBeTruthy();
  expect(moving.get('professional')).toMatch(/^[0-9a-f-]{36}$/);
  await page.getByTestId('booking-back').click();
  await expect(page.getByTestId('booking-step')).toHaveText('¿Con quién desea atenderse?');
  await page.goBack();
  await expect(page.getByTestId('booking-step')).toHaveText('Elija el día');
  await page.locator('.portal-days a').nth(-2).click();
  await page.getByTestId('booking-slot').last().click();
  await checkScreen(page, 'the reschedule review', 'portal-reschedule-review-390');
  await page.getByTestId('booking-submit').click();
  await expect(page.getByTestId('portal-done')).toBeVisible();
  await expect(card).toHaveCount(1);
  await expect(card.locator('p').first()).not.toHaveText(before);

  await page.goto(rootServer.url(themed('portal', 'dark')));
  await expect(page.getByTestId('portal-home')).toBeVisible();
  await settle(page, { spinners: true });
  await checkScreen(page, 'the portal home (dark)', 'portal-home-dark-390');
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('clinic-page')).toBeVisible();
  await page.context().close();
});

test('a patient signs in with a password and downloads a receipt and an invoice', async ({ browser }) => {
  const page = await patientPhone(browser);
  await page.goto(rootServer.url('p/sonrisa'));
  await expect(page.getByTestId('portal-brand')).toContainText('Clínica Dental Sonrisa');
  await page.getByLabel('Correo electrónico').fill(maria.email);
  await page.getByLabel('Contraseña').fill(maria.password);
  await page.getByLabel('Contraseña').press('Enter');
  await expect(page.getByTestId('portal-home')).toBeVisible();
  await expect(page.getByTestId('portal-balance')).toBeVisible();
  for (const kind of [/^Recibo/, /^Factura/]) {
    const row = page.getByTestId('portal-document').filter({ hasText: kind }).first();
    await expect(row).toBeVisible();
    const download = page.waitForEvent('download');
    await row.getByRole('button').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = await (await file.createReadStream()).toArray();
    expect(Buffer.concat(bytes).subarray(0, 5).toString()).toBe('%PDF-');
  }
  await settle(page, { spinners: true });
  await checkScreen(page, 'the portal home with documents', 'portal-documents-390');
  // A long document name wraps: nothing sticks out of a 390 px screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await settle(page);
  await saveScreenshot(page, 'portal-home-light');
  await page.context().close();
});
