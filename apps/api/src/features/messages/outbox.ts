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
import { textArray } from '../../db/sql-arrays.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newId } from '../../lib/ids.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { recordAuditEvent, recordAuditEvents } from '../audit/audit.repository.ts';
import { enqueueJobs } from '../jobs/jobs.repository.ts';
import { type ClaimedJob, DeferJob, type JobContext, type JobHandler, type JobRetry } from '../jobs/jobs.worker.ts';
import { mobileNumber, nextSendingInstant, type QuietHours } from './message-rules.ts';
import {
  builtInText,
  builtInWhatsappTemplates,
  type PlaceholderValues,
  renderTemplate,
  templateParameters,
  whatsappLanguageCodes,
} from './message-texts.ts';
import { type ProviderAccount, type SendOutcome, twilioSms, whatsappCloud } from './providers.ts';

/**
 * The outbox of SMS and WhatsApp messages (issue 38). A message is a `messages` row written in the
 * transaction that decides it (the reminder's, the offer's), with a `message_send` job for it. The
 * job sends it exactly once:
 *
 * 1. `prepare` COMMITS `sending` (and the attempt) before the provider is called;
 * 2. the provider is called with no row held, and its answer (its id and `sent`, or its refusal) is
 *    recorded in the job's transaction; a call without an answer leaves `sending`;
 * 3. a run killed between the two leaves `sending`: the next attempt first asks the provider
 *    whether it already has the message (SMS: its message list, matched on number and text;
 *    WhatsApp: the delivery report that carries our id) and only sends when it does not.
 *
 * The jobs of a clinic run in batches (the worker's `batch`: prepare, work, run), one job alone the
 * same way. Quiet hours, consent, an inactive or deceased patient and a changed appointment are
 * checked when the message leaves, not only when it was planned.
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
export async function consentsOf(ctx: Clinic, patientId: string): Promise<Map<MessageChannel, boolean>> {
  return (await consentsOfPatients(ctx, [patientId])).get(patientId) ?? new Map();
}

/** Each patient's newest answer per channel, in one read. */
export async function consentsOfPatients(
  { tx, accountId }: Clinic,
  patientIds: readonly string[],
): Promise<Map<string, Map<MessageChannel, boolean>>> {
  const answers = new Map<string, Map<MessageChannel, boolean>>();
  if (patientIds.length === 0) return answers;
  const rows = await tx
    .selectDistinctOn([patientChannelConsents.patientId, patientChannelConsents.channel], {
      patientId: patientChannelConsents.patientId,
      channel: patientChannelConsents.channel,
      granted: patientChannelConsents.granted,
    })
    .from(patientChannelConsents)
    .where(
      and(
        eq(patientChannelConsents.accountId, accountId),
        inArray(patientChannelConsents.patientId, [...new Set(patientIds)]),
      ),
    )
    .orderBy(patientChannelConsents.patientId, patientChannelConsents.channel, desc(patientChannelConsents.recordedAt));
  for (const row of rows) {
    const patient = answers.get(row.patientId) ?? new Map<MessageChannel, boolean>();
    patient.set(row.channel as MessageChannel, row.granted);
    answers.set(row.patientId, patient);
  }
  return answers;
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

/** The clinic's texts for kinds, channels and languages, or the built-in ones, in one read (keyed `kind:channel:language`). */
async function templatesFor(
  { tx, accountId }: Clinic,
  keys: readonly { kind: TemplateKind; channel: ProviderChannel; language: Language }[],
): Promise<Map<string, { body: string; whatsappTemplate: string }>> {
  const keyOf = (key: { kind: string; channel: string; language: string }) =>
    `${key.kind}:${key.channel}:${key.language}`;
  const kinds = [...new Set(keys.map((key) => key.kind))];
  const own =
    kinds.length === 0
      ? []
      : await tx
          .select({
            kind: messageTemplates.kind,
            channel: messageTemplates.channel,
            language: messageTemplates.language,
            body: messageTemplates.body,
            whatsappTemplate: messageTemplates.whatsappTemplate,
          })
          .from(messageTemplates)
          .where(and(eq(messageTemplates.accountId, accountId), inArray(messageTemplates.kind, kinds)));
  const clinics = new Map(own.map((row) => [keyOf(row), row]));
  return new Map(
    keys.map((key) => {
      const found = clinics.get(keyOf(key));
      return [
        keyOf(key),
        {
          body: found?.body ?? builtInText(key.kind, key.language),
          whatsappTemplate: found?.whatsappTemplate ?? builtInWhatsappTemplates[key.kind],
        },
      ];
    }),
  );
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
  const [id] = await queueProviderMessages(ctx, [message]);
  return id as string;
}

/** Writes the messages and their send jobs in the caller's transaction, two statements whatever their number; answers their ids. */
export async function queueProviderMessages(ctx: Clinic, list: readonly NewProviderMessage[]): Promise<string[]> {
  if (list.length === 0) return [];
  const templates = await templatesFor(
    ctx,
    list.flatMap((message) =>
      'kind' in message.text ? [{ kind: message.text.kind, channel: message.channel, language: message.language }] : [],
    ),
  );
  const rows = list.map((message) => {
    const id = newId();
    let body: string;
    let templateName: string | null = null;
    let templateParams: string[] | null = null;
    if ('kind' in message.text) {
      // templatesFor answers every key it was asked for (the clinic's text or the built-in one).
      const template = templates.get(`${message.text.kind}:${message.channel}:${message.language}`) as {
        body: string;
        whatsappTemplate: string;
      };
      body = renderTemplate(message.text.kind, template.body, message.text.values);
      if (message.channel === 'whatsapp') {
        templateName = template.whatsappTemplate;
        templateParams = templateParameters(message.text.kind, message.text.values);
      }
    } else {
      body = message.text.body;
    }
    return {
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
      runAt: message.runAt ?? new Date(),
    };
  });
  // The rows and their jobs in one round trip (sendInOrder pipelines on PostgreSQL).
  await sendInOrder(ctx.tx, [
    () => ctx.tx.insert(messages).values(rows.map(({ runAt: _runAt, ...row }) => row)),
    () =>
      enqueueJobs(
        ctx,
        rows.map((row) => ({
          kind: messageSendJobKind,
          key: row.id,
          runAt: row.runAt,
          payload: { messageId: row.id },
          maxAttempts: 5,
        })),
      ),
  ]);
  return rows.map((row) => row.id);
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

type MessageRow = typeof messages.$inferSelect;

async function lockMessages({ tx, accountId }: Clinic, ids: readonly string[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(messages)
    .where(and(eq(messages.accountId, accountId), inArray(messages.id, [...ids])))
    .for('update');
}

/** A message ready to leave: the row as prepared, its provider account, and whether an earlier attempt was cut off. */
type Prepared =
  | { message: MessageRow; account: ProviderAccount & { webhookKey: string }; interrupted: boolean; since: Date | null }
  | { done: true };

/** What its provider answered. */
type Sent = { message: MessageRow; outcome: SendOutcome };

const finished = ['sent', 'delivered', 'read', 'failed', 'cancelled'];

/** Of these messages, the reminders whose appointment is no longer scheduled or has begun: not worth sending. */
async function unwantedReminders(ctx: Clinic, list: readonly MessageRow[]): Promise<Set<string>> {
  const appointmentIds = [
    ...new Set(
      list.flatMap((message) =>
        message.kind === 'appointment_reminder' && message.appointmentId ? [message.appointmentId] : [],
      ),
    ),
  ];
  if (appointmentIds.length === 0) return new Set();
  const rows = await ctx.tx
    .select({
      id: appointments.id,
      status: appointments.status,
      deletedAt: appointments.deletedAt,
      startsAt: appointments.startsAt,
    })
    .from(appointments)
    .where(and(eq(appointments.accountId, ctx.accountId), inArray(appointments.id, appointmentIds)));
  const wanted = new Set(
    rows
      .filter((row) => row.status === 'scheduled' && row.deletedAt === null && row.startsAt.getTime() > Date.now())
      .map((row) => row.id),
  );
  return new Set(
    list
      .filter(
        (message) =>
          message.kind === 'appointment_reminder' && message.appointmentId && !wanted.has(message.appointmentId),
      )
      .map((message) => message.id),
  );
}

async function setMessages(ctx: Clinic, ids: readonly string[], values: Partial<typeof messages.$inferInsert>) {
  if (ids.length === 0) return;
  await ctx.tx
    .update(messages)
    .set(values)
    .where(and(eq(messages.accountId, ctx.accountId), inArray(messages.id, [...ids])));
}

/** Reminders that left: their appointments say so, and the audit trail (the e-mail's path does the same). */
async function remindersSent(ctx: Clinic, sent: readonly MessageRow[]) {
  const reminders = sent.filter((message) => message.kind === 'appointment_reminder' && message.appointmentId);
  if (reminders.length === 0) return;
  await ctx.tx
    .update(appointments)
    .set({ reminderState: 'sent', reminderSentAt: sql`now()`, reminderError: null })
    .where(
      and(
        eq(appointments.accountId, ctx.accountId),
        inArray(
          appointments.id,
          reminders.map((message) => message.appointmentId as string),
        ),
        inArray(appointments.reminderState, ['planned', 'failed']),
      ),
    );
  await recordAuditEvents(
    ctx.tx,
    reminders.map((message) => ({
      accountId: ctx.accountId,
      userId: null,
      patientId: message.patientId,
      action: 'appointment_reminder_sent',
      entity: 'appointment',
      entityId: message.appointmentId,
      after: { to: message.toAddress, channel: message.channel, attempts: message.attempts },
    })),
  );
}

export const reminderFailedByMessage = 'The reminder message could not be sent';

/** Messages of a clinic sent at once to its provider (each a request of its own). */
const sendsAtOnce = 8;

/** How many jobs of a clinic one batch sends. */
const batchSize = 25;

export function messageSendHandler(deps: { sealer: Sealer; publicUrl: string }): JobHandler {
  const statusCallback = (webhookKey: string, channel: ProviderChannel, messageId: string) =>
    `${deps.publicUrl}api/webhooks/${channel}/${webhookKey}/status?m=${messageId}`;
  const messageIdOf = (job: ClaimedJob) => String(job.payload.messageId ?? job.key);

  /**
   * Marks the jobs' messages `sending` (the attempt counted) and COMMITS it before anything leaves;
   * each job's answer by its id: what to send and through which account, done when there is nothing
   * to send (already settled, its appointment gone — `cancelled` —, its channel off — `failed` —), or
   * a `DeferJob` in the clinic's quiet hours.
   */
  async function prepareAll(ctx: Clinic, list: readonly ClaimedJob[]): Promise<Map<string, Prepared | DeferJob>> {
    const [rows, clinic] = await sendInOrder(ctx.tx, [
      () => lockMessages(ctx, list.map(messageIdOf)),
      () => clinicMessaging(ctx),
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const quietUntil = nextSendingInstant(new Date(), clinic.timeZone, clinic.quietHours);
    const answers = new Map<string, Prepared | DeferJob>();
    const open: { job: ClaimedJob; message: MessageRow }[] = [];
    for (const job of list) {
      const message = byId.get(messageIdOf(job));
      if (!message || finished.includes(message.status)) answers.set(job.id, { done: true });
      else if (
        message.kind !== 'answer' &&
        message.kind !== 'opt_out_confirmation' &&
        quietUntil.getTime() > Date.now()
      ) {
        answers.set(job.id, new DeferJob(quietUntil));
      } else open.push({ job, message });
    }
    const channels = [...new Set(open.map(({ message }) => message.channel as ProviderChannel))];
    const [unwanted, ...accounts] = await sendInOrder(ctx.tx, [
      () =>
        unwantedReminders(
          ctx,
          open.map(({ message }) => message),
        ),
      ...channels.map((channel) => () => providerAccount(ctx, channel, deps.sealer)),
    ] as const);
    const accountOf = new Map(channels.map((channel, index) => [channel, accounts[index] ?? null]));
    const cancelled: string[] = [];
    const channelOff: string[] = [];
    const preparing: string[] = [];
    for (const { job, message } of open) {
      const account = accountOf.get(message.channel as ProviderChannel);
      if (unwanted.has(message.id)) cancelled.push(message.id);
      else if (!account) channelOff.push(message.id);
      else {
        preparing.push(message.id);
        answers.set(job.id, {
          message: { ...message, attempts: message.attempts + 1 },
          account,
          interrupted: message.status === 'sending',
          since: message.sendingSince,
        });
        continue;
      }
      answers.set(job.id, { done: true });
    }
    await setMessages(ctx, cancelled, { status: 'cancelled', sendingSince: null });
    await setMessages(ctx, channelOff, {
      status: 'failed',
      failedAt: new Date(),
      sendingSince: null,
      errorCode: 'channel_off',
      error: 'The channel is not configured or is switched off',
    });
    if (preparing.length > 0) {
      await ctx.tx
        .update(messages)
        .set({
          status: 'sending',
          sendingSince: sql`case when ${messages.status} = 'sending' then ${messages.sendingSince} else now() end`,
          attempts: sql`${messages.attempts} + 1`,
        })
        .where(and(eq(messages.accountId, ctx.accountId), inArray(messages.id, preparing)));
    }
    return answers;
  }

  /** Outside any transaction (no row held while a provider answers): each prepared message to its provider, a few at a time. */
  async function sendAll(list: readonly ClaimedJob[], prepared: Map<string, unknown>): Promise<Map<string, unknown>> {
    const answers = new Map<string, unknown>(prepared);
    const sending = list.flatMap((job) => {
      const state = prepared.get(job.id) as Prepared | undefined;
      return state && 'message' in state ? [{ job, state }] : [];
    });
    for (let start = 0; start < sending.length; start += sendsAtOnce) {
      await Promise.all(
        sending.slice(start, start + sendsAtOnce).map(async ({ job, state }) => {
          const outcome = await deliver(state.message, state.account, state).catch(
            (error: unknown): SendOutcome & { ok: false } => ({
              ok: false,
              retry: true,
              code: 'no_answer',
              error: (error instanceof Error ? error.message : String(error)).slice(0, 300),
              unknown: true,
            }),
          );
          answers.set(job.id, { message: state.message, outcome } satisfies Sent);
        }),
      );
    }
    return answers;
  }

  /**
   * What the providers answered, a few statements for all of them: accepted messages `sent` with their
   * provider's id (a delivery report that got here first is not undone), their reminders marked sent
   * and audited; a refusal kept on its message; answers the jobs to retry (the provider's trouble).
   */
  async function recordAll(ctx: Clinic, list: readonly ClaimedJob[], answers: Map<string, unknown>) {
    const retries = new Map<string, JobRetry>();
    const outcomes = list.flatMap((job) => {
      const answer = answers.get(job.id) as Sent | Prepared | undefined;
      return answer && 'outcome' in answer ? [{ job, ...answer }] : [];
    });
    const sent = outcomes.flatMap(({ message, outcome }) =>
      outcome.ok ? [{ message, providerId: outcome.providerId }] : [],
    );
    if (sent.length > 0) {
      // One statement for every accepted message, each with its provider's id.
      await ctx.tx.execute(sql`
        update messages set
          status = case when messages.status in ('queued', 'sending') then 'sent' else messages.status end,
          provider_message_id = coalesce(messages.provider_message_id, accepted.provider_id),
          sent_at = coalesce(messages.sent_at, now()), sending_since = null, error = null, error_code = null
        from unnest(${textArray(sent.map((entry) => entry.message.id))}::uuid[],
          ${textArray(sent.map((entry) => entry.providerId))}) as accepted(id, provider_id)
        where messages.account_id = ${ctx.accountId} and messages.id = accepted.id`);
      await remindersSent(
        ctx,
        sent.map((entry) => entry.message),
      );
    }
    for (const { job, message, outcome } of outcomes) {
      if (outcome.ok) continue;
      await ctx.tx
        .update(messages)
        .set({
          // No answer (a time-out, a dropped connection): the provider may have it, so the message
          // stays `sending` and the next attempt asks before it sends.
          status: outcome.unknown ? 'sending' : outcome.retry ? 'queued' : 'failed',
          ...(outcome.unknown ? {} : { sendingSince: null }),
          errorCode: outcome.code,
          error: outcome.error,
          ...(outcome.retry ? {} : { failedAt: new Date() }),
        })
        .where(
          and(
            eq(messages.accountId, ctx.accountId),
            eq(messages.id, message.id),
            inArray(messages.status, ['queued', 'sending']),
          ),
        );
      if (!outcome.retry) await reminderFailed(ctx, message);
      else retries.set(job.id, { retry: `${message.channel} provider: ${outcome.code} ${outcome.error}` });
    }
    return retries;
  }

  /** To the provider, unless an earlier attempt that died waiting for its answer got it there (SMS: asked first). */
  async function deliver(
    message: MessageRow,
    account: ProviderAccount & { webhookKey: string },
    state: { interrupted: boolean; since: Date | null },
  ): Promise<SendOutcome> {
    const channel = message.channel as ProviderChannel;
    if (state.interrupted && channel === 'sms') {
      const known = await twilioSms.find(account, {
        to: message.toAddress,
        body: message.body,
        since: state.since ?? message.createdAt,
      });
      if (known) return { ok: true, providerId: known };
    }
    const sender = channel === 'sms' ? twilioSms : whatsappCloud;
    return sender.send(account, {
      messageId: message.id,
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
      statusCallback: statusCallback(account.webhookKey, channel, message.id),
    });
  }

  return {
    async prepare(ctx, job) {
      const answer = (await prepareAll(ctx, [job])).get(job.id);
      if (answer instanceof DeferJob) throw answer;
      return answer ?? { done: true };
    },

    // One job: the provider is called within its run (its transaction holds no row meanwhile).
    async run(ctx, job, prepared) {
      const answers = await sendAll([job], new Map([[job.id, prepared]]));
      return (await recordAll(ctx, [job], answers)).get(job.id);
    },

    batch: { size: batchSize, prepare: prepareAll, work: sendAll, run: recordAll },

    async onFailed(ctx, job) {
      const [message] = await lockMessages(ctx, [messageIdOf(job)]);
      if (!message || finished.includes(message.status)) return;
      await setMessages(ctx, [message.id], { status: 'failed', failedAt: new Date(), sendingSince: null });
      await reminderFailed(ctx, message);
    },
  };
}

async function reminderFailed(ctx: Clinic, message: MessageRow) {
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
