import { type Language, languages } from '@odontia/shared/enums';
import {
  type ChannelConsent,
  type InboundMessage,
  type Message,
  type MessageChannel,
  type MessageKind,
  type MessageStatus,
  type MessageTemplate,
  type MessagingSettings,
  messageChannels,
  type messagesQuerySchema,
  type messageTemplatePreviewRequestSchema,
  type messageTemplateUpdateSchema,
  type messagingChannelUpdateSchema,
  type messagingSettingsUpdateSchema,
  type PatientConsents,
  type ProviderChannel,
  providerChannels,
  type ReplyIntent,
  type ReplyOutcome,
  smsSegments,
  type TemplateKind,
  templateKinds,
  templatePlaceholders,
  unknownPlaceholders,
} from '@odontia/shared/schemas/messages';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import {
  accounts,
  appointments,
  inboundMessages,
  messages,
  messageTemplates,
  messagingChannels,
  patientChannelConsents,
  patients,
  users,
} from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import type { Sealer } from '../../lib/secrets.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { audit, auditClinicSettings, recordAuditEvent } from '../audit/audit.repository.ts';
import { mobileNumber } from './message-rules.ts';
import { builtInText, builtInWhatsappTemplates, renderTemplate } from './message-texts.ts';
import { queueProviderMessage } from './outbox.ts';

/**
 * Messages to patients (issue 38): the clinic's settings (channels in order, quiet hours, provider
 * accounts with sealed secrets), its templates with a preview, each patient's consent per channel,
 * the log of every message with its delivery, and the inbox of replies the app did not apply.
 */

const patientName = sql<string>`${patients.firstName} || ' ' || ${patients.lastName}`;

function webhookUrls(publicUrl: string, channel: ProviderChannel, key: string) {
  return channel === 'sms'
    ? { status: `${publicUrl}api/webhooks/sms/${key}/status`, inbound: `${publicUrl}api/webhooks/sms/${key}/inbound` }
    : { status: `${publicUrl}api/webhooks/whatsapp/${key}`, inbound: `${publicUrl}api/webhooks/whatsapp/${key}` };
}

async function settingsOf(ctx: RequestContext, publicUrl: string): Promise<MessagingSettings> {
  const [clinic] = await ctx.tx
    .select({
      reminderChannels: accounts.reminderChannels,
      quietHoursStart: accounts.quietHoursStart,
      quietHoursEnd: accounts.quietHoursEnd,
    })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  const rows = await ctx.tx.select().from(messagingChannels).where(eq(messagingChannels.accountId, ctx.accountId));
  return {
    reminderChannels: (clinic?.reminderChannels ?? ['email']) as MessageChannel[],
    quietHours:
      clinic?.quietHoursStart != null && clinic.quietHoursEnd != null
        ? { start: clinic.quietHoursStart, end: clinic.quietHoursEnd }
        : null,
    channels: rows.map((row) => {
      const urls = webhookUrls(publicUrl, row.channel as ProviderChannel, row.webhookKey);
      return {
        channel: row.channel as ProviderChannel,
        enabled: row.enabled,
        apiUrl: row.apiUrl,
        accountRef: row.accountRef,
        sender: row.sender,
        hasSecret: row.secretSealed !== '',
        hasWebhookSecret: row.webhookSecretSealed !== null,
        statusWebhookUrl: urls.status,
        inboundWebhookUrl: urls.inbound,
        version: row.version,
      };
    }),
  };
}

async function templatesOf(ctx: RequestContext): Promise<MessageTemplate[]> {
  const own = await ctx.tx.select().from(messageTemplates).where(eq(messageTemplates.accountId, ctx.accountId));
  const key = (kind: string, channel: string, language: string) => `${kind}/${channel}/${language}`;
  const byKey = new Map(own.map((row) => [key(row.kind, row.channel, row.language), row]));
  return templateKinds.flatMap((kind) =>
    providerChannels.flatMap((channel) =>
      languages.map((language) => {
        const row = byKey.get(key(kind, channel, language));
        return {
          kind,
          channel,
          language,
          body: row?.body ?? builtInText(kind, language),
          custom: Boolean(row),
          whatsappTemplate: channel === 'whatsapp' ? (row?.whatsappTemplate ?? builtInWhatsappTemplates[kind]) : null,
          placeholders: [...templatePlaceholders[kind]],
        };
      }),
    ),
  );
}

