import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import {
  accounts,
  inboundMessages,
  messages,
  messagingChannels,
  patientChannelConsents,
  users,
} from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { type FakeMessagingProvider, startFakeMessagingProvider } from '../dev/fake-messaging-provider.ts';
import { mobileNumber } from '../features/messages/message-rules.ts';
import { newId } from '../lib/ids.ts';
import { createSealer, installationKey } from '../lib/secrets.ts';
import { newToken } from '../lib/tokens.ts';

/**
 * The demo's SMS and WhatsApp (issue 38). The clinic has both accounts, pointing at a local fake
 * provider that the server starts with the demo (`DEMO_MESSAGING`): reminders go by WhatsApp,
 * then SMS, then e-mail; the fake accepts them, reports delivery by signed webhooks and lets a
 * test (or a curious administrator) post a patient's reply. The seed adds consents, a short log
 * of past messages and two replies: one applied, one waiting in the inbox.
 */

/** The demo accounts' ids and secrets: only ever used against the local fake. */
export const demoMessaging = {
  twilio: {
    accountSid: 'ACdemo0000000000000000000000000000',
    authToken: 'demo-twilio-auth-token',
    number: '+541150000000',
  },
  whatsapp: {
    phoneNumberId: '105000000000001',
    accessToken: 'demo-whatsapp-access-token',
    appSecret: 'demo-whatsapp-app-secret',
    sender: '+541150000001',
  },
};

const unsetUrl = 'http://127.0.0.1:9';

/** In the seed's transaction: the accounts (their address set at start-up), consents, a log and replies. */
export async function seedDemoMessaging(
  tx: TenantTx,
  accountId: string,
  people: { administratorId: string },
  seal: (secret: string) => string,
): Promise<void> {
  await tx
    .update(accounts)
    .set({ reminderChannels: ['whatsapp', 'sms', 'email'] })
    .where(eq(accounts.id, accountId));
  await tx.insert(messagingChannels).values([
    {
      accountId,
      channel: 'sms',
      enabled: true,
      apiUrl: unsetUrl,
      accountRef: demoMessaging.twilio.accountSid,
      sender: demoMessaging.twilio.number,
      secretSealed: seal(demoMessaging.twilio.authToken),
      webhookKey: newToken(),
      updatedBy: people.administratorId,
    },
    {
      accountId,
      channel: 'whatsapp',
      enabled: true,
      apiUrl: unsetUrl,
      accountRef: demoMessaging.whatsapp.phoneNumberId,
      sender: demoMessaging.whatsapp.sender,
      secretSealed: seal(demoMessaging.whatsapp.accessToken),
      webhookSecretSealed: seal(demoMessaging.whatsapp.appSecret),
      webhookKey: newToken(),
      updatedBy: people.administratorId,
    },
  ]);
  const patients = (
    await tx.execute<{ id: string; first_name: string; phone_area: string | null; phone: string | null }>(
      sql`select id, first_name, phone_area, phone from patients
          where account_id = ${accountId} and deleted_at is null and active and phone is not null
          order by last_name, first_name`,
    )
  ).rows;
  const now = Date.now();
  const ago = (hours: number) => new Date(now - hours * 3_600_000);
  // Two of every three patients said yes to WhatsApp at the desk; every fourth to SMS; one said BAJA.
  for (const [index, patient] of patients.entries()) {
    const consent = (channel: 'sms' | 'whatsapp', granted: boolean, source: 'staff' | 'reply', hours: number) =>
      tx.insert(patientChannelConsents).values({
        accountId,
        id: newId(),
        patientId: patient.id,
        channel,
        granted,
        source,
        note: source === 'staff' ? 'Lo pidió en recepción' : null,
        recordedAt: ago(hours),
        recordedBy: source === 'staff' ? people.administratorId : null,
      });
    if (index % 3 !== 2) await consent('whatsapp', true, 'staff', 24 * 40 + index);
    if (index % 4 === 0) await consent('sms', true, 'staff', 24 * 40 + index);
  }
  const [first, second, third] = patients;
  if (!first || !second || !third) return;
  const to = (patient: { phone_area: string | null; phone: string | null }) =>
    mobileNumber(patient.phone_area, patient.phone) ?? '+5491100000000';
  const logged = async (
    patient: { id: string; first_name: string; phone_area: string | null; phone: string | null },
    row: { hours: number; status: 'delivered' | 'read' | 'failed'; body: string },
  ) => {
    const id = newId();
    await tx.insert(messages).values({
      accountId,
      id,
      patientId: patient.id,
      kind: 'appointment_reminder',
      channel: 'whatsapp',
      toAddress: to(patient),
      language: 'es',
      body: row.body,
      templateName: 'odontia_appointment_reminder',
      status: row.status,
      providerMessageId: `wamid.demo${id.replaceAll('-', '')}`,
      attempts: 1,
      createdAt: ago(row.hours),
      sentAt: ago(row.hours),
      deliveredAt: row.status === 'failed' ? null : ago(row.hours - 0.01),
      readAt: row.status === 'read' ? ago(row.hours - 0.5) : null,
      failedAt: row.status === 'failed' ? ago(row.hours) : null,
      errorCode: row.status === 'failed' ? '131026' : null,
      error: row.status === 'failed' ? 'undelivered' : null,
    });
    return id;
  };
  const text = (name: string) =>
    `Clínica Dental Sonrisa: le recordamos su cita con Laura Gómez. Responda 1 para confirmar o 2 para cancelar. BAJA: no recibir más mensajes. (${name})`;
  const confirmedBy = await logged(first, { hours: 30, status: 'read', body: text(first.first_name) });
  const asked = await logged(second, { hours: 20, status: 'delivered', body: text(second.first_name) });
  await logged(third, { hours: 50, status: 'failed', body: text(third.first_name) });
  await tx.insert(inboundMessages).values([
    {
      accountId,
      id: newId(),
      channel: 'whatsapp',
      providerMessageId: `wamid.demo-in-${newToken().slice(0, 16)}`,
      fromAddress: to(first),
      body: 'Sí',
      receivedAt: ago(29),
      patientId: first.id,
      messageId: confirmedBy,
      intent: 'confirm',
      outcome: 'no_appointment',
      handledAt: ago(28),
      handledBy: people.administratorId,
    },
    {
      accountId,
      id: newId(),
      channel: 'whatsapp',
      providerMessageId: `wamid.demo-in-${newToken().slice(0, 16)}`,
      fromAddress: to(second),
      body: 'Hola, ¿puedo ir con mi hijo también? Tiene dolor de muelas.',
      receivedAt: ago(2),
      patientId: second.id,
      messageId: asked,
      intent: 'unknown',
      outcome: 'inbox',
    },
  ]);
}

