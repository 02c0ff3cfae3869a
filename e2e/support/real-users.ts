import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { addDays } from '../../packages/shared/src/clinic-time';
import { seedToken } from '../fixtures/session';
import { linkFromOutbox } from './outbox';
import { rootServer } from './servers';

/*
 * Real sessions on the root server (demo clinic seeded on a fresh PGlite). Tests that change a
 * user make their own through an invitation, so no test changes what another one reads.
 */

export const demoPassword = 'sonrisa-demo-2026';
export const demoUsers = {
  administrator: 'administrador@sonrisa.demo',
  supervisor: 'supervisor@sonrisa.demo',
  user: 'usuario@sonrisa.demo',
} as const;

export type Level = 'administrator' | 'supervisor' | 'user' | 'customer';

/** The demo clinic's time zone; the test browser runs in another one (Europe/Madrid) on purpose. */
export const demoTimeZone = 'America/Argentina/Buenos_Aires';

/** The demo clinic's date today 'YYYY-MM-DD': what its forms start with, whatever UTC's or the browser's date. */
export function demoClinicToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: demoTimeZone }).format(new Date());
}

/**
 * The first `isoWeekday` (1 Monday … 7 Sunday) on or after `day`: a spec that books picks a working
 * weekday, whatever the date CI runs on (a fixed offset once landed on a Saturday with a recess).
 */
export function weekdayOnOrAfter(day: string, isoWeekday: number): string {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay() || 7;
  return addDays(day, (isoWeekday - weekday + 7) % 7);
}

/** A unique e-mail for one test. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@clinica.test`;
}

/** Signs in through the API (no failures: the sign-in rate limit counts them) and returns the token. */
export async function apiSignIn(request: APIRequestContext, email: string, password = demoPassword): Promise<string> {
  const response = await request.post(rootServer.url('api/auth/sign-in'), {
    data: { email, password, remember: false },
  });
  expect(response.status(), `sign-in of ${email}`).toBe(200);
  const body = (await response.json()) as { data: { token: string } };
  return body.data.token;
}

/**
 * A new activated clinic of the installation (through the API and the outbox), signed up from its
 * own client address (the sign-up counts against the throttle of the address); answers its
 * administrator's token.
 */
export async function signUpClinic(
  request: APIRequestContext,
  clinicName: string,
  clientAddress: string,
): Promise<{ token: string; email: string }> {
  const email = uniqueEmail('clinica');
  const password = 'la clave de la otra clínica';
  const signUp = await request.post(rootServer.url('api/auth/sign-up'), {
    headers: { 'X-Forwarded-For': clientAddress },
    data: {
      completeName: 'Ramón Ortiz',
      email,
      password,
      passwordConfirmation: password,
      clinicName,
      contact: '+54 11 4000-1900',
      acceptTerms: true,
    },
  });
  expect(signUp.status(), 'sign-up').toBe(201);
  const activation = await linkFromOutbox(email, '/auth/activation/');
  const activated = await request.post(rootServer.url(`api${activation}`));
  expect(activated.status(), 'activation').toBe(200);
  return { token: await apiSignIn(request, email, password), email };
}

/** The page opens signed in as `email`: the token where the app looks for it. */
export async function signInPage(page: Page, email: string, password = demoPassword): Promise<void> {
  await seedToken(page, await apiSignIn(page.request, email, password));
}

/** The page opens `path` signed in as the demo administrator. */
export async function openAsAdministrator(page: Page, path: string): Promise<void> {
  await signInPage(page, demoUsers.administrator);
  await page.goto(path);
}

export interface CreatedUser {
  id: string;
  email: string;
  password: string;
  completeName: string;
}

/**
 * A new, active user of the demo clinic: the demo administrator invites them through the API,
 * and the invitation link from the outbox sets the password (which activates them).
 */
export async function createUser(
  request: APIRequestContext,
  level: Level,
  completeName = 'Paula Gómez',
): Promise<CreatedUser> {
  const adminToken = await apiSignIn(request, demoUsers.administrator);
  const email = uniqueEmail(level);
  if (level === 'customer') return createPortalPatient(request, adminToken, email, completeName);
  const invited = await request.post(rootServer.url('api/users'), {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { completeName, email, level },
  });
  expect(invited.status(), 'invitation').toBe(201);
  const { data } = (await invited.json()) as { data: { id: string } };
  const link = await linkFromOutbox(email, '/auth/reset_password/');
  const token = link.split('/').at(-1) ?? '';
  const password = 'una frase larga de prueba';
  const reset = await request.post(rootServer.url(`api/auth/reset-password/${token}`), {
    data: { password, passwordConfirmation: password },
  });
  expect(reset.status(), 'password from the invitation').toBe(200);
  return { id: data.id, email, password, completeName };
}

/**
 * A customer is a patient in the portal (issue 37): a patient with this e-mail, invited from their
 * page, whose one-time link opens a session that sets the first password.
 */
async function createPortalPatient(
  request: APIRequestContext,
  adminToken: string,
  email: string,
  completeName: string,
): Promise<CreatedUser> {
  const headers = { Authorization: `Bearer ${adminToken}` };
  const [firstName, ...rest] = completeName.split(' ');
  const patient = await request.post(rootServer.url('api/patients'), {
    headers,
    data: { firstName, lastName: rest.join(' ') || 'Paciente', sex: 'female', birthdate: '1985-03-14', email },
  });
  expect(patient.status(), 'patient').toBe(201);
  const { data } = (await patient.json()) as { data: { id: string } };
  const invited = await request.post(rootServer.url(`api/patients/${data.id}/portal-access`), { headers });
  expect(invited.status(), 'portal invitation').toBe(200);
  const token = (await linkFromOutbox(email, '/link/')).split('/').at(-1) ?? '';
  const opened = await request.post(rootServer.url(`api/public/portal-links/${token}`));
  expect(opened.status(), 'portal link').toBe(200);
  const session = (await opened.json()) as { data: { token: string; user: { id: string } } };
  const password = 'una frase larga de prueba';
  const set = await request.put(rootServer.url('api/portal/password'), {
    headers: { Authorization: `Bearer ${session.data.token}` },
    data: { password, passwordConfirmation: password },
  });
  expect(set.status(), 'portal password').toBe(200);
  return { id: session.data.user.id, email, password, completeName };
}
