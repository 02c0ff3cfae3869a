import type { Language } from '@odontia/shared/enums';
import type { MessageChannel, MessageKind, ProviderChannel, TemplateKind } from '@odontia/shared/schemas/messages';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { sendInOrder } from '../../db/indexed-search.ts';
import {
  accounts,
  appointments,
  messages,
  messageTemplates,
  messagingChannels,
  patientChannelConsents,
  patients,
} from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newId } from '../../lib/ids.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { enqueueJob } from '../jobs/jobs.repository.ts';
import { DeferJob, type JobContext, type JobHandler } from '../jobs/jobs.worker.ts';
import { mobileNumber, nextSendingInstant, type QuietHours } from './message-rules.ts';
import {
  builtInText,
  builtInWhatsappTemplates,
  type PlaceholderValues,
  renderTemplate,
  templateParameters,
  whatsappLanguageCodes,
} from './message-texts.ts';
import { type ProviderAccount, twilioSms, whatsappCloud } from './providers.ts';

/**
 * The outbox of SMS and WhatsApp messages (issue 38). A message is a `messages` row written in the
 * transaction that decides it (the reminder's, the offer's), with a `message_send` job for it. The
 * job sends it exactly once:
 *
 * 1. `prepare` COMMITS `sending` (and the attempt) before the provider is called;
 * 2. `run` calls the provider and records its id and `sent` in the job's transaction;
 * 3. a run killed between the two leaves `sending`: the next attempt first asks the provider
 *    whether it already has the message (SMS: its message list, matched on number and text;
 *    WhatsApp: the delivery report that carries our id) and only sends when it does not.
 *
 * Quiet hours, consent, an inactive or deceased patient and a changed appointment are checked when
 * the message leaves, not only when it was planned.
 */

export const messageSendJobKind = 'message_send';

type Clinic = { tx: TenantTx; accountId: string };

/** A patient as the outbox needs them. */
export interface MessagePatient {
  id: string;
  email: string | null;
  phoneArea: string | null;
  phone: string | null;
  language: Language;
  active: boolean;
  deceasedOn: string | null;
}

export interface ClinicMessaging {
  reminderChannels: MessageChannel[];
  quietHours: QuietHours | null;
  timeZone: string;
  /** The provider channels configured and on. */
  enabled: Set<ProviderChannel>;
}

