import type { InboundMessage, Message, MessageChannel } from '@odontia/shared/schemas/messages';

/*
 * What the messages' screens say, worked out apart from them (and tested): the moment that goes
 * with a message's status, a reply's explanation, a channel list moved one step, quiet hours as
 * times of day.
 */

/** The instant that goes with the message's status ("entregado 10:32"): null when none yet. */
export function statusMoment(
  message: Pick<Message, 'status' | 'createdAt' | 'sentAt' | 'deliveredAt' | 'readAt' | 'failedAt'>,
): string | null {
  switch (message.status) {
    case 'read':
      return message.readAt ?? message.deliveredAt ?? message.sentAt;
    case 'delivered':
      return message.deliveredAt ?? message.sentAt;
    case 'sent':
      return message.sentAt;
    case 'failed':
      return message.failedAt;
    case 'queued':
    case 'sending':
      return message.createdAt;
    default:
      return null;
  }
}

/** Bootstrap classes of a status badge (4.5:1 in both themes). */
export const statusBadgeClass: Record<Message['status'], string> = {
  queued: 'text-bg-secondary',
  sending: 'text-bg-secondary',
  sent: 'text-bg-info',
  delivered: 'text-bg-success',
  read: 'text-bg-success',
  failed: 'text-bg-danger',
  cancelled: 'bg-body-secondary text-body',
};

/** The newest reminder of an appointment in its log (newest first): the one whose delivery counts. */
export function reminderOf<M extends Pick<Message, 'kind'>>(messages: readonly M[]): M | null {
  return messages.find((message) => message.kind === 'appointment_reminder') ?? null;
}

/**
 * A reply explained in words: `messaging:replies.<intent>.<outcome>`. A reply from a number we
 * never wrote, or a word the app did not know, is one sentence whatever its intent.
 */
export function replyExplanationKey(reply: Pick<InboundMessage, 'intent' | 'outcome'>): string {
  if (reply.outcome === 'unknown_sender') return 'replies.unknownSender';
  if (reply.intent === 'unknown' || reply.outcome === 'inbox') return 'replies.unknown';
  if (reply.intent === 'stop' || reply.intent === 'start') return `replies.${reply.intent}`;
  return `replies.${reply.intent}.${reply.outcome}`;
}

/** Every key replyExplanationKey may answer (the catalogs must have each). */
export const replyExplanationKeys = [
  'replies.unknownSender',
  'replies.unknown',
  'replies.stop',
  'replies.start',
  ...(['confirm', 'cancel'] as const).flatMap((intent) =>
    (['applied', 'already', 'too_late', 'no_appointment'] as const).map((outcome) => `replies.${intent}.${outcome}`),
  ),
];

/** The channel list with `channel` moved one place up (-1) or down (+1); unchanged at an end. */
export function moveChannel(list: readonly MessageChannel[], channel: MessageChannel, step: -1 | 1): MessageChannel[] {
  const from = list.indexOf(channel);
  const to = from + step;
  if (from < 0 || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  next.splice(from, 1);
  next.splice(to, 0, channel);
  return next;
}

/** A minute of the day (0–1439) as an input's "HH:MM". */
export function timeOfMinutes(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  return `${String(hours).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** An input's "HH:MM" as a minute of the day; null when it is not a time. */
export function minutesOfTime(text: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** The text with `{{name}}` put at the caret (replacing the selection), and where the caret goes after. */
export function insertPlaceholder(
  text: string,
  name: string,
  selection: { start: number; end: number },
): { text: string; caret: number } {
  const token = `{{${name}}}`;
  const start = Math.max(0, Math.min(selection.start, text.length));
  const end = Math.max(start, Math.min(selection.end, text.length));
  return { text: `${text.slice(0, start)}${token}${text.slice(end)}`, caret: start + token.length };
}

/** How a patient may answer a reminder themself: a reply, the e-mail's link, the portal. */
export const patientAnswerChannels = ['sms', 'whatsapp', 'reminder_link', 'online'] as const;
export type PatientAnswerChannel = (typeof patientAnswerChannels)[number];

/**
 * The channel of the patient's own cancellation: its audit event (newest first, no user; its
 * `after.channel`), else the channel of the reminder it answered (an e-mail's is its link).
 */
export function patientAnswerChannel(
  changes: readonly { action: string; userId: string | null; after: Record<string, unknown> | null }[],
  reminder: Pick<Message, 'channel'> | null,
): PatientAnswerChannel | null {
  const event = changes.find(
    (change) =>
      change.userId === null &&
      (change.action === 'appointment_cancelled' || change.action === 'appointment_cancelled_online'),
  );
  if (event?.action === 'appointment_cancelled_online') return 'online';
  const said = event?.after?.channel;
  if ((patientAnswerChannels as readonly unknown[]).includes(said)) return said as PatientAnswerChannel;
  if (!reminder) return null;
  return reminder.channel === 'email' ? 'reminder_link' : reminder.channel;
}
