import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { addDays, instantOfClinicWallTime } from '../../packages/shared/src/clinic-time';
import { expect, type PageIssues, test } from '../fixtures/test';
import { artifactsDir } from '../support/artifacts';
import { expectNoAxeViolations } from '../support/axe';
import { adminHeaders, apiCreate, apiGet, createPatient } from '../support/clinic-api';
import { settle, tag } from '../support/page';
import { demoClinicToday, demoTimeZone, demoUsers, signInPage } from '../support/real-users';
import { rootServer } from '../support/servers';

/*
 * Every view of the agenda (day, week, month, list) renders every kind of event it can hold
 * (issue 34, blocker 1 and major 3): the demo clinic's Christmas holiday, and a week of the test's
 * own with a professional's vacation, another's block and appointments scheduled, cancelled and
 * missed. No page error, no console error, no error screen; the exceptions read as what they are
 * (never opened as appointments); axe clean; the list view is not an empty panel.
 */

const views = ['day', 'week', 'month', 'list'] as const;

const at = (day: string, time: string) =>
  (instantOfClinicWallTime(`${day}T${time}`, demoTimeZone) as Date).toISOString();

/** The Christmas the demo seeds as a holiday (apps/api/src/seed/demo-schedules.ts). */
function demoChristmas(): string {
  const today = demoClinicToday();
  const year = Number(today.slice(0, 4)) + (today.slice(5) > '12-25' ? 1 : 0);
  return `${year}-12-25`;
}

/** The Monday `weeks` weeks from this one: far from what other specs book. */
function mondayIn(weeks: number): string {
  const day = addDays(demoClinicToday(), weeks * 7);
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

async function openView(page: Page, issues: PageIssues, day: string, view: string, extra = '') {
  await page.goto(`/calendar?date=${day}&view=${view}${extra}`);
  await settle(page, { spinners: true });
  await expect(page.getByTestId('agenda-calendar')).toBeVisible();
  await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0);
  await expect(page.getByTestId('route-error-message')).toHaveCount(0);
  expect(issues.pageErrors, `page errors on ${view} ${day}`).toEqual([]);
  expect(issues.consoleErrors, `console errors on ${view} ${day}`).toEqual([]);
  // Not an empty panel: the calendar has the height of what it shows.
  const box = await page.locator('.agenda-calendar .rbc-calendar').boundingBox();
  expect(box?.height ?? 0, `height of the ${view} view`).toBeGreaterThan(200);
}