/**
 * At start-up: the local fake provider, and the demo clinic's accounts pointed at it (its address
 * changes with its port), its webhooks at this server. Nothing when the demo clinic is not here.
 */
export async function startDemoMessaging(
  db: Database,
  options: { port: number; publicUrl: string; secretsKey: string | undefined; dataDir: string },
): Promise<FakeMessagingProvider | null> {
  const demo = await db.withSystem(async (tx) => {
    const [row] = await tx
      .select({ accountId: users.accountId })
      .from(users)
      .where(eq(users.email, 'administrador@sonrisa.demo'))
      .limit(1);
    return row;
  });
  if (!demo) return null;
  const sealer = createSealer(installationKey({ secretsKey: options.secretsKey, dataDir: options.dataDir }));
  const fake = await startFakeMessagingProvider({ port: options.port });
  const channels = await db.withTenant(demo.accountId, async (tx) => {
    const rows = await tx
      .select()
      .from(messagingChannels)
      .where(
        and(
          eq(messagingChannels.accountId, demo.accountId),
          sql`${messagingChannels.accountRef} in (${demoMessaging.twilio.accountSid}, ${demoMessaging.whatsapp.phoneNumberId})`,
        ),
      );
    for (const row of rows) {
      await tx
        .update(messagingChannels)
        .set({ apiUrl: row.channel === 'whatsapp' ? `${fake.url}/v21.0` : fake.url })
        .where(and(eq(messagingChannels.accountId, demo.accountId), eq(messagingChannels.channel, row.channel)));
    }
    return rows;
  });
  for (const row of channels) {
    if (row.channel === 'sms') {
      fake.configureTwilio({
        accountSid: row.accountRef,
        authToken: sealer.unseal(row.secretSealed),
        number: row.sender,
        inboundUrl: `${options.publicUrl}api/webhooks/sms/${row.webhookKey}/inbound`,
      });
    } else if (row.webhookSecretSealed) {
      fake.configureWhatsapp({
        phoneNumberId: row.accountRef,
        accessToken: sealer.unseal(row.secretSealed),
        appSecret: sealer.unseal(row.webhookSecretSealed),
        webhookUrl: `${options.publicUrl}api/webhooks/whatsapp/${row.webhookKey}`,
      });
    }
  }
  return fake;
}
