import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures/test';
import { saveScreenshot } from '../support/artifacts';
import { apiCreate, apiGet, createPatient } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { demoClinicToday, demoUsers, signInPage } from '../support/real-users';
import { checkScreen } from '../support/screens';

/*
 * The dashboard (issue 16): today's agenda per professional with confirmed / not confirmed /
 * arrived, "Llegó", "Iniciar atención" → the attendance form pre-filled from the appointment →
 * saved → the appointment completed; the patient's appointments in the medical history. The
 * demo clinic is in Buenos Aires (UTC−3, no daylight saving), so a wall-clock time is `…-03:00`.
 */

interface Appointment {
  id: string;
  status: string;
  attendanceId: string | null;
  version: number;
}

async function bookToday(
  request: APIRequestContext,
  fields: { patientId: string; professionalId: string; at: string; minutes: number; reason: string },
): Promise<Appointment> {
  const today = demoClinicToday();
  const startsAt = new Date(`${today}T${fields.at}:00-03:00`);
  const endsAt = new Date(startsAt.getTime() + fields.minutes * 60_000);
  return apiCreate<Appointment>(request, 'api/appointments', {
    patientId: fields.patientId,
    professionalId: fields.professionalId,
    startsAt: startsAt.toISOString(),
    endsAt: endsAt.toISOString(),
    reason: fields.reason,
    allowOutsideSchedule: true,
  });
}

test('today’s agenda: arrived, start the attendance from an appointment, the appointment completed', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const today = demoClinicToday();
  const word = tag();
  const professionals = (await apiGet<{ data: { id: string; completeName: string }[] }>(request, 'api/professionals'))
    .data;
  const professional = professionals[0];
  if (!professional) throw new Error('the demo clinic has no professional');
  const patientId = await createPatient(request, {
    firstName: 'Agustina',
    lastName: `Agenda ${word}`,
    sex: 'female',
    birthdate: '1990-04-02',
  });
  // After the demo agenda's hours (it closes at 20:00): never on a demo appointment; a retry
  // books two hours later, so its appointments never overlap the first try's (20:00–21:15).
  const hour = String(20 + 2 * testInfo.retry).padStart(2, '0');
  const arriving = await bookToday(request, {
    patientId,
    professionalId: professional.id,
    at: `${hour}:00`,
    minutes: 30,
    reason: 'Control de ortodoncia',
  });
  const attending = await bookToday(request, {
    patientId,
    professionalId: professional.id,
    at: `${hour}:30`,
    minutes: 45,
    reason: `Limpieza ${word}`,
  });

  await signInPage(page, demoUsers.administrator);
  await page.goto('/dashboard');
  const agenda = page.getByTestId('today-agenda');
  const arrivingRow = agenda.locator(`[data-appointment-id="${arriving.id}"]`);
  const attendingRow = agenda.locator(`[data-appointment-id="${attending.id}"]`);
  await expect(arrivingRow).toContainText(`Agustina Agenda ${word}`);
  await expect(arrivingRow).toContainText(`${hour}:00`);
  await expect(arrivingRow.getByTestId('appointment-unconfirmed')).toHaveText('Sin confirmar');
  await expect(
    agenda
      .getByTestId('today-professional')
      .filter({ has: page.locator(`[data-appointment-id="${arriving.id}"]`) })
      .getByRole('heading'),
  ).toContainText(professional.completeName);

  // Llegó and Confirmar: the badges change in place.
  await arrivingRow.getByTestId('mark-arrived').click();
  await expect(arrivingRow.getByTestId('appointment-arrived')).toHaveText('Llegó');
  await expect(arrivingRow.getByTestId('mark-arrived')).toHaveCount(0);
  await arrivingRow.getByTestId('confirm-appointment').click();
  await expect(arrivingRow.getByTestId('appointment-confirmed')).toHaveText('Confirmada');

  // Iniciar atención: the attendance form starts with the appointment's professional, time and reason.
  await attendingRow.getByTestId('start-attendance').click();
  await expect(page).toHaveURL(new RegExp(`/patients/${patientId}/mh/attendance/new\\?appointmentId=${attending.id}`));
  await expect(page.getByTestId('attendance-appointment-banner')).toContainText(
    `Atención de la cita de las ${hour}:30 con ${professional.completeName}`,
  );
  const form = page.getByTestId('attendance-form');
  await saveScreenshot(page, 'dashboard-start-attendance', { fullPage: false });
  await expect(form.getByLabel('Título')).toHaveValue(`Limpieza ${word}`);
  await expect(form.getByLabel('Profesional')).toHaveValue(professional.id);
  await expect(form.getByRole('textbox', { name: 'Fecha', exact: true })).toHaveValue(`${today}T${hour}:30`);
  await form.getByLabel('Tipo de atención').selectOption('dentistry');
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Atención creada correctamente.')).toBeVisible();
  await expect(page).toHaveURL(/\/mh\/attendance\/show\//);
  const attendanceId = page.url().split('/').pop();

  const completed = (await apiGet<{ data: Appointment }>(request, `api/appointments/${attending.id}`)).data;
  expect(completed.status).toBe('completed');
  expect(completed.attendanceId).toBe(attendanceId);

  // Back on the dashboard the appointment shows as attended, without actions; the patient is among the recent.
  await page.goto('/dashboard');
  await expect(attendingRow.getByTestId('appointment-status')).toHaveText('Atendida');
  await expect(attendingRow.getByTestId('start-attendance')).toHaveCount(0);
  await expect(page.getByTestId('recent-patients')).toContainText(`Agustina Agenda ${word}`);

  // The patient's appointments in the medical history, with their state and "Nueva cita".
  await page.goto(`/patients/${patientId}/mh?tab=appointments`);
  const rows = page.getByTestId('patient-appointment-row');
  await expect(rows).toHaveCount(2);
  await saveScreenshot(page, 'dashboard-patient-appointments');
  await expect(page.locator(`[data-testid="patient-appointment-row"][data-status="completed"]`)).toContainText(
    'Atendida',
  );
  await expect(page.locator(`[data-testid="patient-appointment-row"][data-status="scheduled"]`)).toContainText(
    'Confirmada',
  );
  const newAppointment = page.getByTestId('new-appointment');
  await expect(newAppointment).toHaveAttribute(
    'href',
    `/calendar?date=${today}&view=day&book=1&patientId=${patientId}`,
  );

  // The patients list shows the next appointment (the confirmed one, still scheduled).
  await page.goto(`/patients?q=${encodeURIComponent(word)}`);
  await expect(page.getByTestId('patient-next-appointment').first()).toContainText(professional.completeName);
  await saveScreenshot(page, 'dashboard-patients-next-appointment', { fullPage: false });
});

