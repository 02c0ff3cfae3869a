import { addDays, instantOfClinicWallTime } from '../../packages/shared/src/clinic-time';
import { expect, test } from '../fixtures/test';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, apiCreate, apiGet, createPatient } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { demoClinicToday, demoTimeZone, demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * The front desk's agenda (issue 34): it opens on the day, one column per professional, and
 * remembers the view and filter chosen; the patient's appointments tab shows one row per
 * appointment (a move is not another one) that opens it in the agenda; the appointment's status
 * reads true and visible; "Iniciar atención" carries its treatment, type and price; the booking
 * dialog's free slots start on the day chosen; a booking in the past is said before it is made.
 */

const at = (day: string, time: string) =>
  (instantOfClinicWallTime(`${day}T${time}`, demoTimeZone) as Date).toISOString();

/** The Tuesday `weeks` weeks from this one: far from what other specs book. */
function tuesdayIn(weeks: number): string {
  const day = addDays(demoClinicToday(), weeks * 7);
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return addDays(day, 2 - ((weekday + 6) % 7) - 1);
}

interface Professional {
  id: string;
  completeName: string;
}
interface Treatment {
  id: string;
  name: string;
  price: string;
}

test('opens on the day with a column per professional, and remembers the view and the filter', async ({
  page,
  request,
}) => {
  const professionals = (await apiGet<{ data: Professional[] }>(request, 'api/professionals')).data;
  await signInPage(page, demoUsers.administrator);
  await page.goto('/calendar');
  await settle(page);
  await expect(page.getByTestId('view-day')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.rbc-time-view-resources .rbc-row-resource .rbc-header')).toHaveCount(
    professionals.length,
  );
  // The week: one column per day, no per-professional columns.
  await page.getByTestId('view-week').click();
  await expect(page.locator('.rbc-time-view-resources')).toHaveCount(0);
  await expect(page.locator('.rbc-time-content > .rbc-day-slot')).toHaveCount(7);
  // (The URL changes in a transition: a click, then the state read back.)
  await page.getByTestId('professional-filter').first().click();
  await expect(page.getByTestId('professional-filter').first()).not.toBeChecked();
  await expect(page).toHaveURL(/professionals=/);
  // Back without the URL's state: the week and the filter as left.
  await page.goto('/calendar');
  await settle(page);
  await expect(page.getByTestId('view-week')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('professional-filter').first()).not.toBeChecked();
  // The URL still wins.
  await page.goto('/calendar?view=month');
  await expect(page.getByTestId('view-month')).toHaveAttribute('aria-pressed', 'true');
});

test('a moved appointment is one row of the patient, opens in the agenda with its true status, and starts its attendance with treatment, type and price', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const day = tuesdayIn(25);
  const label = tag();
  const [professional] = (await apiGet<{ data: Professional[] }>(request, 'api/professionals')).data;
  if (!professional) throw new Error('the demo clinic has professionals');
  const treatment = (await apiGet<{ data: Treatment[] }>(request, 'api/treatments?active=true&pageSize=100')).data.find(
    (t) => Number(t.price) > 0,
  );
  if (!treatment) throw new Error('the demo clinic has priced treatments');
  const patientId = await createPatient(request, {
    firstName: 'Mateo',
    lastName: `Recepción ${label}`,
    sex: 'male',
    birthdate: '1979-08-14',
  });
  const booked = await apiCreate<{ id: string }>(request, 'api/appointments', {
    patientId,
    professionalId: professional.id,
    treatmentId: treatment.id,
    startsAt: at(day, '10:00'),
    endsAt: at(day, '10:30'),
    allowOutsideSchedule: true,
  });
  const moved = await request.put(rootServer.url(`api/appointments/${booked.id}`), {
    headers: await adminHeaders(request),
    data: {
      patientId,
      professionalId: professional.id,
      treatmentId: treatment.id,
      startsAt: at(day, '11:00'),
      endsAt: at(day, '11:30'),
      allowOutsideSchedule: true,
      version: 1,
    },
  });
  expect(moved.status(), await moved.text()).toBe(200);
  const current = ((await moved.json()) as { data: { id: string } }).data.id;

  await signInPage(page, demoUsers.administrator);
  await page.goto(`/patients/${patientId}/mh?tab=appointments`);
  await settle(page);
  await expect(page.getByTestId('patient-appointment-row')).toHaveCount(1);
  await page.getByTestId('patient-appointment-open').click();
  await expect(page).toHaveURL(new RegExp(`/calendar\\?date=${day}&view=day&open=${current}`));
  const dialog = page.getByTestId('appointment-dialog');
  await expect(dialog.getByRole('heading')).toContainText(`Mateo Recepción ${label}`);
  const badge = dialog.getByTestId('appointment-status');
  await expect(badge).toHaveText('Programada');
  await expect(dialog.getByTestId('appointment-status-row')).toHaveText('Programada');
  // Visible: a solid background, not white on transparent.
  expect(await badge.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
  await expectNoAxeViolations(page, 'the appointment dialog (light)');

  await dialog.getByTestId('action-arrive').click();
  await expect(dialog.getByTestId('appointment-status-row')).toHaveText('En sala de espera');
  await expect(badge).toHaveText('En sala de espera');
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
  await expectNoAxeViolations(page, 'the appointment dialog (dark)');
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'light'));

  await dialog.getByTestId('action-start').click();
  await expect(page).toHaveURL(new RegExp(`/mh/attendance/new\\?appointmentId=${current}`));
  const form = page.getByTestId('attendance-form');
  await expect(form.getByLabel('Tipo de atención')).toHaveValue('medical_attendance');
  await expect(form.locator('input[name="lines.0.description"]')).toHaveValue(treatment.name);
  await expect(form.locator('input[name="lines.0.price"]')).toHaveValue(treatment.price.replace('.', ','));
  await expect(form.getByLabel('Facturable')).toBeChecked();
});

