import { brandPalette } from '@odontia/shared/brand-color';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { saveScreenshot } from '../support/artifacts';
import { adminHeaders, apiGet, createPatient } from '../support/clinic-api';
import { linkFromOutbox } from '../support/outbox';
import { settle, tag } from '../support/page';
import { checkScreen, themed } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Issue 16: the reminder's links. An appointment a few hours ahead for a patient with an e-mail;
 * the server's worker (JOBS_POLL_MS small in playwright.config.ts) mails the reminder to the outbox;
 * the link opens in a fresh browser (no sign-in) and records the answer.
 */

interface Appointment {
  id: string;
  version: number;
  status: string;
  confirmedAt: string | null;
  confirmationChannel: string | null;
  reminderState: string;
}

async function professionalId(request: APIRequestContext): Promise<string> {
  return (await apiGet<{ data: { id: string } }>(request, 'api/auth/system/me')).data.id;
}

/** Books the first free half hour from `hoursAhead` on (the demo agenda may hold the professional). */
async function book(request: APIRequestContext, patientId: string, hoursAhead: number): Promise<Appointment> {
  const headers = await adminHeaders(request);
  const professional = await professionalId(request);
  const base = Math.ceil((Date.now() + hoursAhead * 3600_000) / 900_000) * 900_000;
  for (let step = 0; step < 40; step += 1) {
    const start = base + step * 30 * 60_000;
    const response = await request.post(rootServer.url('api/appointments'), {
      headers,
      data: {
        patientId,
        professionalId: professional,
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(start + 30 * 60_000).toISOString(),
        reason: 'Revisión',
        allowOutsideSchedule: true,
      },
    });
    if (response.status() === 201) return ((await response.json()) as { data: Appointment }).data;
    expect(response.status(), await response.text()).toBe(409);
  }
  throw new Error('no free half hour for the test appointment');
}

const appointment = async (request: APIRequestContext, id: string) =>
  (await apiGet<{ data: Appointment }>(request, `api/appointments/${id}`)).data;

async function scene(request: APIRequestContext, hoursAhead: number, language = 'es') {
  const name = tag();
  const email = `recordatorio.${name}@correo.test`;
  const patientId = await createPatient(request, {
    firstName: 'Rosario',
    lastName: `Recordatorio ${name}`,
    sex: 'female',
    birthdate: '1975-06-15',
    email,
    language,
  });
  const booked = await book(request, patientId, hoursAhead);
  return { email, booked };
}

const hexToRgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16)).join(', ')})`;

/** A browser with no session at all: what the patient opens from the mail. */
async function patientPage(browser: Browser, width?: number): Promise<Page> {
  const context = await browser.newContext({
    locale: 'es-ES',
    timezoneId: 'America/New_York', // the patient's browser zone must not move the clinic's time
    ...(width ? { viewport: { width, height: 844 } } : {}),
  });
  return context.newPage();
}

test('confirm through the link from the outbox mail; the appointment shows confirmed', async ({ browser, request }) => {
  const { email, booked } = await scene(request, 4);
  expect(booked.reminderState).toBe('planned');
  const path = await linkFromOutbox(email, '/appointment/confirm/', 20_000);
  await expect.poll(async () => (await appointment(request, booked.id)).reminderState).toBe('sent');

  const page = await patientPage(browser);
  await page.goto(rootServer.url(path));
  await expect(page.getByRole('heading', { name: /Rosario, ¿confirma su cita\?/ })).toBeVisible();
  await expect(page.getByTestId('appointment-link-summary')).toContainText('Clínica');
  await checkScreen(page, 'the confirm page', 'reminder-link-confirm-light');
  await page.getByRole('button', { name: 'Confirmar mi cita' }).click();
  await expect(page.getByRole('heading', { name: 'Cita confirmada' })).toBeVisible();
  await settle(page);
  await saveScreenshot(page, 'reminder-link-confirmed-light');

  const stored = await appointment(request, booked.id);
  expect(stored.confirmationChannel).toBe('reminder_link');
  expect(stored.confirmedAt).not.toBeNull();
  expect(stored.reminderState).toBe('confirmed');

  // The same link again: already answered, nothing to press.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Ya respondió a este enlace' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirmar mi cita' })).toHaveCount(0);
  await page.context().close();
});

test("the link's page wears the clinic's colour, in light and dark, axe clean (issue 37)", async ({
  browser,
  request,
}) => {
  const { email } = await scene(request, 5);
  const path = await linkFromOutbox(email, '/appointment/confirm/', 20_000);
  const page = await patientPage(browser, 390);
  // The answer of a clinic that chose a colour (the API's side: reminders.int.test.ts); the demo
  // clinic keeps its own look for the other specs running beside this one.
  const palette = brandPalette('#0f766e');
  await page.route('**/api/public/appointment-links/*', async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const answer = (await (await route.fetch()).json()) as { data: Record<string, unknown> };
    await route.fulfill({
      json: { data: { ...answer.data, clinicBrand: { color: '#0f766e', palette, logoPath: null } } },
    });
  });
  for (const theme of ['light', 'dark'] as const) {
    await page.goto(rootServer.url(themed(path, theme)));
    const confirm = page.getByRole('button', { name: 'Confirmar mi cita' });
    await expect(confirm).toHaveCSS('background-color', hexToRgb(palette.fill));
    await expect(confirm).toHaveCSS('color', hexToRgb(palette.onFill));
    await checkScreen(page, `the branded confirm page (${theme})`, `reminder-link-brand-${theme}-390`);
  }
  await page.context().close();
});

test('cancel through the link, at 390 px', async ({ browser, request }) => {
  const { email, booked } = await scene(request, 6);
  const path = await linkFromOutbox(email, '/appointment/cancel/', 20_000);
  const page = await patientPage(browser, 390);
  await page.goto(rootServer.url(path));
  await expect(page.getByRole('heading', { name: /Rosario, ¿desea cancelar su cita\?/ })).toBeVisible();
  await checkScreen(page, 'the cancel page', 'reminder-link-cancel-390');
  await page.getByRole('button', { name: 'Cancelar mi cita' }).click();
  await expect(page.getByRole('heading', { name: 'Cita cancelada' })).toBeVisible();
  const stored = await appointment(request, booked.id);
  expect(stored.status).toBe('cancelled');
  expect(stored.reminderState).toBe('cancelled_by_patient');
  await page.context().close();
});

test('a link of a moved appointment says so and changes nothing', async ({ browser, request }) => {
  const { email, booked } = await scene(request, 8);
  const path = await linkFromOutbox(email, '/appointment/confirm/', 20_000);
  await expect.poll(async () => (await appointment(request, booked.id)).reminderState).toBe('sent');
  const current = await appointment(request, booked.id);
  const later = Date.now() + 30 * 24 * 3600_000;
  const start = Math.ceil(later / 900_000) * 900_000;
  const moved = await request.put(rootServer.url(`api/appointments/${booked.id}`), {
    headers: await adminHeaders(request),
    data: {
      patientId: (await apiGet<{ data: { patientId: string } }>(request, `api/appointments/${booked.id}`)).data
        .patientId,
      professionalId: await professionalId(request),
      startsAt: new Date(start).toISOString(),
      endsAt: new Date(start + 30 * 60_000).toISOString(),
      allowOutsideSchedule: true,
      version: current.version,
    },
  });
  expect(moved.status(), await moved.text()).toBe(200);

  const page = await patientPage(browser);
  await page.goto(rootServer.url(path));
  await expect(page.getByRole('heading', { name: 'Esta cita fue reprogramada' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirmar mi cita' })).toHaveCount(0);
  await checkScreen(page, 'a stale link', 'reminder-link-stale-light');
  await page.goto(`${rootServer.url(path)}?layout_theme=dark`);
  await expect(page.getByRole('heading', { name: 'Esta cita fue reprogramada' })).toBeVisible();
  await checkScreen(page, 'a stale link, dark', 'reminder-link-stale-dark');
  expect((await appointment(request, booked.id)).status).toBe('rescheduled');
  await page.context().close();
});

test("the page speaks the patient's language without saving it as the browser's choice", async ({
  browser,
  request,
}) => {
  const { email } = await scene(request, 10, 'pt');
  const path = await linkFromOutbox(email, '/appointment/confirm/', 20_000);
  const page = await patientPage(browser);
  await page.goto(rootServer.url(path));
  await expect(page.getByRole('heading', { name: /Rosario, confirma a sua consulta\?/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirmar a minha consulta' })).toBeVisible();
  // The browser's own language (cached by the detector at start), not the patient's.
  expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('es-ES');
  await page.context().close();
});

test('an unknown token: invalid link', async ({ browser }) => {
  const page = await patientPage(browser);
  await page.goto(rootServer.url(`appointment/confirm/${'A'.repeat(43)}`));
  await expect(page.getByRole('heading', { name: 'Enlace no válido' })).toBeVisible();
  await page.context().close();
});
