import { z } from 'zod';
import { instantText, named } from '../api-schema.ts';
import { languages } from '../languages.ts';
import { placeholderPattern } from '../template-placeholders.ts';
import { requiredText, safeText } from '../validation.ts';
import { maxPageSize, pageSchema } from './common.ts';

/**
 * Messages to patients (issue 38; docs/decisions.md "Messages: one outbox, three channels"): e-mail,
 * SMS (a Twilio-shaped provider) and WhatsApp (the Cloud API); the clinic's accounts and quiet
 * hours, its templates, each patient's consent per channel, the log of every message with its
 * delivery, and the replies the front desk answers. /api/settings/messaging, /api/messages, /api/inbox.
 */

export const messageChannels = ['email', 'sms', 'whatsapp'] as const;
export type MessageChannel = (typeof messageChannels)[number];
/** The channels a provider account carries (e-mail is the installation's SMTP). */
export const providerChannels = ['sms', 'whatsapp'] as const;
export type ProviderChannel = (typeof providerChannels)[number];
export const messageKinds = [
  'appointment_reminder',
  'waiting_list_offer',
  'recall',
  'answer',
  'opt_out_confirmation',
  'instalment_reminder',
] as const;
export type MessageKind = (typeof messageKinds)[number];
/** The kinds a clinic words itself (the others are the front desk's own text, or fixed). */
export const templateKinds = ['appointment_reminder', 'waiting_list_offer', 'recall'] as const;
export type TemplateKind = (typeof templateKinds)[number];
export const messageStatuses = ['queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof messageStatuses)[number];
export const consentSources = ['staff', 'portal', 'reply', 'link', 'import'] as const;
export const replyIntents = ['confirm', 'cancel', 'stop', 'start', 'unknown'] as const;
export type ReplyIntent = (typeof replyIntents)[number];
export const replyOutcomes = ['applied', 'already', 'too_late', 'no_appointment', 'unknown_sender', 'inbox'] as const;
export type ReplyOutcome = (typeof replyOutcomes)[number];

/** The placeholders a template may use, by kind; `{{link}}` is the confirm/offer/booking page. */
export const templatePlaceholders = {
  appointment_reminder: ['patient', 'clinic', 'date', 'time', 'professional', 'clinic_phone'],
  waiting_list_offer: ['patient', 'clinic', 'date', 'time', 'professional', 'treatment', 'minutes', 'link'],
  recall: ['patient', 'clinic', 'treatment', 'due_date', 'clinic_phone'],
} as const satisfies Record<TemplateKind, readonly string[]>;
export type TemplatePlaceholder = (typeof templatePlaceholders)[TemplateKind][number];

/** The placeholders of `body` that its kind does not know (the preview and the save refuse them). */
export function unknownPlaceholders(kind: TemplateKind, body: string): string[] {
  const known = new Set<string>(templatePlaceholders[kind]);
  const unknown = new Set<string>();
  for (const match of body.matchAll(placeholderPattern)) if (!known.has(match[1] ?? '')) unknown.add(match[1] ?? '');
  return [...unknown];
}

/**
 * SMS segments a text takes: GSM-7 packs 160 characters (153 per part once split), anything else
 * (an emoji, "ñ" is GSM but "ú" is not) UCS-2, 70 (67 per part). What the clinic pays per message.
 */
const gsm7 = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà^{}\\[~\]|€]*$/;
export function smsSegments(text: string): number {
  const single = gsm7.test(text) ? 160 : 70;
  const part = gsm7.test(text) ? 153 : 67;
  const length = [...text].length;
  return length <= single ? 1 : Math.ceil(length / part);
}

// ———————————————————————————————————————— settings

const minuteOfDay = () => z.number('invalid_value').int('invalid_value').min(0, 'too_small').max(1439, 'too_big');

export const quietHoursSchema = z.object({ start: minuteOfDay(), end: minuteOfDay() });

const e164 = () =>
  safeText()
    .trim()
    .regex(/^\+[1-9][0-9]{6,14}$/, 'invalid_phone');

const apiUrl = () =>
  safeText()
    .trim()
    .max(300, 'too_long')
    .refine((value) => /^https?:\/\/[^\s/]+/.test(value), 'invalid_value');