/** Sample values a preview fills the placeholders with, in the template's language. */
const sampleValues: Record<Language, Record<string, string>> = {
  es: {
    patient: 'María',
    date: 'lun 7 dic',
    time: '10:30',
    professional: 'Dra. Laura Gómez',
    treatment: 'Limpieza',
    due_date: '07/12/2026',
  },
  en: {
    patient: 'Mary',
    date: 'Mon 7 Dec',
    time: '10:30',
    professional: 'Dr Laura Gomez',
    treatment: 'Cleaning',
    due_date: '07/12/2026',
  },
  fr: {
    patient: 'Marie',
    date: 'lun. 7 déc.',
    time: '10:30',
    professional: 'Dr Laura Gomez',
    treatment: 'Détartrage',
    due_date: '07/12/2026',
  },
  pt: {
    patient: 'Maria',
    date: 'seg, 7 dez',
    time: '10:30',
    professional: 'Dra. Laura Gomes',
    treatment: 'Limpeza',
    due_date: '07/12/2026',
  },
};

async function patientOf(ctx: RequestContext, id: string) {
  const [patient] = await ctx.tx
    .select({
      id: patients.id,
      email: patients.email,
      phoneArea: patients.phoneArea,
      phone: patients.phone,
      language: patients.language,
    })
    .from(patients)
    .where(and(eq(patients.accountId, ctx.accountId), eq(patients.id, id), isNull(patients.deletedAt)));
  if (!patient) throw new AppError('patient_not_found');
  return patient;
}

async function consentsView(ctx: RequestContext, patientId: string): Promise<PatientConsents> {
  const patient = await patientOf(ctx, patientId);
  const history = await ctx.tx
    .select({
      id: patientChannelConsents.id,
      channel: patientChannelConsents.channel,
      granted: patientChannelConsents.granted,
      source: patientChannelConsents.source,
      note: patientChannelConsents.note,
      recordedAt: patientChannelConsents.recordedAt,
      recordedByName: users.completeName,
    })
    .from(patientChannelConsents)
    .leftJoin(
      users,
      and(eq(users.accountId, patientChannelConsents.accountId), eq(users.id, patientChannelConsents.recordedBy)),
    )
    .where(and(eq(patientChannelConsents.accountId, ctx.accountId), eq(patientChannelConsents.patientId, patientId)))
    .orderBy(desc(patientChannelConsents.recordedAt), desc(patientChannelConsents.id))
    .limit(100);
  const mobile = mobileNumber(patient.phoneArea, patient.phone);
  return {
    current: messageChannels.map((channel) => {
      const newest = history.find((row) => row.channel === channel);
      return {
        channel,
        granted: newest?.granted ?? null,
        since: newest?.recordedAt.toISOString() ?? null,
        address: channel === 'email' ? patient.email : mobile,
      };
    }),
    history: history.map(
      (row): ChannelConsent => ({
        ...row,
        channel: row.channel as MessageChannel,
        source: row.source as ChannelConsent['source'],
        recordedAt: row.recordedAt.toISOString(),
      }),
    ),
  };
}

const inboxColumns = {
  id: inboundMessages.id,
  channel: inboundMessages.channel,
  fromAddress: inboundMessages.fromAddress,
  body: inboundMessages.body,
  receivedAt: inboundMessages.receivedAt,
  patientId: inboundMessages.patientId,
  patientName: sql<string | null>`case when ${patients.id} is null then null else ${patientName} end`,
  appointmentId: inboundMessages.appointmentId,
  appointmentStartsAt: appointments.startsAt,
  intent: inboundMessages.intent,
  outcome: inboundMessages.outcome,
  handledAt: inboundMessages.handledAt,
  handledByName: users.completeName,
  version: inboundMessages.version,
  // The newest reply from the same number: WhatsApp's 24 hours count from it.
  lastFromNumber: sql<Date>`(select max(i2.received_at) from inbound_messages i2 where i2.account_id = ${inboundMessages.accountId} and i2.channel = ${inboundMessages.channel} and i2.from_address = ${inboundMessages.fromAddress})`,
};

function inboxQuery(ctx: RequestContext) {
  return ctx.tx
    .select(inboxColumns)
    .from(inboundMessages)
    .leftJoin(
      patients,
      and(eq(patients.accountId, inboundMessages.accountId), eq(patients.id, inboundMessages.patientId)),
    )
    .leftJoin(
      appointments,
      and(eq(appointments.accountId, inboundMessages.accountId), eq(appointments.id, inboundMessages.appointmentId)),
    )
    .leftJoin(users, and(eq(users.accountId, inboundMessages.accountId), eq(users.id, inboundMessages.handledBy)))
    .$dynamic();
}

