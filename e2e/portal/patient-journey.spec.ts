import { expect, test } from '@playwright/test';
import { saveScreenshot } from '../support/artifacts';
import { linkFromOutbox } from '../support/outbox';
import { settle, tag, watchRequests } from '../support/page';
import { openOnlineBooking, patientPhone } from '../support/portal';
import { demoUsers, signInPage } from '../support/real-users';
import { checkScreen, themed } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Issue 37, the patient's side end to end at 390 px: a new patient books from the clinic's public
 * page, confirms by the e-mail's link, the front desk sees it in the agenda; every step clean for
 * axe and kept as a screenshot (light; the public page also dark).
 */

const slug = 'sonrisa';

test('a new patient books from the public page, confirms the e-mail, and the front desk sees it', async ({
  browser,
  page: staff,
  request,
}) => {
  test.setTimeout(90_000);
  const settings = await openOnlineBooking(request);
  const treatment = settings.treatments[0];
  expect(treatment, 'the demo clinic has treatments').toBeTruthy();
  const name = tag();
  const lastName = `Portal ${name}`;
  const email = `paciente.${name}@correo.test`;

  const page = await patientPhone(browser);
  await page.goto(rootServer.url(`c/${slug}`));
  await expect(page.getByTestId('clinic-page')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await checkScreen(page, 'the clinic page', 'portal-clinic-390');

  // Treatment → any professional → day → time, each step a link the keyboard reaches.
  await page.getByTestId('clinic-book').click();
  await expect(page.getByTestId('booking-step')).toHaveText('¿Qué necesita?');
  await checkScreen(page, 'the booking: treatment', 'portal-book-treatment-390');
  await page
    .getByRole('link', { name: new RegExp(treatment?.name ?? '') })
    .first()
    .click();
  await expect(page.getByTestId('booking-step')).toHaveText('¿Con quién desea atenderse?');
  await page.getByRole('link', { name: 'Cualquier profesional disponible' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('booking-step')).toHaveText('Elija el día');
  await settle(page, { spinners: true });
  await checkScreen(page, 'the booking: day', 'portal-book-day-390');
  await page.locator('.portal-days a').first().click();
  await expect(page.getByTestId('booking-step')).toHaveText(/^Elija la hora del /);
  await checkScreen(page, 'the booking: time', 'portal-book-time-390');
  const slot = page.getByTestId('booking-slot').first();
  const time = (await slot.innerText()).split('\n')[0] ?? '';
  await slot.click();
  await expect(page.getByTestId('booking-step')).toHaveText('Revise y confirme');
  await expect(page.getByTestId('booking-summary')).toContainText(time);

  // Back mid-flow: the step before, with the day still chosen; Forward returns to the review.
  const review = page.url();
  expect(new URL(review).searchParams.get('treatment')).toBe(treatment?.id);
  await page.goBack();
  await expect(page.getByTestId('booking-step')).toHaveText(/^Elija la hora del /);
  await page.goForward();
  await expect(page.getByTestId('booking-step')).toHaveText('Revise y confirme');
  expect(page.url()).toBe(review);

  // An empty form says what is missing, where it is missing.
  await page.getByTestId('booking-submit').click();
  await expect(page.getByLabel('Nombre')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Nombre').fill('Inés');
  // What the patient corrects stops being marked at once; the rest stays marked until filled.
  await expect(page.getByLabel('Nombre')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Apellido')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Apellido').fill(lastName);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Teléfono').fill('+54 11 5555 0101');
  await page.getByLabel('Número de documento').fill(`30${Date.now() % 1_000_000}`);
  await page.getByLabel('Fecha de nacimiento').fill('1988-04-12');
  await page.getByLabel('Femenino').check();
  await checkScreen(page, 'the booking: review', 'portal-book-review-390');

  // A double click books once.
  const posts = watchRequests(page, ['POST'], /\/api\/public\/clinics\/sonrisa\/bookings$/);
  await page.getByTestId('booking-submit').dblclick();
  await expect(page.getByTestId('booking-held')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Revise su correo para confirmar' })).toBeVisible();
  expect(posts).toHaveLength(1);
  await checkScreen(page, 'the booking: check your mail', 'portal-book-held-390');

  // The e-mail's link confirms it.
  const link = await linkFromOutbox(email, '/booking/confirm/', 20_000);
  await page.goto(rootServer.url(link));
  await expect(page.getByRole('heading', { name: 'Confirme su reserva' })).toBeVisible();
  await checkScreen(page, 'the booking link', 'portal-booking-link-390');
  await page.getByRole('button', { name: 'Confirmar mi reserva' }).dblclick();
  await expect(page.getByTestId('booking-confirmed')).toBeVisible();
  await expect(page.getByTestId('booking-confirmed')).toContainText('Cita confirmada');
  await checkScreen(page, 'the booking confirmed', 'portal-booking-confirmed-390');
  await page.context().close();

  // The front desk sees it in the agenda, marked as booked online.
  const day = new URL(review).searchParams.get('day') ?? '';
  await signInPage(staff, demoUsers.administrator);
  await staff.goto(`/calendar?date=${day}&view=day`);
  await expect(staff.getByText(lastName).first()).toBeVisible();
  await settle(staff);
  await saveScreenshot(staff, 'portal-front-desk-agenda-light');
});

test('the public page in dark and the access request, by keyboard', async ({ browser }) => {
  const page = await patientPhone(browser);
  await page.goto(rootServer.url(themed(`c/${slug}`, 'dark')));
  await expect(page.getByTestId('clinic-page')).toBeVisible();
  await checkScreen(page, 'the clinic page (dark)', 'portal-clinic-dark-390');
  await page.getByLabel('Correo electrónico').fill(`nadie.${tag()}@correo.test`);
  await page.getByLabel('Número de documento').fill('99999999');
  await page.getByLabel('Número de documento').press('Enter');
  // The same answer whether or not a patient matched.
  await expect(page.getByTestId('access-requested')).toBeVisible();
  await checkScreen(page, 'the access requested (dark)', 'portal-access-requested-dark-390');
  await page.context().close();
});

test('a used or unknown booking link says so and offers nothing to press twice', async ({ browser }) => {
  const page = await patientPhone(browser);
  await page.goto(rootServer.url(`booking/confirm/${'A'.repeat(43)}`));
  await page.getByRole('button', { name: 'Confirmar mi reserva' }).click();
  await expect(page.getByText('Este enlace ya no es válido')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirmar mi reserva' })).toHaveCount(0);
  await checkScreen(page, 'a stale booking link', 'portal-booking-link-stale-390');
  await page.context().close();
});
