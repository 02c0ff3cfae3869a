import { createHmac } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import { bearer, createTestClinic, type TestClinic } from '../../../test/clinics.ts';
import { freePort } from '../../../test/free-port.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { appointmentRow, bookAppointment, hoursFromNow, makeJobsDue } from '../../../test/reminders.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { accounts, inboundMessages, messages, messagingChannels } from '../../db/schema/index.ts';
import { type FakeMessagingProvider, startFakeMessagingProvider } from '../../dev/fake-messaging-provider.ts';

/**
 * SMS and WhatsApp reminders through the local fake provider (issue 38): the clinic's accounts
 * (secrets never answered), a reminder by WhatsApp as a template, delivery reports signed and
 * replayed (kept once) or forged (403, nothing changes), a reply "2" that cancels the appointment,
 * "BAJA" that records the patient's no, an unknown reply in the inbox, quiet hours, and a send
 * interrupted after the provider took it that is not sent twice.
 */

const twilio = {
  accountSid: 'AC0123456789abcdef0123456789abcdef',
  authToken: 'twilio-auth-token-1',
  number: '+15005550006',
};
const whatsapp = { phoneNumberId: '109876543210', accessToken: 'wa-access-token-1', appSecret: 'wa-app-secret-1' };
const mobile = { phoneArea: '+54', phone: '11 4000 1234' };
const e164 = '+541140001234';

