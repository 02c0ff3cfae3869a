import { randomInt } from 'node:crypto';
import { clinicWallTime } from '../../packages/shared/src/clinic-time';
import { expect, test } from '../fixtures/test';
import { adminHeaders, apiGet, createPatient } from '../support/clinic-api';
import { sentTo, whatsappReply } from '../support/fake-messaging';
import { settle, tag } from '../support/page';
import { demoTimeZone, demoUsers, signInPage } from '../support/real-users';
import { checkScreen } from '../support/screens';
import { rootServer } from '../support/servers';

/*
 * Issue 38, the scenario the issue names: an appointment is reminded by WhatsApp (the demo's local
 * fake provider), the patient replies "2", the agenda shows it cancelled by the patient, and the
 * first patient waiting for that time is offered it by WhatsApp and takes it from the link.
 */

interface Treatment {
  id: string;
  name: string;
  durationMinutes: number;
}
interface Slot {
  startsAt: string;
  endsAt: string;
  professionalId: string;
}

/** A mobile number of the test's own: '+54' and '11 5xxx-xxxx'; answers the digits WhatsApp uses. */
function mobile(): { phoneArea: string; phone: string; digits: string } {
  const number = `5${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
  return { phoneArea: '+54', phone: `11 ${number.slice(0, 4)}-${number.slice(4)}`, digits: `5411${number}` };
}

test('a WhatsApp "2" cancels the appointment and the waiting list takes the time', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const headers = await adminHeaders(request);
  const name = tag();
  const ana = mobile();
  const bea = mobile();
  const patient = async (firstName: string, phone: { phoneArea: string; phone: string }) => {
    const id = await createPatient(request, {
      firstName,
      lastName: `WhatsApp ${name}`,
      sex: 'female',
      birthdate: '1985-05-05',
      phoneArea: phone.phoneArea,
      phone: phone.phone,
      language: 'es',
    });
    const consent = await request.post(rootServer.url(`api/patients/${id}/channel-consents`), {
      headers,
      data: { channel: 'whatsapp', granted: true, note: 'Lo pidió en recepción' },
    });
    expect(consent.status(), await consent.text()).toBe(201);
    return id;
  };
  const reminded = await patient('Ana', ana);
  const waiting = await patient('Bea', bea);

  // A free time of the agenda and a reminder that leaves at once: the lead covers it (restored after).
  const treatment = (await apiGet<{ data: Treatment[] }>(request, 'api/treatments?active=true&pageSize=100')).data.find(
    (row) => row.durationMinutes <= 60,
  );
  expect(treatment, 'the demo has a short treatment').toBeTruthy();
  if (!treatment) return;
  const from = new Date(Date.now() + 3 * 3_600_000).toISOString();
  const [slot] = (
    await apiGet<{ data: Slot[] }>(
      request,
      `api/appointments/free-slots?durationMinutes=${treatment.durationMinutes}&from=${encodeURIComponent(from)}&limit=1`,
    )
  ).data;
  expect(slot, 'the agenda has a free time').toBeTruthy();
  if (!slot) return;
  const reminders = (await apiGet<{ data: Record<string, unknown> }>(request, 'api/schedules/reminders')).data;
  const lead = await request.put(rootServer.url('api/schedules/reminders'), {
    headers,
    data: { ...reminders, reminderLeadMinutes: 7 * 24 * 60 },
  });
  expect(lead.status(), await lead.text()).toBe(200);
  // Whatever the hour of the run: no quiet hours for this test (restored after).
  const messaging = (
    await apiGet<{ data: { reminderChannels: string[]; quietHours: unknown } }>(request, 'api/settings/messaging')
  ).data;
  const awake = await request.put(rootServer.url('api/settings/messaging'), {
    headers,
    data: { reminderChannels: messaging.reminderChannels, quietHours: null },
  });
  expect(awake.status(), await awake.text()).toBe(200);
  try {
    const booked = await request.post(rootServer.url('api/appointments'), {
      headers,
      data: {
        patientId: reminded,
        professionalId: slot.professionalId,
        treatmentId: treatment.id,
        startsAt: slot.startsAt,
        endsAt: slot.endsAt,
      },
    });
    expect(booked.status(), await booked.text()).toBe(201);
    const appointment = ((await booked.json()) as { data: { id: string } }).data;
    const entry = await request.post(rootServer.url('api/waiting-list'), {
      headers,
      data: { patientId: waiting, treatmentId: treatment.id, professionalId: slot.professionalId, priority: 'high' },
    });
    expect(entry.status(), await entry.text()).toBe(201);

    // The reminder leaves by WhatsApp, as the approved template; the patient answers "2".
    const reminder = await sentTo(request, ana.digits, (message) => message.template !== null);
    expect(reminder.template?.name).toBe('odontia_appointment_reminder');
    expect(await whatsappReply(request, ana.digits, '2')).toBe(200);

    // The agenda shows it cancelled by the patient.
    await signInPage(page, demoUsers.administrator);
    const day = clinicWallTime(slot.startsAt, demoTimeZone).slice(0, 10);
    await page.goto(`/calendar?date=${day}&view=day&open=${appointment.id}`);
    await settle(page);
    const details = page.getByTestId('appointment-dialog');
    await expect(details.getByTestId('appointment-status-row')).toContainText('Cancelada');
    await expect(details.getByTestId('appointment-reminder')).toContainText('Cancelada por el paciente');
    await checkScreen(page, 'an appointment cancelled by a WhatsApp reply', 'whatsapp-reply-cancelled');

    // The first patient waiting for that time is offered it by WhatsApp, with the offer's link.
    const offer = await sentTo(request, bea.digits, (message) =>
      JSON.stringify(message).includes('/waiting-list/offer/'),
    );
    const link = /\/waiting-list\/offer\/[A-Za-z0-9_-]+/.exec(JSON.stringify(offer))?.[0];
    expect(link).toBeTruthy();
    const phone = await browser.newContext({
      locale: 'es-ES',
      timezoneId: demoTimeZone,
      viewport: { width: 390, height: 844 },
    });
    const bea390 = await phone.newPage();
    await bea390.goto(rootServer.url(link ?? ''));
    await expect(bea390.getByRole('heading', { name: 'Bea, se ha liberado un horario para usted' })).toBeVisible();
    await bea390.getByRole('button', { name: 'Aceptar' }).dblclick();
    await expect(bea390.getByRole('heading', { name: 'Cita reservada' })).toBeVisible();
    await phone.close();

    // The agenda holds Bea's appointment at that time.
    const [booking] = (
      await apiGet<{ data: { appointmentId: string | null }[] }>(
        request,
        `api/waiting-list?status=booked&patientId=${waiting}`,
      )
    ).data;
    expect(booking?.appointmentId).toBeTruthy();
    await page.goto(`/calendar?date=${day}&view=day&open=${booking?.appointmentId}`);
    await settle(page);
    await expect(page.getByTestId('appointment-dialog').getByRole('heading')).toContainText(`Bea WhatsApp ${name}`);
    await expect(page.getByTestId('appointment-status')).toHaveText('Programada');
  } finally {
    await request.put(rootServer.url('api/schedules/reminders'), { headers, data: reminders });
    await request.put(rootServer.url('api/settings/messaging'), {
      headers,
      data: { reminderChannels: messaging.reminderChannels, quietHours: messaging.quietHours },
    });
  }
});
