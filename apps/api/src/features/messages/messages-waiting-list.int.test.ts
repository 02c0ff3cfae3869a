import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/free-port.ts';
import { addTreatment, bookingZone, openBookingClinic, wall } from '../../../test/online-booking.ts';
import { makeJobsDue } from '../../../test/reminders.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { type FakeMessagingProvider, startFakeMessagingProvider } from '../../dev/fake-messaging-provider.ts';
import { weekdayOf } from '../appointments/availability.ts';

/**
 * The scenario at the API (issue 38; the e2e spec does it through the screens): a patient
 * reminded by WhatsApp answers "2"; the appointment is cancelled by the patient, and the freed time
 * is offered, by WhatsApp with its link, to the first patient waiting for it, who takes it.
 */

const port = await freePort();
const wa = { phoneNumberId: '100200300400', accessToken: 'wa-token-scenario', appSecret: 'wa-secret-scenario' };

function nextTuesday(): string {
  let day = addDays(clinicToday(bookingZone), 7);
  while (weekdayOf(day) !== 'tuesday') day = addDays(day, 1);
  return day;
}

describe('WhatsApp reminder answered "2": the waiting list gets the slot', () => {
  const t = useTestClinic(undefined, { env: { PUBLIC_URL: `http://127.0.0.1:${port}/` } });
  let fake: FakeMessagingProvider;
  let cleaning: string;
  const runJobs = async () => {
    await makeJobsDue(t.db, t.clinic.accountId);
    while ((await t.app.jobs.runDue()) > 0);
    await fake.settled();
  };
  const withWhatsapp = async (firstName: string, phone: string) => {
    const id = await t.newPatient(undefined, { firstName, phoneArea: '+34', phone, language: 'es' });
    const consent = await t.call('POST', `/api/patients/${id}/channel-consents`, {
      body: { channel: 'whatsapp', granted: true, note: 'Lo pidió en recepción' },
    });
    expect(consent.statusCode, consent.body).toBe(201);
    return id;
  };

  beforeAll(async () => {
    await t.app.listen({ port, host: '127.0.0.1' });
    fake = await startFakeMessagingProvider({ callbackDelayMs: 5 });
    await openBookingClinic(t);
    cleaning = await addTreatment(t, 'Limpieza', 30);
    await t.db.orm.execute(
      sql`update accounts set reminder_channels = '{whatsapp,email}', quiet_hours_start = null, quiet_hours_end = null where id = ${t.clinic.accountId}`,
    );
    const saved = await t.call('PUT', '/api/settings/messaging/whatsapp', {
      body: {
        enabled: true,
        apiUrl: `${fake.url}/v21.0`,
        accountRef: wa.phoneNumberId,
        sender: '+34910000000',
        secret: wa.accessToken,
        webhookSecret: wa.appSecret,
        version: null,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    fake.configureWhatsapp({ ...wa, webhookUrl: saved.json().data.channels[0].statusWebhookUrl });
  });
  afterAll(async () => fake?.stop());

  it('the reply cancels, the first waiting patient is offered the time and takes it', async () => {
    const start = wall(`${nextTuesday()}T10:00`);
    const ana = await withWhatsapp('Ana', '600 111 222');
    const bea = await withWhatsapp('Bea', '600 333 444');
    const appointment = await t.created<{ id: string }>('/api/appointments', {
      body: {
        patientId: ana,
        professionalId: t.clinic.userId,
        treatmentId: cleaning,
        startsAt: start.toISOString(),
        endsAt: new Date(start.getTime() + 30 * 60_000).toISOString(),
      },
    });
    const entry = await t.created<{ id: string }>('/api/waiting-list', {
      body: { patientId: bea, treatmentId: cleaning },
    });
    await runJobs(); // the reminder leaves now: the appointment is within the lead time once due
    const reminder = fake.sent.find((message) => message.to === '34600111222');
    expect(reminder?.template?.name).toBe('odontia_appointment_reminder');

    expect(await fake.whatsappReply({ phoneNumberId: wa.phoneNumberId, from: '34600111222', body: '2' })).toBe(200);
    const cancelled = (await t.call('GET', `/api/appointments/${appointment.id}`)).json().data;
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelReason: 'patient_request' });

    await runJobs(); // the offer goes out by WhatsApp, inside the hold
    const offer = fake.sent.find((message) => message.to === '34600333444');
    expect(offer).toBeDefined();
    const token = /waiting-list\/offer\/([A-Za-z0-9_-]+)/.exec(JSON.stringify(offer))?.[1];
    expect(token).toBeDefined();
    const accepted = await t.call('POST', `/api/public/waiting-list-offers/${token}`, { token: null });
    expect(accepted.json()).toMatchObject({ data: { state: 'accepted' } });
    expect((await t.call('GET', `/api/waiting-list/${entry.id}`)).json().data.status).toBe('booked');
    const log = (await t.call('GET', `/api/messages?patientId=${bea}`)).json().data;
    expect(log[0]).toMatchObject({ kind: 'waiting_list_offer', channel: 'whatsapp', status: 'delivered' });
  });
});