/** A provider account as the settings page shows it: never its secrets, only whether they are set. */
export const messagingChannelSchema = named(
  'MessagingChannel',
  z.object({
    channel: z.enum(providerChannels),
    enabled: z.boolean(),
    apiUrl: z.string(),
    accountRef: z.string(),
    sender: z.string(),
    hasSecret: z.boolean(),
    hasWebhookSecret: z.boolean(),
    /** Where the provider posts delivery reports and replies (to paste in its console). */
    statusWebhookUrl: z.url(),
    inboundWebhookUrl: z.url(),
    version: z.number().int(),
  }),
);
export type MessagingChannel = z.infer<typeof messagingChannelSchema>;

export const messagingSettingsSchema = named(
  'MessagingSettings',
  z.object({
    reminderChannels: z.array(z.enum(messageChannels)),
    /** Null: messages leave at any hour. */
    quietHours: quietHoursSchema.nullable(),
    channels: z.array(messagingChannelSchema),
  }),
);
export type MessagingSettings = z.infer<typeof messagingSettingsSchema>;
export const messagingSettingsAnswerSchema = z.object({
  data: messagingSettingsSchema,
  code: z.literal('messaging_settings_updated').optional(),
});

export const messagingSettingsUpdateSchema = z.object({
  reminderChannels: z
    .array(z.enum(messageChannels, 'invalid_value'))
    .min(1, 'required')
    .max(3, 'too_big')
    .refine((list) => new Set(list).size === list.length, 'invalid_value'),
  quietHours: quietHoursSchema.nullable(),
});

/** PUT /settings/messaging/:channel: a secret left empty keeps the stored one. */
export const messagingChannelUpdateSchema = z.object({
  enabled: z.boolean(),
  apiUrl: apiUrl(),
  accountRef: requiredText(100),
  sender: e164(),
  secret: safeText().trim().max(500, 'too_long').default(''),
  webhookSecret: safeText().trim().max(500, 'too_long').default(''),
  /** The version read (null: the channel is new). */
  version: z.number().int().min(1).nullable(),
});
export const messagingChannelParamsSchema = z.object({ channel: z.enum(providerChannels, 'invalid_value') });

// ———————————————————————————————————————— templates

export const messageTemplateSchema = named(
  'MessageTemplate',
  z.object({
    kind: z.enum(templateKinds),
    channel: z.enum(providerChannels),
    language: z.enum(languages),
    body: z.string(),
    /** False: the built-in wording (`body` shows it). */
    custom: z.boolean(),
    whatsappTemplate: z.string().nullable(),
    placeholders: z.array(z.string()),
  }),
);
export type MessageTemplate = z.infer<typeof messageTemplateSchema>;
export const messageTemplatesSchema = z.object({ data: z.array(messageTemplateSchema) });

const templateKey = {
  kind: z.enum(templateKinds, 'invalid_value'),
  channel: z.enum(providerChannels, 'invalid_value'),
  language: z.enum(languages, 'invalid_value'),
};

/** PUT /settings/message-templates: `body` null goes back to the built-in wording. */
export const messageTemplateUpdateSchema = z
  .object({
    ...templateKey,
    body: safeText().trim().min(1, 'required').max(1000, 'too_long').nullable(),
    whatsappTemplate: safeText()
      .trim()
      .max(512, 'too_long')
      .regex(/^[a-z0-9_]*$/, 'invalid_value')
      .transform((value) => value || null)
      .nullable()
      .default(null),
  })
  .superRefine((value, ctx) => {
    if (value.body && unknownPlaceholders(value.kind, value.body).length > 0) {
      ctx.addIssue({ code: 'custom', path: ['body'], message: 'unknown_placeholder' });
    }
  });
export const messageTemplateAnswerSchema = z.object({
  data: messageTemplateSchema,
  code: z.literal('message_template_updated'),
});

export const messageTemplatePreviewRequestSchema = z.object({
  ...templateKey,
  body: safeText().max(1000, 'too_long'),
});
export const messageTemplatePreviewSchema = z.object({
  data: z.object({
    text: z.string(),
    characters: z.number().int(),
    /** SMS parts it takes (1 for WhatsApp). */
    segments: z.number().int(),
    unknownPlaceholders: z.array(z.string()),
  }),
});

// ———————————————————————————————————————— consent

export const channelConsentSchema = named(
  'ChannelConsent',
  z.object({
    id: z.uuid(),
    channel: z.enum(messageChannels),
    granted: z.boolean(),
    source: z.enum(consentSources),
    note: z.string().nullable(),
    recordedAt: instantText(),
    recordedByName: z.string().nullable(),
  }),
);
export type ChannelConsent = z.infer<typeof channelConsentSchema>;