const sessionHours = 24;

function presentInbound(row: Awaited<ReturnType<typeof inboxQuery>>[number], now = new Date()): InboundMessage {
  const last = row.lastFromNumber ? new Date(row.lastFromNumber) : row.receivedAt;
  return {
    id: row.id,
    channel: row.channel as ProviderChannel,
    fromAddress: row.fromAddress,
    body: row.body,
    receivedAt: row.receivedAt.toISOString(),
    patientId: row.patientId,
    patientName: row.patientName,
    appointmentId: row.appointmentId,
    appointmentStartsAt: row.appointmentStartsAt?.toISOString() ?? null,
    intent: row.intent as ReplyIntent,
    outcome: row.outcome as ReplyOutcome,
    handledAt: row.handledAt?.toISOString() ?? null,
    handledByName: row.handledByName ?? null,
    canAnswer: row.channel === 'sms' || now.getTime() - last.getTime() < sessionHours * 3_600_000,
    version: row.version,
  };
}

async function inboundItem(ctx: RequestContext, id: string, lock = false): Promise<InboundMessage> {
  if (lock) {
    await ctx.tx
      .select({ id: inboundMessages.id })
      .from(inboundMessages)
      .where(and(eq(inboundMessages.accountId, ctx.accountId), eq(inboundMessages.id, id)))
      .for('update');
  }
  const [row] = await inboxQuery(ctx).where(
    and(eq(inboundMessages.accountId, ctx.accountId), eq(inboundMessages.id, id)),
  );
  if (!row) throw new AppError('inbox_message_not_found');
  return presentInbound(row);
}

function presentMessage(row: {
  id: string;
  patientId: string | null;
  patientName: string | null;
  appointmentId: string | null;
  kind: string;
  channel: string;
  toAddress: string;
  body: string;
  status: string;
  error: string | null;
  errorCode: string | null;
  attempts: number;
  createdAt: Date;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failedAt: Date | null;
  createdByName: string | null;
}): Message {
  const iso = (value: Date | null) => value?.toISOString() ?? null;
  return {
    ...row,
    patientName: row.patientName ?? row.toAddress,
    kind: row.kind as MessageKind,
    channel: row.channel as MessageChannel,
    status: row.status as MessageStatus,
    createdAt: row.createdAt.toISOString(),
    sentAt: iso(row.sentAt),
    deliveredAt: iso(row.deliveredAt),
    readAt: iso(row.readAt),
    failedAt: iso(row.failedAt),
  };
}