/** The clinic's settings and its channels switched on, in one statement (every reminder and message reads them). */
export async function clinicMessaging({ tx, accountId }: Clinic): Promise<ClinicMessaging> {
  const [clinic] = await tx
    .select({
      reminderChannels: accounts.reminderChannels,
      quietHoursStart: accounts.quietHoursStart,
      quietHoursEnd: accounts.quietHoursEnd,
      timeZone: accounts.timeZone,
      enabled: sql<string[]>`array(select ${messagingChannels.channel} from ${messagingChannels}
        where ${messagingChannels.accountId} = ${accounts.id} and ${messagingChannels.enabled})`,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return {
    reminderChannels: (clinic?.reminderChannels ?? ['email']) as MessageChannel[],
    quietHours:
      clinic?.quietHoursStart != null && clinic.quietHoursEnd != null
        ? { start: clinic.quietHoursStart, end: clinic.quietHoursEnd }
        : null,
    timeZone: clinic?.timeZone ?? 'UTC',
    enabled: new Set((clinic?.enabled ?? []) as ProviderChannel[]),
  };
}

/** The patient's newest answer per channel (null: never asked). */
export async function consentsOf({ tx, accountId }: Clinic, patientId: string): Promise<Map<MessageChannel, boolean>> {
  const rows = await tx
    .selectDistinctOn([patientChannelConsents.channel], {
      channel: patientChannelConsents.channel,
      granted: patientChannelConsents.granted,
    })
    .from(patientChannelConsents)
    .where(and(eq(patientChannelConsents.accountId, accountId), eq(patientChannelConsents.patientId, patientId)))
    .orderBy(patientChannelConsents.channel, desc(patientChannelConsents.recordedAt));
  return new Map(rows.map((row) => [row.channel as MessageChannel, row.granted]));
}

/** Why no message may reach a patient at all (null: one may). */
export function unreachable(patient: MessagePatient): 'inactive' | 'deceased' | null {
  if (patient.deceasedOn) return 'deceased';
  if (!patient.active) return 'inactive';
  return null;
}

/** Where a channel's message to the patient goes, when it may: e-mail unless refused, SMS and WhatsApp only with a yes. */
export function addressFor(
  patient: MessagePatient,
  channel: MessageChannel,
  consents: Map<MessageChannel, boolean>,
  clinic: ClinicMessaging,
): string | null {
  if (unreachable(patient)) return null;
  if (channel === 'email') return consents.get('email') === false ? null : patient.email;
  if (!clinic.enabled.has(channel) || consents.get(channel) !== true) return null;
  return mobileNumber(patient.phoneArea, patient.phone);
}

/** The first of `order` that reaches the patient, with its address. */
export function chooseChannel(
  patient: MessagePatient,
  order: readonly MessageChannel[],
  consents: Map<MessageChannel, boolean>,
  clinic: ClinicMessaging,
): { channel: MessageChannel; address: string } | null {
  for (const channel of order) {
    const address = addressFor(patient, channel, consents, clinic);
    if (address) return { channel, address };
  }
  return null;
}

/** Whether any of the clinic's channels reaches the patient now (a manual offer asks before holding a slot). */
export async function patientReachable(ctx: Clinic, patientId: string): Promise<boolean> {
  const [row] = await ctx.tx
    .select({
      id: patients.id,
      email: patients.email,
      phoneArea: patients.phoneArea,
      phone: patients.phone,
      language: patients.language,
      active: patients.active,
      deceasedOn: patients.deceasedOn,
    })
    .from(patients)
    .where(and(eq(patients.accountId, ctx.accountId), eq(patients.id, patientId)));
  if (!row) return false;
  const clinic = await clinicMessaging(ctx);
  const patient = { ...row, language: languageOf(row.language) };
  return chooseChannel(patient, clinic.reminderChannels, await consentsOf(ctx, patientId), clinic) !== null;
}

/** The clinic's text for a kind, channel and language, or the built-in one. */
export async function templateFor(
  { tx, accountId }: Clinic,
  key: { kind: TemplateKind; channel: ProviderChannel; language: Language },
): Promise<{ body: string; whatsappTemplate: string }> {
  const [own] = await tx
    .select({ body: messageTemplates.body, whatsappTemplate: messageTemplates.whatsappTemplate })
    .from(messageTemplates)
    .where(
      and(
        eq(messageTemplates.accountId, accountId),
        eq(messageTemplates.kind, key.kind),
        eq(messageTemplates.channel, key.channel),
        eq(messageTemplates.language, key.language),
      ),
    );
  return {
    body: own?.body ?? builtInText(key.kind, key.language),
    whatsappTemplate: own?.whatsappTemplate ?? builtInWhatsappTemplates[key.kind],
  };
}

export interface NewProviderMessage {
  patientId: string | null;
  appointmentId?: string | null;
  kind: MessageKind;
  channel: ProviderChannel;
  to: string;
  language: Language;
  /** A templated kind's text and parameters; an answer's or a confirmation's own text. */
  text: { kind: TemplateKind; values: PlaceholderValues } | { body: string };
  createdBy?: string | null;
  inReplyTo?: string | null;
  /** Not before (quiet hours are applied on top). */
  runAt?: Date;
}

/** Writes the message and its send job in the caller's transaction; answers its id. */
export async function queueProviderMessage(ctx: Clinic, message: NewProviderMessage): Promise<string> {
  const id = newId();
  let body: string;
  let templateName: string | null = null;
  let templateParams: string[] | null = null;
  if ('kind' in message.text) {
    const template = await templateFor(ctx, {
      kind: message.text.kind,
      channel: message.channel,
      language: message.language,
    });
    body = renderTemplate(message.text.kind, template.body, message.text.values);
    if (message.channel === 'whatsapp') {
      templateName = template.whatsappTemplate;
      templateParams = templateParameters(message.text.kind, message.text.values);
    }
  } else {
    body = message.text.body;
  }
  // The row and its job in one round trip (sendInOrder pipelines on PostgreSQL).
  await sendInOrder(ctx.tx, [
    () =>
      ctx.tx.insert(messages).values({
        accountId: ctx.accountId,
        id,
        patientId: message.patientId,
        appointmentId: message.appointmentId ?? null,
        kind: message.kind,
        channel: message.channel,
        toAddress: message.to,
        language: message.language,
        body,
        templateName,
        templateParams,
        createdBy: message.createdBy ?? null,
        inReplyTo: message.inReplyTo ?? null,
      }),
    () =>
      enqueueJob(ctx, {
        kind: messageSendJobKind,
        key: id,
        runAt: message.runAt ?? new Date(),
        payload: { messageId: id },
        maxAttempts: 5,
      }),
  ]);
  return id;
}

/** An e-mail already sent, on the same log (its delivery is the SMTP server's answer); answers its opt-out token. */
export async function logEmail(
  ctx: Clinic,
  message: {
    patientId: string;
    appointmentId?: string | null;
    kind: MessageKind;
    to: string;
    language: Language;
    body: string;
  },
): Promise<string> {
  const token = newToken();
  await ctx.tx.insert(messages).values({
    accountId: ctx.accountId,
    id: newId(),
    patientId: message.patientId,
    appointmentId: message.appointmentId ?? null,
    kind: message.kind,
    channel: 'email',
    toAddress: message.to,
    language: message.language,
    body: message.body.slice(0, 4000),
    status: 'sent',
    attempts: 1,
    sentAt: new Date(),
    optOutTokenHash: hashToken(token),
  });
  return token;
}

/** A provider account with its secrets unsealed (null: not configured or switched off). */
export async function providerAccount(
  { tx, accountId }: Clinic,
  channel: ProviderChannel,
  sealer: Sealer,
): Promise<(ProviderAccount & { webhookKey: string }) | null> {
  const [row] = await tx
    .select()
    .from(messagingChannels)
    .where(and(eq(messagingChannels.accountId, accountId), eq(messagingChannels.channel, channel)));
  if (!row?.enabled) return null;
  return {
    apiUrl: row.apiUrl,
    accountRef: row.accountRef,
    sender: row.sender,
    secret: sealer.unseal(row.secretSealed),
    webhookKey: row.webhookKey,
  };
}

async function lockMessage({ tx, accountId }: Clinic, id: string) {
  const [row] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.accountId, accountId), eq(messages.id, id)))
    .for('update');
  return row;
}