describe('messages by SMS and WhatsApp', () => {
  let fake: FakeMessagingProvider;
  let testApp: TestApp;
  let clinic: TestClinic;
  let smsInboundUrl = '';
  const mailer = new MemoryMailer();

  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
    testApp.app.inject({ method, url, headers: bearer(clinic.token), ...(payload === undefined ? {} : { payload }) });
  const run = () => testApp.app.jobs.runDue();
  const messagesOf = (appointmentId: string) =>
    testApp.db.withTenant(clinic.accountId, (tx) =>
      tx
        .select()
        .from(messages)
        .where(and(eq(messages.accountId, clinic.accountId), eq(messages.appointmentId, appointmentId))),
    );

  async function remindedPatient(channel: 'sms' | 'whatsapp', hours: number) {
    const patientId = await createTestPatient(testApp.app, clinic.token, mobile);
    const consent = await api('POST', `/api/patients/${patientId}/channel-consents`, { channel, granted: true });
    expect(consent.statusCode, consent.body).toBe(201);
    await testApp.db.withTenant(clinic.accountId, (tx) =>
      tx
        .update(accounts)
        .set({ reminderChannels: [channel, 'email'] })
        .where(eq(accounts.id, clinic.accountId)),
    );
    const appointmentId = await bookAppointment(testApp.db, {
      accountId: clinic.accountId,
      patientId,
      professionalId: clinic.userId,
      startsAt: hoursFromNow(hours),
    });
    await makeJobsDue(testApp.db, clinic.accountId);
    await run(); // the reminder: picks the channel, queues the message
    await run(); // the message: sent
    await fake.settled();
    return { patientId, appointmentId };
  }

  beforeAll(async () => {
    fake = await startFakeMessagingProvider({ callbackDelayMs: 5 });
    const port = await freePort();
    testApp = await createTestApp({ mailer, env: { PUBLIC_URL: `http://127.0.0.1:${port}/` } });
    await testApp.app.listen({ port, host: '127.0.0.1' });
    clinic = await createTestClinic(testApp.app, mailer);
    await testApp.db.withTenant(clinic.accountId, (tx) =>
      tx.update(accounts).set({ quietHoursStart: null, quietHoursEnd: null }).where(eq(accounts.id, clinic.accountId)),
    );
    const sms = await api('PUT', '/api/settings/messaging/sms', {
      enabled: true,
      apiUrl: fake.url,
      accountRef: twilio.accountSid,
      sender: twilio.number,
      secret: twilio.authToken,
      version: null,
    });
    expect(sms.statusCode, sms.body).toBe(200);
    const wa = await api('PUT', '/api/settings/messaging/whatsapp', {
      enabled: true,
      apiUrl: `${fake.url}/v21.0`,
      accountRef: whatsapp.phoneNumberId,
      sender: '+15005550007',
      secret: whatsapp.accessToken,
      webhookSecret: whatsapp.appSecret,
      version: null,
    });
    expect(wa.statusCode, wa.body).toBe(200);
    const channels = wa.json().data.channels as {
      channel: string;
      statusWebhookUrl: string;
      inboundWebhookUrl: string;
    }[];
    const smsUrls = channels.find((row) => row.channel === 'sms');
    const waUrls = channels.find((row) => row.channel === 'whatsapp');
    smsInboundUrl = smsUrls?.inboundWebhookUrl ?? '';
    fake.configureTwilio({ ...twilio, inboundUrl: smsInboundUrl });
    fake.configureWhatsapp({ ...whatsapp, webhookUrl: waUrls?.statusWebhookUrl ?? '' });
  });

  afterAll(async () => {
    await testApp?.close();
    await fake?.stop();
  });

  it('keeps the secrets sealed and never answers them', async () => {
    const settings = await api('GET', '/api/settings/messaging');
    expect(settings.body).not.toContain(twilio.authToken);
    expect(settings.body).not.toContain(whatsapp.appSecret);
    expect(settings.json().data.channels).toEqual(
      expect.arrayContaining([expect.objectContaining({ channel: 'sms', hasSecret: true, enabled: true })]),
    );
    const [row] = await testApp.db.withTenant(clinic.accountId, (tx) =>
      tx.select().from(messagingChannels).where(eq(messagingChannels.accountId, clinic.accountId)),
    );
    expect(row?.secretSealed).toMatch(/^v1\./);
    expect(row?.secretSealed).not.toContain('token');
  });

  it('reminds by WhatsApp with a template; delivery reports move the message on, a replay changes nothing', async () => {
    const { appointmentId } = await remindedPatient('whatsapp', 26);
    const sent = fake.sent.filter((message) => message.to === e164.slice(1) || message.to === e164);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.template?.name).toBe('odontia_appointment_reminder');
    const [message] = await messagesOf(appointmentId);
    expect(message).toMatchObject({ channel: 'whatsapp', status: 'delivered', toAddress: e164 });
    expect((await appointmentRow(testApp.db, clinic.accountId, appointmentId)).reminderState).toBe('sent');
    // The provider's last report, posted again: accepted, nothing new.
    const last = fake.callbacks.filter((callback) => callback.body.includes(message?.providerMessageId ?? '?')).at(-1);
    const replay = await fetch(last?.url ?? '', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${createHmac('sha256', whatsapp.appSecret)
          .update(last?.body ?? '')
          .digest('hex')}`,
      },
      body: last?.body ?? '',
    });
    expect(replay.status).toBe(200);
    // A forged one (signed with another secret) says "read": refused, the message stays delivered.
    const forged = (last?.body ?? '').replace('"delivered"', '"read"');
    const refused = await fetch(last?.url ?? '', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${createHmac('sha256', 'not-the-secret').update(forged).digest('hex')}`,
      },
      body: forged,
    });
    expect(refused.status).toBe(403);
    expect((await messagesOf(appointmentId))[0]?.status).toBe('delivered');
  });

  it('a reply "2" cancels the reminded appointment; "BAJA" records the no; other words wait in the inbox', async () => {
    const { patientId, appointmentId } = await remindedPatient('sms', 32);
    expect(fake.sent.some((message) => message.channel === 'sms' && message.to === e164)).toBe(true);
    expect(await fake.smsReply({ accountSid: twilio.accountSid, from: e164, body: ' 2 ' })).toBe(200);
    const appointment = await appointmentRow(testApp.db, clinic.accountId, appointmentId);
    expect(appointment).toMatchObject({ status: 'cancelled', reminderState: 'cancelled_by_patient' });
    expect(await fake.smsReply({ accountSid: twilio.accountSid, from: e164, body: '¿Puedo ir más tarde?' })).toBe(200);
    const inbox = await api('GET', '/api/inbox');
    expect(inbox.json().data[0]).toMatchObject({ body: '¿Puedo ir más tarde?', intent: 'unknown', patientId });
    expect(await fake.smsReply({ accountSid: twilio.accountSid, from: e164, body: 'Baja' })).toBe(200);
    const consents = await api('GET', `/api/patients/${patientId}/channel-consents`);
    expect(consents.json().data.current).toEqual(
      expect.arrayContaining([expect.objectContaining({ channel: 'sms', granted: false })]),
    );
    // Answered from the inbox on the same channel.
    const item = inbox.json().data[0] as { id: string; version: number };
    const answer = await api('POST', `/api/inbox/${item.id}/answer`, {
      body: 'Sí, le esperamos a las 11.',
      version: item.version,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    // A number no record has: in the inbox as an unknown sender, answered, and the log still lists it.
    expect(
      await fake.smsReply({ accountSid: twilio.accountSid, from: '+34600999888', body: 'Hola, ¿abren el sábado?' }),
    ).toBe(200);
    const stranger = (await api('GET', '/api/inbox')).json().data[0] as {
      id: string;
      version: number;
      outcome: string;
    };
    expect(stranger.outcome).toBe('unknown_sender');
    const answered = await api('POST', `/api/inbox/${stranger.id}/answer`, {
      body: 'Sí, de 9 a 13.',
      version: stranger.version,
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const log = await api('GET', '/api/messages');
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().data[0]).toMatchObject({ kind: 'answer', patientId: null, patientName: '+34600999888' });
    // A forged inbound post (wrong signature) is refused and kept nowhere.
    const before = await testApp.db.withTenant(clinic.accountId, (tx) => tx.select().from(inboundMessages));
    const forged = await fetch(smsInboundUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'bm9wZQ==' },
      body: 'From=%2B541140001234&Body=2&MessageSid=SMforged',
    });
    expect(forged.status).toBe(403);
    const after = await testApp.db.withTenant(clinic.accountId, (tx) => tx.select().from(inboundMessages));
    expect(after).toHaveLength(before.length);
  });

  it('waits for the end of the quiet hours', async () => {
    await testApp.db.withTenant(clinic.accountId, (tx) =>
      tx.update(accounts).set({ quietHoursStart: 0, quietHoursEnd: 1439 }).where(eq(accounts.id, clinic.accountId)),
    );
    await run(); // what was queued before (answers are not held by quiet hours)
    await fake.settled();
    const sentBefore = fake.sent.length;
    const { appointmentId } = await remindedPatient('whatsapp', 40);
    expect(fake.sent.length).toBe(sentBefore);
    expect((await messagesOf(appointmentId))[0]?.status).toBe('queued');
    await testApp.db.withTenant(clinic.accountId, (tx) =>
      tx.update(accounts).set({ quietHoursStart: null, quietHoursEnd: null }).where(eq(accounts.id, clinic.accountId)),
    );
  });

  it('a send cut off after the provider took it is found at the provider, not sent twice', async () => {
    const patientId = await createTestPatient(testApp.app, clinic.token, { phoneArea: '+54', phone: '11 4000 9999' });
    await api('POST', `/api/patients/${patientId}/channel-consents`, { channel: 'sms', granted: true });
    await testApp.db.withTenant(clinic.accountId, (tx) =>
      tx
        .update(accounts)
        .set({ reminderChannels: ['sms'] })
        .where(eq(accounts.id, clinic.accountId)),
    );
    const appointmentId = await bookAppointment(testApp.db, {
      accountId: clinic.accountId,
      patientId,
      professionalId: clinic.userId,
      startsAt: hoursFromNow(56),
    });
    await makeJobsDue(testApp.db, clinic.accountId);
    await run(); // queues the message
    // The message's first attempt: "sending" committed, then the process "dies" waiting for the answer.
    const [message] = await messagesOf(appointmentId);
    await testApp.db.withTenant(clinic.accountId, (tx) =>
      tx
        .update(messages)
        .set({ status: 'sending', sendingSince: new Date(Date.now() - 1000), attempts: 1 })
        .where(eq(messages.id, message?.id ?? '')),
    );
    // What the dead attempt got out: the provider has it.
    await fake.settled();
    fake.fail({ kind: 'hold', ms: 60_000 });
    const took = await fetch(`${fake.url}/2010-04-01/Accounts/${twilio.accountSid}/Messages.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ To: '+541140009999', From: twilio.number, Body: message?.body ?? '' }).toString(),
      signal: AbortSignal.timeout(500),
    }).catch(() => null);
    expect(took).toBeNull(); // held: the answer never came
    await new Promise((resolve) => setTimeout(resolve, 200)); // the provider counts it as sent
    await run(); // the retry asks the provider first
    const sentTo = fake.sent.filter((sent) => sent.to === '+541140009999');
    expect(sentTo).toHaveLength(1);
    expect((await messagesOf(appointmentId))[0]).toMatchObject({ status: 'sent', providerMessageId: sentTo[0]?.id });
  });
});