test('the free slots start on the day chosen; a booking in the past is said before it is made', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const later = tuesdayIn(26);
  const label = tag();
  const [professional] = (await apiGet<{ data: Professional[] }>(request, 'api/professionals')).data;
  const name = `Sofía Pasado ${label}`;
  await createPatient(request, {
    firstName: 'Sofía',
    lastName: `Pasado ${label}`,
    sex: 'female',
    birthdate: '1992-01-20',
  });
  await signInPage(page, demoUsers.administrator);
  await page.goto(`/calendar?date=${later}&view=day`);
  await settle(page);
  await page.getByTestId('new-appointment').click();
  const dialog = page.getByTestId('booking-dialog');
  await dialog.getByTestId('booking-professional').selectOption(professional?.id ?? '');
  await dialog.getByTestId('booking-date').fill(later);
  const heading = new Intl.DateTimeFormat('es', { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${later}T12:00:00Z`),
  );
  await expect(dialog.getByRole('heading', { name: `Huecos libres desde el ${heading}` })).toBeVisible();
  const firstSlot = dialog.getByTestId('free-slots').getByRole('button').first();
  await expect(firstSlot).toBeVisible();
  await firstSlot.click();
  // The chip's day is the day chosen or later, never today's.
  expect((await dialog.getByTestId('booking-date').inputValue()) >= later).toBe(true);

  // Yesterday at 10:00: asked first, then booked.
  const yesterday = addDays(demoClinicToday(), -1);
  await dialog.getByRole('combobox', { name: 'Paciente' }).fill(name);
  await page.getByRole('option', { name: new RegExp(name) }).click();
  await dialog.getByTestId('booking-date').fill(yesterday);
  await dialog.getByTestId('booking-time').fill('07:00');
  await dialog.getByTestId('booking-save').click();
  const warning = dialog.getByTestId('booking-past');
  await expect(warning).toContainText('Esta cita queda en el pasado');
  await expectNoAxeViolations(page, 'the booking dialog asking about the past');
  await warning.getByTestId('book-past').click();
  // Outside the schedule (07:00) it may ask that too; then it is booked.
  const outside = dialog.getByTestId('book-anyway');
  await expect.poll(async () => (await dialog.count()) === 0 || (await outside.isVisible())).toBe(true);
  if (await outside.isVisible()) await outside.click();
  await expect(dialog).toHaveCount(0);
  const booked = (
    await apiGet<{ data: { patientName: string; startsAt: string }[] }>(
      request,
      `api/appointments/calendar?from=${at(yesterday, '00:00')}&to=${at(addDays(yesterday, 1), '00:00')}`,
    )
  ).data.filter((a) => a.patientName === name);
  expect(booked.map((a) => a.startsAt)).toEqual([at(yesterday, '07:00')]);
});