export function createMessagesService(deps: { sealer: Sealer; publicUrl: string }) {
  return {
    settings: ({ ctx }: { ctx: RequestContext }) => settingsOf(ctx, deps.publicUrl),

    async updateSettings({
      ctx,
      input,
    }: {
      ctx: RequestContext;
      input: z.output<typeof messagingSettingsUpdateSchema>;
    }) {
      const before = await settingsOf(ctx, deps.publicUrl);
      const [row] = await ctx.tx
        .update(accounts)
        .set({
          reminderChannels: input.reminderChannels,
          quietHoursStart: input.quietHours?.start ?? null,
          quietHoursEnd: input.quietHours?.end ?? null,
          version: sql`${accounts.version} + 1`,
        })
        .where(eq(accounts.id, ctx.accountId))
        .returning({ version: accounts.version });
      await auditClinicSettings(
        ctx,
        'messaging_settings_updated',
        {
          before: { reminderChannels: before.reminderChannels, quietHours: before.quietHours },
          after: { reminderChannels: input.reminderChannels, quietHours: input.quietHours },
        },
        (row?.version ?? 1) - 1,
      );
      return settingsOf(ctx, deps.publicUrl);
    },

    async updateChannel({
      ctx,
      channel,
      input,
    }: {
      ctx: RequestContext;
      channel: ProviderChannel;
      input: z.output<typeof messagingChannelUpdateSchema>;
    }) {
      const [current] = await ctx.tx
        .select()
        .from(messagingChannels)
        .where(and(eq(messagingChannels.accountId, ctx.accountId), eq(messagingChannels.channel, channel)))
        .for('update');
      if ((current?.version ?? null) !== input.version) throw new AppError('version_conflict');
      if (!current && !input.secret) throw new AppError('messaging_secret_required');
      const values = {
        enabled: input.enabled,
        apiUrl: input.apiUrl,
        accountRef: input.accountRef,
        sender: input.sender,
        secretSealed: input.secret ? deps.sealer.seal(input.secret) : (current?.secretSealed ?? ''),
        webhookSecretSealed: input.webhookSecret
          ? deps.sealer.seal(input.webhookSecret)
          : (current?.webhookSecretSealed ?? null),
        updatedAt: new Date(),
        updatedBy: ctx.userId,
      };
      if (current) {
        await ctx.tx
          .update(messagingChannels)
          .set({ ...values, version: current.version + 1 })
          .where(and(eq(messagingChannels.accountId, ctx.accountId), eq(messagingChannels.channel, channel)));
      } else {
        await ctx.tx
          .insert(messagingChannels)
          .values({ accountId: ctx.accountId, channel, webhookKey: newToken(), ...values });
      }
      // Never the secrets in the trail: only that they changed.
      await auditClinicSettings(
        ctx,
        'messaging_channel_updated',
        {
          before: current
            ? {
                channel,
                enabled: current.enabled,
                apiUrl: current.apiUrl,
                accountRef: current.accountRef,
                sender: current.sender,
              }
            : { channel },
          after: {
            channel,
            enabled: input.enabled,
            apiUrl: input.apiUrl,
            accountRef: input.accountRef,
            sender: input.sender,
            secretChanged: Boolean(input.secret),
            webhookSecretChanged: Boolean(input.webhookSecret),
          },
        },
        current?.version ?? 0,
      );
      return settingsOf(ctx, deps.publicUrl);
    },

    templates: ({ ctx }: { ctx: RequestContext }) => templatesOf(ctx),

    async updateTemplate({ ctx, input }: { ctx: RequestContext; input: z.output<typeof messageTemplateUpdateSchema> }) {
      const where = and(
        eq(messageTemplates.accountId, ctx.accountId),
        eq(messageTemplates.kind, input.kind),
        eq(messageTemplates.channel, input.channel),
        eq(messageTemplates.language, input.language),
      );
      const [before] = await ctx.tx.select().from(messageTemplates).where(where).for('update');
      if (input.body === null) {
        await ctx.tx.delete(messageTemplates).where(where);
      } else if (before) {
        await ctx.tx
          .update(messageTemplates)
          .set({
            body: input.body,
            whatsappTemplate: input.whatsappTemplate,
            updatedAt: new Date(),
            updatedBy: ctx.userId,
            version: before.version + 1,
          })
          .where(where);
      } else {
        await ctx.tx.insert(messageTemplates).values({
          accountId: ctx.accountId,
          kind: input.kind,
          channel: input.channel,
          language: input.language,
          body: input.body,
          whatsappTemplate: input.whatsappTemplate,
          updatedBy: ctx.userId,
        });
      }
      await auditClinicSettings(
        ctx,
        'message_template_updated',
        {
          before: { kind: input.kind, channel: input.channel, language: input.language, body: before?.body ?? null },
          after: { kind: input.kind, channel: input.channel, language: input.language, body: input.body },
        },
        before?.version ?? 0,
      );
      const all = await templatesOf(ctx);
      const updated = all.find(
        (row) => row.kind === input.kind && row.channel === input.channel && row.language === input.language,
      );
      if (!updated) throw new AppError('error_update_messages');
      return updated;
    },

    async previewTemplate({
      ctx,
      input,
    }: {
      ctx: RequestContext;
      input: z.output<typeof messageTemplatePreviewRequestSchema>;
    }) {
      const [clinic] = await ctx.tx
        .select({ clinicName: accounts.clinicName, phone: accounts.phone })
        .from(accounts)
        .where(eq(accounts.id, ctx.accountId));
      const kind = input.kind as TemplateKind;
      const text = renderTemplate(kind, input.body, {
        ...sampleValues[input.language],
        clinic: clinic?.clinicName ?? '',
        clinic_phone: clinic?.phone ?? '',
        minutes: '15',
        link: `${deps.publicUrl}waiting-list/offer/…`,
      });
      return {
        text,
        characters: [...text].length,
        segments: input.channel === 'sms' ? smsSegments(text) : 1,
        unknownPlaceholders: unknownPlaceholders(kind, input.body),
      };
    },

    consents: ({ ctx, patientId }: { ctx: RequestContext; patientId: string }) => consentsView(ctx, patientId),

    async recordConsent({
      ctx,
      patientId,
      input,
    }: {
      ctx: RequestContext;
      patientId: string;
      input: { channel: MessageChannel; granted: boolean; note: string | null };
    }) {
      await patientOf(ctx, patientId);
      const id = newId();
      await ctx.tx.insert(patientChannelConsents).values({
        accountId: ctx.accountId,
        id,
        patientId,
        channel: input.channel,
        granted: input.granted,
        source: 'staff',
        note: input.note,
        recordedBy: ctx.userId,
      });
      await audit(ctx, {
        patientId,
        action: 'patient_consent_recorded',
        entity: 'patient',
        entityId: patientId,
        after: { consentId: id, channel: input.channel, granted: input.granted, source: 'staff', note: input.note },
      });
      return consentsView(ctx, patientId);
    },

    async list({ ctx, query }: { ctx: RequestContext; query: z.output<typeof messagesQuerySchema> }) {
      if (query.patientId) await patientOf(ctx, query.patientId);
      const where = and(
        eq(messages.accountId, ctx.accountId),
        query.patientId ? eq(messages.patientId, query.patientId) : undefined,
        query.appointmentId ? eq(messages.appointmentId, query.appointmentId) : undefined,
        query.status ? eq(messages.status, query.status) : undefined,
        query.channel ? eq(messages.channel, query.channel) : undefined,
      );
      const rows = await ctx.tx
        .select({
          id: messages.id,
          patientId: messages.patientId,
          patientName: sql<string | null>`case when ${patients.id} is null then null else ${patientName} end`,
          appointmentId: messages.appointmentId,
          kind: messages.kind,
          channel: messages.channel,
          toAddress: messages.toAddress,
          body: messages.body,
          status: messages.status,
          error: messages.error,
          errorCode: messages.errorCode,
          attempts: messages.attempts,
          createdAt: messages.createdAt,
          sentAt: messages.sentAt,
          deliveredAt: messages.deliveredAt,
          readAt: messages.readAt,
          failedAt: messages.failedAt,
          createdByName: users.completeName,
        })
        .from(messages)
        .leftJoin(patients, and(eq(patients.accountId, messages.accountId), eq(patients.id, messages.patientId)))
        .leftJoin(users, and(eq(users.accountId, messages.accountId), eq(users.id, messages.createdBy)))
        .where(where)
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize);
      const [total] = await ctx.tx.select({ total: count() }).from(messages).where(where);
      return {
        data: rows.map((row) => presentMessage(row)),
        total: total?.total ?? 0,
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    async inbox({
      ctx,
      query,
    }: {
      ctx: RequestContext;
      query: { page: number; pageSize: number; state: 'open' | 'all' };
    }) {
      const open = and(eq(inboundMessages.accountId, ctx.accountId), isNull(inboundMessages.handledAt));
      const where = query.state === 'open' ? open : eq(inboundMessages.accountId, ctx.accountId);
      const rows = await inboxQuery(ctx)
        .where(where)
        .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.id))
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize);
      const [total] = await ctx.tx.select({ total: count() }).from(inboundMessages).where(where);
      const [openCount] = await ctx.tx.select({ total: count() }).from(inboundMessages).where(open);
      return {
        data: rows.map((row) => presentInbound(row)),
        total: total?.total ?? 0,
        page: query.page,
        pageSize: query.pageSize,
        open: openCount?.total ?? 0,
      };
    },

    async answer({ ctx, id, input }: { ctx: RequestContext; id: string; input: { body: string; version: number } }) {
      const item = await inboundItem(ctx, id, true);
      if (item.version !== input.version) throw new AppError('version_conflict');
      if (!item.canAnswer) throw new AppError('whatsapp_session_closed');
      const [channelRow] = await ctx.tx
        .select({ enabled: messagingChannels.enabled })
        .from(messagingChannels)
        .where(and(eq(messagingChannels.accountId, ctx.accountId), eq(messagingChannels.channel, item.channel)));
      if (!channelRow?.enabled) throw new AppError('messaging_channel_off');
      const [patient] = item.patientId
        ? await ctx.tx
            .select({ language: patients.language })
            .from(patients)
            .where(and(eq(patients.accountId, ctx.accountId), eq(patients.id, item.patientId)))
        : [];
      const messageId = await queueProviderMessage(ctx, {
        patientId: item.patientId,
        kind: 'answer',
        channel: item.channel,
        to: item.fromAddress,
        language: languageOf(patient?.language ?? 'es'),
        text: { body: input.body },
        createdBy: ctx.userId,
        inReplyTo: id,
      });
      await closeItem(ctx, id);
      await audit(ctx, {
        patientId: item.patientId,
        action: 'inbox_answered',
        entity: 'inbound_message',
        entityId: id,
        after: { messageId, channel: item.channel },
      });
      return inboundItem(ctx, id);
    },

    async close({ ctx, id, version }: { ctx: RequestContext; id: string; version: number }) {
      const item = await inboundItem(ctx, id, true);
      if (item.version !== version) throw new AppError('version_conflict');
      await closeItem(ctx, id);
      await audit(ctx, {
        patientId: item.patientId,
        action: 'inbox_closed',
        entity: 'inbound_message',
        entityId: id,
        after: { outcome: item.outcome },
      });
      return inboundItem(ctx, id);
    },
  };

  async function closeItem(ctx: RequestContext, id: string) {
    await ctx.tx
      .update(inboundMessages)
      .set({
        handledAt: sql`coalesce(${inboundMessages.handledAt}, now())`,
        handledBy: ctx.userId,
        version: sql`${inboundMessages.version} + 1`,
      })
      .where(and(eq(inboundMessages.accountId, ctx.accountId), eq(inboundMessages.id, id)));
  }
}

