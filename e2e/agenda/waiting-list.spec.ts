import { clinicWallTime } from '../../packages/shared/src/clinic-time';
import { expect, test } from '../fixtures/test';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, apiGet, createPatient } from '../support/clinic-api';
import { linkFromOutbox } from '../support/outbox';
import { settle, tag } from '../support/page';
import { demoTimeZone, demoUsers, signInPage } from '../support/real-users';
import { checkScreen, screenshotAtPhoneWidth } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Issue 38: the waiting list. The front desk puts a patient with an e-mail on the list for a
 * treatment and a professional; an appointment of that professional is cancelled; the server's
 * worker mails the patient the freed time; the patient opens the link on a phone (no sign-in) and
 * accepts it; the agenda then holds the patient's appointment at that time.
 */

interface Treatment {
  id: string;
  name: string;
  durationMinutes: number;
  active: boolean;
}
interface Slot {
  startsAt: string;
  endsAt: string;
  professionalId: string;
  professionalName: string;
}

test('an entry added on the list page is offered a cancelled time by mail and books it from the link', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const headers = await adminHeaders(request);
  const name = tag();
  const lastName = `Espera ${name}`;
  const email = `espera.${name}@correo.test`;
  const waiting = await createPatient(request, {
    firstName: 'Inés',
    lastName,
    sex: 'female',
    birthdate: '1981-02-03',
    email,
    language: 'es',
  });
  const other = await createPatient(request, {
    firstName: 'Tomás',
    lastName: `Cancela ${name}`,
    sex: 'male',
    birthdate: '1970-09-09',
  });
  const treatment = (await apiGet<{ data: Treatment[] }>(request, 'api/treatments?active=true&pageSize=100')).data.find(
    (row) => row.durationMinutes <= 60,
  );
  expect(treatment, 'the demo has a short treatment').toBeTruthy();
  if (!treatment) return;
  // A time the agenda has free (the schedules', not outside them), two days ahead.
  const from = new Date(Date.now() + 2 * 86_400_000).toISOString();
  const [slot] = (
    await apiGet<{ data: Slot[] }>(
      request,
      `api/appointments/free-slots?durationMinutes=${treatment.durationMinutes}&from=${encodeURIComponent(from)}&limit=1`,
    )
  ).data;
  expect(slot, 'the agenda has a free time').toBeTruthy();
  if (!slot) return;
  const booked = await request.post(rootServer.url('api/appointments'), {
    headers,
    data: {
      patientId: other,
      professionalId: slot.professionalId,
      treatmentId: treatment.id,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
    },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const appointment = ((await booked.json()) as { data: { id: string; version: number } }).data;

  // The front desk adds the entry on the list page, with the keyboard.
  await signInPage(page, demoUsers.administrator);
  await page.goto('/calendar');
  await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Lista de espera' }).click();
  await expect(page).toHaveURL(/\/waiting-list$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Lista de espera' })).toBeVisible();
  await page.getByTestId('waiting-entry-add').click();
  const dialog = page.getByTestId('waiting-entry-form');
  await expect(dialog.getByRole('heading', { name: 'Añadir a la lista de espera' })).toBeVisible();
  // Saved empty: the required fields say so.
  await dialog.getByTestId('waiting-entry-save').click();
  await expect(dialog.getByTestId('waiting-entry-patient')).toContainText('obligatorio');
  const search = dialog.getByRole('combobox', { name: /Paciente/ });
  await search.fill(lastName);
  await expect(page.getByRole('option', { name: new RegExp(lastName) })).toBeVisible();
  await search.press('ArrowDown');
  await search.press('Enter');
  await expect(dialog.getByTestId('picked-patient')).toContainText(`Inés ${lastName}`);
  await dialog.getByLabel(/Tratamiento/).selectOption(treatment.id);
  await dialog.getByLabel('Profesional').selectOption(slot.professionalId);
  await dialog.getByLabel('Prioridad').selectOption('high');
  await expectNoAxeViolations(page, 'the waiting-list entry dialog');
  await screenshotAtPhoneWidth(page, 'waiting-list-dialog-390');
  await dialog.getByTestId('waiting-entry-save').click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByTestId('waiting-entry-row').filter({ hasText: lastName });
  await expect(row).toContainText(treatment.name);
  await expect(row).toContainText(slot.professionalName);
  await expect(row).toContainText('Alta');
  await checkScreen(page, 'the waiting list', 'waiting-list-light');
  await screenshotAtPhoneWidth(page, 'waiting-list-390');

  // The other patient's appointment is cancelled: the time is offered by mail.
  const cancelled = await request.post(rootServer.url(`api/appointments/${appointment.id}/cancel`), {
    headers,
    data: { reason: 'patient_request', version: appointment.version },
  });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  const link = await linkFromOutbox(email, '/waiting-list/offer/', 30_000);

  // The patient opens it on a phone, signed out, and accepts.
  const context = await browser.newContext({
    locale: 'es-ES',
    timezoneId: 'America/New_York',
    viewport: { width: 390, height: 844 },
  });
  const patient = await context.newPage();
  await patient.goto(rootServer.url(link));
  await expect(patient.getByRole('heading', { name: 'Inés, se ha liberado un horario para usted' })).toBeVisible();
  const when = new Intl.DateTimeFormat('es', { timeZone: demoTimeZone, dateStyle: 'full', timeStyle: 'short' }).format(
    new Date(slot.startsAt),
  );
  await expect(patient.getByTestId('appointment-link-when')).toHaveText(when);
  await checkScreen(patient, 'the offer page', 'waiting-list-offer-390');
  const width = await patient.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'the offer page fits 390 px').toBeLessThanOrEqual(390);
  // A double tap books once: one POST.
  let posts = 0;
  patient.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().includes('/api/public/waiting-list-offers/')) posts += 1;
  });
  await patient.getByRole('button', { name: 'Aceptar' }).dblclick();
  await expect(patient.getByRole('heading', { name: 'Cita reservada' })).toBeVisible();
  expect(posts).toBe(1);
  await checkScreen(patient, 'the accepted offer', 'waiting-list-offer-accepted-390');
  // The link again: booked, nothing to press.
  await patient.reload();
  await expect(patient.getByRole('heading', { name: 'Cita reservada' })).toBeVisible();
  await expect(patient.getByRole('button', { name: 'Aceptar' })).toHaveCount(0);
  await context.close();

  // The list moves the entry to "Con cita"; the agenda shows the appointment.
  const [entry] = (
    await apiGet<{ data: { appointmentId: string | null }[] }>(
      request,
      `api/waiting-list?status=booked&patientId=${waiting}`,
    )
  ).data;
  expect(entry?.appointmentId).toBeTruthy();
  await page.reload();
  await expect(page.getByTestId('waiting-entry-row').filter({ hasText: lastName })).toHaveCount(0);
  await page.getByTestId('waiting-list-status').selectOption('booked');
  await expect(page.getByTestId('waiting-entry-row').filter({ hasText: lastName })).toContainText('Con cita');
  const day = clinicWallTime(slot.startsAt, demoTimeZone).slice(0, 10);
  await page.goto(`/calendar?date=${day}&view=day&open=${entry?.appointmentId}`);
  await settle(page);
  const details = page.getByTestId('appointment-dialog');
  await expect(details.getByRole('heading')).toContainText(`Inés ${lastName}`);
  await expect(details.getByTestId('appointment-status')).toHaveText('Programada');
});