type Prepared = { interrupted: boolean; since: Date | null } | { done: true };

const finished = ['sent', 'delivered', 'read', 'failed', 'cancelled'];

/** Whether the message is still worth sending: a reminder's appointment still scheduled and to come. */
async function stillWanted(ctx: Clinic, message: typeof messages.$inferSelect): Promise<boolean> {
  if (message.kind !== 'appointment_reminder' || !message.appointmentId) return true;
  const [appointment] = await ctx.tx
    .select({ status: appointments.status, deletedAt: appointments.deletedAt, startsAt: appointments.startsAt })
    .from(appointments)
    .where(and(eq(appointments.accountId, ctx.accountId), eq(appointments.id, message.appointmentId)));
  return (
    appointment?.status === 'scheduled' && appointment.deletedAt === null && appointment.startsAt.getTime() > Date.now()
  );
}

async function setMessage(ctx: Clinic, id: string, values: Partial<typeof messages.$inferInsert>) {
  await ctx.tx
    .update(messages)
    .set(values)
    .where(and(eq(messages.accountId, ctx.accountId), eq(messages.id, id)));
}

/** A reminder that left: the appointment says so, and the audit trail (the e-mail's path does the same). */
async function reminderSent(ctx: Clinic, message: typeof messages.$inferSelect, attempts: number) {
  if (message.kind !== 'appointment_reminder' || !message.appointmentId) return;
  await ctx.tx
    .update(appointments)
    .set({ reminderState: 'sent', reminderSentAt: sql`now()`, reminderError: null })
    .where(
      and(
        eq(appointments.accountId, ctx.accountId),
        eq(appointments.id, message.appointmentId),
        inArray(appointments.reminderState, ['planned', 'failed']),
      ),
    );
  await recordAuditEvent(ctx.tx, {
    accountId: ctx.accountId,
    userId: null,
    patientId: message.patientId,
    action: 'appointment_reminder_sent',
    entity: 'appointment',
    entityId: message.appointmentId,
    after: { to: message.toAddress, channel: message.channel, attempts },
  });
}

export const reminderFailedByMessage = 'The reminder message could not be sent';

