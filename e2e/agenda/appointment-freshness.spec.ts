import { instantOfClinicWallTime } from '../../packages/shared/src/clinic-time';
import { expect, test } from '../fixtures/test';
import { apiCreate, apiGet, createPatient } from '../support/clinic-api';
import { navigateInApp, settle, tag } from '../support/page';
import { demoClinicToday, demoTimeZone, demoUsers, signInPage } from '../support/real-users';

/*
 * Issue 36: an appointment moved in the agenda shows its new time at once on every screen that
 * showed it before, without loading the page again: the dashboard's today list, the patient's
 * appointments tab and "start attendance" (which says the old booking was rescheduled, and
 * starts the new one at its new time). Every screen is seen once before the move, so each holds
 * the appointment in its cache when the move happens.
 */

const at = (day: string, time: string) =>
  (instantOfClinicWallTime(`${day}T${time}`, demoTimeZone) as Date).toISOString();

interface Professional {
  id: string;
}

test('a move in the agenda shows on the dashboard, the patient’s appointments and start attendance at once', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const today = demoClinicToday();
  const label = tag();
  const name = `Inés Fresca ${label}`;
  const professionals = (await apiGet<{ data: Professional[] }>(request, 'api/professionals')).data;
  const professional = professionals.at(-1);
  if (!professional) throw new Error('the demo clinic has professionals');
  const patientId = await createPatient(request, {
    firstName: 'Inés',
    lastName: `Fresca ${label}`,
    sex: 'female',
    birthdate: '1987-03-09',
  });
  // In the evening, after the demo clinic's day, so no other booking is in the way; an hour later
  // on a retry, clear of the booking the first attempt moved.
  const hour = 20 + test.info().retry;
  const before = `${hour}:00`;
  const after = `${hour}:30`;
  const booked = await apiCreate<{ id: string }>(request, 'api/appointments', {
    patientId,
    professionalId: professional.id,
    startsAt: at(today, before),
    endsAt: at(today, after),
    reason: 'Control',
    allowOutsideSchedule: true,
  });
  const tabPath = `/patients/${patientId}/mh?tab=appointments`;
  const oldStartPath = `/patients/${patientId}/mh/attendance/new?appointmentId=${booked.id}`;
  const todayRow = page.getByTestId('today-appointment').filter({ hasText: name });
  const patientRow = page.getByTestId('patient-appointment-row');

  await signInPage(page, demoUsers.administrator);
  await page.goto(oldStartPath);
  await settle(page);
  await expect(page.getByTestId('attendance-appointment-banner')).toContainText(before);
  await navigateInApp(page, tabPath);
  await expect(patientRow).toHaveCount(1);
  await expect(patientRow).toContainText(before);
  await navigateInApp(page, '/');
  await expect(todayRow).toContainText(before);

  // The move: the appointment's details in the agenda, "Editar", half an hour later.
  await navigateInApp(page, `/calendar?date=${today}&view=day&open=${booked.id}`);
  await page.getByTestId('appointment-dialog').getByTestId('action-edit').click();
  const dialog = page.getByTestId('booking-dialog');
  await dialog.getByTestId('booking-time').fill(after);
  const puts: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'PUT' && sent.url().endsWith(`/api/appointments/${booked.id}`)) puts.push(sent.url());
  });
  await dialog.getByTestId('booking-save').click();
  // After the demo clinic's hours (09:00–20:00) the move is outside the schedule, and the dialog
  // asks; late in the clinic's evening the new time is also in the past, asked first.
  const past = dialog.getByTestId('book-past');
  const outside = dialog.getByTestId('book-anyway');
  await expect(past.or(outside)).toBeVisible();
  if (await past.isVisible()) await past.click();
  // A double click on "Reservar igualmente" moves it once: the second click finds it busy.
  await outside.dblclick();
  await expect(dialog).toHaveCount(0);
  expect(puts, 'one move refused (outside the schedule), one done').toHaveLength(2);

  await navigateInApp(page, '/');
  await expect(todayRow).toHaveCount(1);
  // Its start first, then its end: 20:30 is the start now, no longer the end.
  await expect(todayRow.locator('.dashboard-appointment-time')).toHaveText(new RegExp(`^${after}`));
  await expect(todayRow.locator('.dashboard-appointment-time')).not.toContainText(before);

  await navigateInApp(page, tabPath);
  await expect(patientRow).toHaveCount(1);
  await expect(patientRow).toContainText(`${after}–`);
  await expect(patientRow).not.toContainText(before);

  await navigateInApp(page, oldStartPath);
  await expect(page.getByTestId('attendance-appointment-unusable')).toContainText('Reprogramada');
  await expect(page.getByTestId('attendance-appointment-banner')).toHaveCount(0);

  await navigateInApp(page, tabPath);
  await patientRow.getByTestId('appointment-start-attendance').click();
  await expect(page.getByTestId('attendance-appointment-banner')).toContainText(after);
});