export type MessagesService = ReturnType<typeof createMessagesService>;

/** The "no more e-mails" link: found across clinics by its hash, recorded in the message's clinic. */
export function createOptOutLinks(db: Database) {
  async function find(token: string) {
    const found = await db.withSystem(async (tx) => {
      const [row] = await tx
        .select({ accountId: messages.accountId, id: messages.id })
        .from(messages)
        .where(eq(messages.optOutTokenHash, hashToken(token)));
      return row;
    });
    if (!found) throw new AppError('opt_out_link_not_found');
    return found;
  }

  async function view(tx: Parameters<Parameters<Database['withTenant']>[1]>[0], accountId: string, id: string) {
    const [row] = await tx
      .select({
        patientId: messages.patientId,
        channel: messages.channel,
        language: patients.language,
        clinicName: accounts.clinicName,
      })
      .from(messages)
      .innerJoin(patients, and(eq(patients.accountId, messages.accountId), eq(patients.id, messages.patientId)))
      .innerJoin(accounts, eq(accounts.id, messages.accountId))
      .where(and(eq(messages.accountId, accountId), eq(messages.id, id)));
    if (!row?.patientId) throw new AppError('opt_out_link_not_found');
    const [newest] = await tx
      .select({ granted: patientChannelConsents.granted })
      .from(patientChannelConsents)
      .where(
        and(
          eq(patientChannelConsents.accountId, accountId),
          eq(patientChannelConsents.patientId, row.patientId),
          eq(patientChannelConsents.channel, row.channel),
        ),
      )
      .orderBy(desc(patientChannelConsents.recordedAt))
      .limit(1);
    return {
      patientId: row.patientId,
      data: {
        clinicName: row.clinicName,
        channel: row.channel as MessageChannel,
        language: languageOf(row.language),
        optedOut: newest?.granted === false,
      },
    };
  }

  return {
    async show(token: string) {
      const found = await find(token);
      return db.withTenant(found.accountId, async (tx) => ({ data: (await view(tx, found.accountId, found.id)).data }));
    },
    async confirm(token: string, ip: string) {
      const found = await find(token);
      return db.withTenant(found.accountId, async (tx) => {
        const current = await view(tx, found.accountId, found.id);
        if (!current.data.optedOut) {
          await tx.insert(patientChannelConsents).values({
            accountId: found.accountId,
            id: newId(),
            patientId: current.patientId,
            channel: current.data.channel,
            granted: false,
            source: 'link',
          });
          await recordAuditEvent(tx, {
            accountId: found.accountId,
            userId: null,
            patientId: current.patientId,
            action: 'patient_consent_recorded',
            entity: 'patient',
            entityId: current.patientId,
            after: { channel: current.data.channel, granted: false, source: 'link' },
            ip,
          });
        }
        return { data: { ...current.data, optedOut: true }, code: 'opted_out' as const };
      });
    },
  };
}