const shotsDir = path.join(artifactsDir, 'agenda-views');
async function shot(page: Page, name: string) {
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

test('the demo’s holiday week in every view: the holiday shown, nothing crashes', async ({ page, issues }) => {
  test.setTimeout(240_000);
  const christmas = demoChristmas();
  await signInPage(page, demoUsers.administrator);
  for (const view of views) {
    const day = view === 'list' ? addDays(christmas, -2) : christmas;
    await openView(page, issues, day, view);
    const holiday = page.getByTestId('agenda-exception').filter({ visible: true, hasText: 'Navidad' }).first();
    await expect(holiday, `the holiday in the ${view} view`).toBeVisible();
    await expect(holiday).toContainText('Festivo');
    await expectNoAxeViolations(page, `/calendar ${view} of the holiday week`);
  }
  // The list view's dates read in Spanish order ("jue, 25 dic"), not English ("Thu Dec 25").
  await openView(page, issues, addDays(christmas, -2), 'list');
  const expected = new Intl.DateTimeFormat('es', { weekday: 'short', day: 'numeric', month: 'short' }).format(
    new Date(`${christmas}T12:00:00Z`),
  );
  await expect(page.locator('.rbc-agenda-date-cell').filter({ hasText: expected }).first()).toBeVisible();
  // A holiday is not an appointment: clicking it opens no appointment (its hours can be booked, as
  // outside the schedule), and it is text, not a button.
  await openView(page, issues, christmas, 'day');
  await expect(page.locator('.rbc-background-event[role], .rbc-background-event[tabindex]')).toHaveCount(0);
  await page.locator('.rbc-background-event').first().click({ force: true });
  await expect(page.getByTestId('appointment-dialog')).toHaveCount(0);
  await page.keyboard.press('Escape');
  expect(issues.pageErrors).toEqual([]);
});

interface Professional {
  id: string;
  completeName: string;
}

async function cancel(request: APIRequestContext, id: string, version: number, reason: string) {
  const response = await request.post(rootServer.url(`api/appointments/${id}/cancel`), {
    headers: await adminHeaders(request),
    data: { reason, note: null, version },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test('a week with a vacation, a block and cancelled appointments in every view, light, dark and 390 px', async ({
  page,
  request,
  issues,
}) => {
  test.setTimeout(360_000);
  const monday = mondayIn(23);
  const wednesday = addDays(monday, 2);
  const label = tag();
  const [first, second, third] = (await apiGet<{ data: Professional[] }>(request, 'api/professionals')).data;
  if (!first || !second || !third) throw new Error('the demo clinic has three professionals');
  await apiCreate(request, 'api/schedule-exceptions', {
    professionalId: first.id,
    kind: 'vacation',
    startsAt: at(monday, '00:00'),
    endsAt: at(addDays(monday, 3), '00:00'),
    allDay: true,
    reason: `Viaje ${label}`,
  });
  await apiCreate(request, 'api/schedule-exceptions', {
    professionalId: second.id,
    kind: 'block',
    startsAt: at(wednesday, '10:00'),
    endsAt: at(wednesday, '12:00'),
    allDay: false,
    reason: `Congreso ${label}`,
  });
  const patientName = (last: string) => `Irene ${last}${label}`;
  const book = async (last: string, professionalId: string, start: string, end: string) => {
    const patientId = await createPatient(request, {
      firstName: 'Irene',
      lastName: `${last}${label}`,
      sex: 'female',
      birthdate: '1985-03-02',
    });
    return apiCreate<{ id: string; version: number }>(request, 'api/appointments', {
      patientId,
      professionalId,
      startsAt: at(wednesday, start),
      endsAt: at(wednesday, end),
      allowOutsideSchedule: true,
    });
  };
  await book('Programada', third.id, '09:00', '09:30');
  const cancelled = await book('Cancelada', third.id, '15:00', '15:45');
  await cancel(request, cancelled.id, cancelled.version, 'patient_request');
  const missed = await book('Anulada', second.id, '16:00', '16:30');
  await cancel(request, missed.id, missed.version, 'patient_request');

  await signInPage(page, demoUsers.administrator);
  for (const view of views) {
    const day = view === 'list' ? monday : wednesday;
    await openView(page, issues, day, view);
    const calendar = page.getByTestId('agenda-calendar');
    await expect(
      calendar
        .getByTestId('agenda-exception')
        .filter({ visible: true, hasText: `Viaje ${label}` })
        .first(),
    ).toBeVisible();
    await expect(
      calendar.getByTestId('agenda-exception').filter({ visible: true, hasText: 'Vacaciones' }).first(),
    ).toBeVisible();
    await expect(
      calendar
        .getByTestId('agenda-exception')
        .filter({ visible: true, hasText: `Congreso ${label}` })
        .first(),
    ).toBeVisible();
    for (const [name, status] of [
      ['Programada', 'Programada'],
      ['Cancelada', 'Cancelada'],
      ['Anulada', 'Cancelada'],
    ] as const) {
      const event = calendar.locator('[data-status]', { hasText: patientName(name) }).first();
      await expect(event, `${name} in the ${view} view`).toBeVisible();
      if (view === 'list') await expect(event).toContainText(status);
    }
    await expectNoAxeViolations(page, `/calendar ${view} of a week with exceptions`);
  }

  // A block is never opened as an appointment; a cancelled appointment opens with its true status.
  await openView(page, issues, wednesday, 'day');
  await page.locator('.rbc-background-event', { hasText: `Congreso ${label}` }).click({ force: true });
  await expect(page.getByTestId('appointment-dialog')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('booking-dialog')).toHaveCount(0);
  await page.locator('.rbc-event', { hasText: patientName('Cancelada') }).click();
  await expect(page.getByTestId('appointment-status')).toHaveText('Cancelada');
  await expect(page.getByTestId('appointment-status-row')).toHaveText('Cancelada');
  await page.keyboard.press('Escape');

  // Screenshots to look at: day, week and list, light and dark, and at 390 px.
  for (const theme of ['light', 'dark'] as const)
    for (const view of ['day', 'week', 'list'] as const) {
      await openView(page, issues, view === 'list' ? monday : wednesday, view, `&layout_theme=${theme}`);
      await shot(page, `agenda-${view}-${theme}`);
    }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const view of ['day', 'week', 'list'] as const) {
    await openView(page, issues, view === 'list' ? monday : wednesday, view, '&layout_theme=light');
    await shot(page, `agenda-${view}-390`);
    await expectNoAxeViolations(page, `/calendar ${view} at 390 px`);
  }
  expect(issues.pageErrors).toEqual([]);
  expect(issues.consoleErrors).toEqual([]);
});
