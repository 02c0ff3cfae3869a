import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import { adminHeaders, apiGet } from './clinic-api';
import { rootServer } from './servers';

/* The patient portal's specs (issue 37): the demo clinic's online booking, and the patient's phone. */

export interface OnlineBookingSettings {
  treatments: { id: string; name: string }[];
  professionals: { id: string; name: string }[];
  version: number;
}

/**
 * The demo clinic takes online bookings of new patients from 1 hour to 30 days ahead, and its
 * patients may change them up to 1 hour before; answers the settings' choices.
 */
export async function openOnlineBooking(request: APIRequestContext): Promise<OnlineBookingSettings> {
  const current = (await apiGet<{ data: OnlineBookingSettings }>(request, 'api/settings/online-booking')).data;
  const response = await request.put(rootServer.url('api/settings/online-booking'), {
    headers: await adminHeaders(request),
    data: {
      enabled: true,
      treatmentIds: current.treatments.slice(0, 3).map((treatment) => treatment.id),
      professionalIds: current.professionals.map((professional) => professional.id),
      leadHours: 1,
      horizonDays: 30,
      maxPending: 5,
      newPatients: true,
      changeHours: 1,
      version: current.version,
    },
  });
  // Two tests may open it at once: the second one's version is stale, and the rules are the same.
  expect([200, 409], await response.text()).toContain(response.status());
  return current;
}

/**
 * A new patient of the clinic whose administrator `headers` name, with this e-mail, invited to the
 * portal (the link leaves by mail: `linkFromOutbox(email, '/link/')`); answers the patient's id.
 */
export async function invitedPatient(
  request: APIRequestContext,
  headers: { Authorization: string },
  fields: { firstName: string; lastName: string; email: string },
): Promise<string> {
  const created = await request.post(rootServer.url('api/patients'), {
    headers,
    data: { sex: 'female', birthdate: '1979-09-03', ...fields },
  });
  expect(created.status(), await created.text()).toBe(201);
  const patientId = ((await created.json()) as { data: { id: string } }).data.id;
  const invited = await request.post(rootServer.url(`api/patients/${patientId}/portal-access`), { headers, data: {} });
  expect(invited.status(), await invited.text()).toBe(200);
  return patientId;
}

/** A browser with no session at 390 px, in another zone than the clinic's (its times must not move). */
export async function patientPhone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    locale: 'es-ES',
    timezoneId: 'America/New_York',
    viewport: { width: 390, height: 844 },
  });
  return context.newPage();
}