export function messageSendHandler(deps: { sealer: Sealer; publicUrl: string }): JobHandler {
  const statusCallback = (webhookKey: string, channel: ProviderChannel, messageId: string) =>
    `${deps.publicUrl}api/webhooks/${channel}/${webhookKey}/status?m=${messageId}`;

  return {
    async prepare(ctx, job): Promise<Prepared> {
      const id = String(job.payload.messageId ?? job.key);
      // The message and the clinic's quiet hours in one round trip.
      const [message, clinic] = await sendInOrder(ctx.tx, [() => lockMessage(ctx, id), () => clinicMessaging(ctx)]);
      if (!message || finished.includes(message.status)) return { done: true };
      if (message.channel !== 'email' && message.kind !== 'answer' && message.kind !== 'opt_out_confirmation') {
        const at = nextSendingInstant(new Date(), clinic.timeZone, clinic.quietHours);
        if (at.getTime() > Date.now()) throw new DeferJob(at);
      }
      const interrupted = message.status === 'sending';
      await setMessage(ctx, id, {
        status: 'sending',
        sendingSince: interrupted ? message.sendingSince : new Date(),
        attempts: message.attempts + 1,
      });
      return { interrupted, since: message.sendingSince };
    },

    async run(ctx, job, prepared) {
      const state = prepared as Prepared;
      if ('done' in state) return;
      const id = String(job.payload.messageId ?? job.key);
      const message = await lockMessage(ctx, id);
      if (!message || finished.includes(message.status)) return; // a delivery report got here first
      const channel = message.channel as ProviderChannel;
      // Both reads in one round trip.
      const [wanted, account] = await sendInOrder(ctx.tx, [
        () => stillWanted(ctx, message),
        () => providerAccount(ctx, channel, deps.sealer),
      ]);
      if (!wanted) {
        await setMessage(ctx, id, { status: 'cancelled', sendingSince: null });
        return;
      }
      if (!account) {
        await setMessage(ctx, id, {
          status: 'failed',
          failedAt: new Date(),
          errorCode: 'channel_off',
          error: 'The channel is not configured or is switched off',
        });
        return;
      }
      // An earlier attempt died waiting for the provider: does the provider have it already?
      if (state.interrupted && channel === 'sms') {
        const known = await twilioSms.find(account, {
          to: message.toAddress,
          body: message.body,
          since: state.since ?? message.createdAt,
        });
        if (known) {
          await setMessage(ctx, id, { status: 'sent', providerMessageId: known, sentAt: new Date(), error: null });
          await reminderSent(ctx, message, message.attempts);
          return;
        }
      }
      const sender = channel === 'sms' ? twilioSms : whatsappCloud;
      const outcome = await sender.send(account, {
        messageId: id,
        to: message.toAddress,
        body: message.body,
        template:
          message.templateName && message.templateParams
            ? {
                name: message.templateName,
                language: whatsappLanguageCodes[message.language as Language] ?? 'es',
                parameters: message.templateParams,
              }
            : null,
        statusCallback: statusCallback(account.webhookKey, channel, id),
      });
      if (outcome.ok) {
        // The message and its reminder's record written together (one round trip for the first two statements).
        await sendInOrder(ctx.tx, [
          () =>
            setMessage(ctx, id, {
              status: 'sent',
              providerMessageId: outcome.providerId,
              sentAt: new Date(),
              error: null,
              errorCode: null,
            }),
          () => reminderSent(ctx, message, message.attempts),
        ]);
        return;
      }
      await setMessage(ctx, id, {
        status: outcome.retry ? 'queued' : 'failed',
        sendingSince: null,
        errorCode: outcome.code,
        error: outcome.error,
        ...(outcome.retry ? {} : { failedAt: new Date() }),
      });
      if (!outcome.retry) {
        await reminderFailed(ctx, message);
        return;
      }
      return { retry: `${channel} provider: ${outcome.code} ${outcome.error}` };
    },

    async onFailed(ctx, job) {
      const id = String(job.payload.messageId ?? job.key);
      const message = await lockMessage(ctx, id);
      if (!message || finished.includes(message.status)) return;
      await setMessage(ctx, id, { status: 'failed', failedAt: new Date(), sendingSince: null });
      await reminderFailed(ctx, message);
    },
  };
}

async function reminderFailed(ctx: Clinic, message: typeof messages.$inferSelect) {
  if (message.kind !== 'appointment_reminder' || !message.appointmentId) return;
  const [appointment] = await ctx.tx
    .update(appointments)
    .set({ reminderState: 'failed', reminderError: reminderFailedByMessage })
    .where(
      and(
        eq(appointments.accountId, ctx.accountId),
        eq(appointments.id, message.appointmentId),
        eq(appointments.reminderState, 'planned'),
      ),
    )
    .returning({ patientId: appointments.patientId });
  if (!appointment) return;
  await recordAuditEvent(ctx.tx, {
    accountId: ctx.accountId,
    userId: null,
    patientId: appointment.patientId,
    action: 'appointment_reminder_failed',
    entity: 'appointment',
    entityId: message.appointmentId,
    after: { channel: message.channel, error: message.error ?? reminderFailedByMessage },
  });
}

/** The clinic context of a job (the same shape the services use). */
export type { JobContext };