/** The patient's consent now, per channel, and every change (newest first). */
export const patientConsentsSchema = z.object({
  data: z.object({
    current: z.array(
      z.object({
        channel: z.enum(messageChannels),
        /** Null: never asked (e-mail reminders go unless refused; SMS and WhatsApp need a yes). */
        granted: z.boolean().nullable(),
        since: instantText().nullable(),
        /** Where a message of this channel goes (null: the record has no e-mail or mobile number). */
        address: z.string().nullable(),
      }),
    ),
    history: z.array(channelConsentSchema),
  }),
});
export type PatientConsents = z.infer<typeof patientConsentsSchema>['data'];

export const patientConsentRequestSchema = z.object({
  channel: z.enum(messageChannels, 'invalid_value'),
  granted: z.boolean('invalid_value'),
  note: safeText()
    .trim()
    .max(500, 'too_long')
    .transform((value) => value || null)
    .nullable()
    .default(null),
});
export const patientConsentAnswerSchema = patientConsentsSchema.extend({ code: z.literal('consent_recorded') });

// ———————————————————————————————————————— the log

export const messageSchema = named(
  'Message',
  z.object({
    id: z.uuid(),
    /** Null: an answer to a number no patient's record has (the name is then the number). */
    patientId: z.uuid().nullable(),
    patientName: z.string(),
    appointmentId: z.uuid().nullable(),
    kind: z.enum(messageKinds),
    channel: z.enum(messageChannels),
    toAddress: z.string(),
    body: z.string(),
    status: z.enum(messageStatuses),
    error: z.string().nullable(),
    errorCode: z.string().nullable(),
    attempts: z.number().int(),
    createdAt: instantText(),
    sentAt: instantText().nullable(),
    deliveredAt: instantText().nullable(),
    readAt: instantText().nullable(),
    failedAt: instantText().nullable(),
    createdByName: z.string().nullable(),
  }),
);
export type Message = z.infer<typeof messageSchema>;

export const messagesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(20),
  patientId: z.uuid('invalid_value').optional(),
  appointmentId: z.uuid('invalid_value').optional(),
  status: z.enum(messageStatuses, 'invalid_value').optional(),
  channel: z.enum(messageChannels, 'invalid_value').optional(),
});
export const messagePageSchema = pageSchema(messageSchema);

// ———————————————————————————————————————— replies and the inbox

export const inboundMessageSchema = named(
  'InboundMessage',
  z.object({
    id: z.uuid(),
    channel: z.enum(providerChannels),
    fromAddress: z.string(),
    body: z.string(),
    receivedAt: instantText(),
    patientId: z.uuid().nullable(),
    patientName: z.string().nullable(),
    appointmentId: z.uuid().nullable(),
    appointmentStartsAt: instantText().nullable(),
    intent: z.enum(replyIntents),
    outcome: z.enum(replyOutcomes),
    handledAt: instantText().nullable(),
    handledByName: z.string().nullable(),
    /** WhatsApp answers free text only within 24 h of the patient's last message. */
    canAnswer: z.boolean(),
    version: z.number().int(),
  }),
);
export type InboundMessage = z.infer<typeof inboundMessageSchema>;

export const inboxStates = ['open', 'all'] as const;
export const inboxQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(20),
  state: z.enum(inboxStates, 'invalid_value').default('open'),
});
export const inboxPageSchema = pageSchema(inboundMessageSchema).extend({ open: z.number().int() });

export const inboxAnswerRequestSchema = z.object({
  body: requiredText(1000),
  version: z.number('invalid_value').int().min(1),
});
export const inboxCloseRequestSchema = z.object({ version: z.number('invalid_value').int().min(1) });
export const inboxItemAnswerSchema = z.object({
  data: inboundMessageSchema,
  code: z.enum(['inbox_answered', 'inbox_closed']),
});

// ———————————————————————————————————————— the opt-out link (public)

export const optOutParamsSchema = z.object({
  token: safeText().trim().min(20, 'invalid_value').max(200, 'invalid_value'),
});
export const optOutLinkSchema = z.object({
  data: z.object({
    clinicName: z.string(),
    channel: z.enum(messageChannels),
    language: z.enum(languages),
    /** True once the patient said no (this link or before). */
    optedOut: z.boolean(),
  }),
  code: z.literal('opted_out').optional(),
});