test('an attendance with a next appointment offers to book it in the calendar', async ({ page, request }) => {
  const professional = (await apiGet<{ data: { id: string }[] }>(request, 'api/professionals')).data[0];
  if (!professional) throw new Error('the demo clinic has no professional');
  const patientId = await createPatient(request, {
    firstName: 'Bruno',
    lastName: `Control ${tag()}`,
    sex: 'male',
    birthdate: '1985-06-07',
  });
  const attendance = await apiCreate(request, `api/patients/${patientId}/attendances`, {
    date: new Date().toISOString(),
    attendanceType: 'dentistry',
    professionalId: professional.id,
    titleResume: 'Control',
    nextAppointment: '2027-01-15',
  });
  await signInPage(page, demoUsers.administrator);
  await page.goto(`/patients/${patientId}/mh/attendance/show/${attendance.id}`);
  const book = page.getByTestId('book-next-appointment');
  await expect(book).toHaveText('Reservar cita');
  await expect(book).toHaveAttribute(
    'href',
    `/calendar?date=2027-01-15&view=day&book=1&patientId=${patientId}&professionalId=${professional.id}`,
  );
});

for (const theme of ['light', 'dark'] as const) {
  test(`the dashboard passes axe and looks right, ${theme}`, async ({ page }) => {
    await signInPage(page, demoUsers.administrator);
    await page.goto(`/dashboard?layout_theme=${theme}`);
    await expect(page.getByTestId('today-agenda')).toBeVisible();
    await checkScreen(page, `/dashboard (${theme})`, `dashboard-${theme}`, { spinners: true });
  });
}

test('the dashboard on a 390 px phone: the cards stack', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInPage(page, demoUsers.administrator);
  await page.goto('/dashboard');
  await expect(page.getByTestId('today-agenda')).toBeVisible();
  await settle(page, { spinners: true });
  const agenda = await page.getByTestId('today-agenda').boundingBox();
  const slots = await page.getByTestId('free-slots').boundingBox();
  expect(agenda && slots && slots.y >= agenda.y + agenda.height).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await saveScreenshot(page, 'dashboard-390');
});
