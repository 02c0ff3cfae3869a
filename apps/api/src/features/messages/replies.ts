import type { ProviderChannel, ReplyOutcome } from '@odontia/shared/schemas/messages';
import { and, desc, eq, gte } from 'drizzle-orm';
import { accounts, inboundMessages, messages, patientChannelConsents, patients } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newId } from '../../lib/ids.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { applyPatientAnswer } from '../reminders/appointment-links.service.ts';
import { loadReminder } from '../reminders/reminder.job.ts';
import { normalizedAddress, replyIntent } from './message-rules.ts';
import { optOutConfirmation } from './message-texts.ts';
import { queueProviderMessage } from './outbox.ts';

/**
 * A patient's reply (issue 38), in the clinic's transaction: kept once (the provider's id is its
 * key: a webhook delivered twice is one reply), matched to the last message we sent that number,
 * and applied when it is a word we know — "1"/"SÍ" confirms and "2"/"NO" cancels the reminded
 * appointment (audited, the agenda shows it, a cancellation frees the slot for the waiting list),
 * "BAJA"/"STOP" records the patient's no for the channel, "ALTA"/"START" a yes. Anything else, or a
 * word that came too late, waits in the front desk's inbox.
 */

type Clinic = { tx: TenantTx; accountId: string };

/** How long after a reminder a "1" or a "2" still answers it. */
const replyWindowDays = 14;

export interface IncomingReply {
  channel: ProviderChannel;
  providerMessageId: string;
  from: string;
  body: string;
  receivedAt: Date;
  ip: string;
}

export async function receiveReply(ctx: Clinic, reply: IncomingReply): Promise<'new' | 'duplicate'> {
  const { tx, accountId } = ctx;
  const from = normalizedAddress(reply.from);
  const body = reply.body.slice(0, 4000);
  const id = newId();
  // The last message we sent this number on this channel: its patient and its appointment.
  const [last] = await tx
    .select({
      id: messages.id,
      patientId: messages.patientId,
      appointmentId: messages.appointmentId,
      kind: messages.kind,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(
      and(
        eq(messages.accountId, accountId),
        eq(messages.channel, reply.channel),
        eq(messages.toAddress, from),
        gte(messages.createdAt, new Date(reply.receivedAt.getTime() - 90 * 86_400_000)),
      ),
    )
    .orderBy(desc(messages.createdAt))
    .limit(1);
  const intent = replyIntent(body);
  const inserted = await tx
    .insert(inboundMessages)
    .values({
      accountId,
      id,
      channel: reply.channel,
      providerMessageId: reply.providerMessageId.slice(0, 200),
      fromAddress: from.slice(0, 40),
      body,
      receivedAt: reply.receivedAt,
      patientId: last?.patientId ?? null,
      messageId: last?.id ?? null,
      intent,
      outcome: 'inbox',
    })
    .onConflictDoNothing()
    .returning({ id: inboundMessages.id });
  if (inserted.length === 0) return 'duplicate';

  let outcome: ReplyOutcome = 'inbox';
  let appointmentId: string | null = null;
  if (!last?.patientId) {
    outcome = 'unknown_sender';
  } else if (intent === 'stop' || intent === 'start') {
    await tx.insert(patientChannelConsents).values({
      accountId,
      id: newId(),
      patientId: last.patientId,
      channel: reply.channel,
      granted: intent === 'start',
      source: 'reply',
      inboundMessageId: id,
    });
    await recordAuditEvent(tx, {
      accountId,
      userId: null,
      patientId: last.patientId,
      action: 'patient_consent_recorded',
      entity: 'patient',
      entityId: last.patientId,
      after: { channel: reply.channel, granted: intent === 'start', source: 'reply' },
      ip: reply.ip,
    });
    if (intent === 'stop') await confirmOptOut(ctx, last.patientId, reply.channel, from, id);
    outcome = 'applied';
  } else if (intent === 'confirm' || intent === 'cancel') {
    const reminded =
      last.kind === 'appointment_reminder' &&
      last.appointmentId &&
      reply.receivedAt.getTime() - last.createdAt.getTime() < replyWindowDays * 86_400_000
        ? last.appointmentId
        : null;
    if (!reminded) {
      outcome = 'no_appointment';
    } else {
      appointmentId = reminded;
      outcome = await answerAppointment(ctx, {
        appointmentId: reminded,
        purpose: intent,
        channel: reply.channel,
        ip: reply.ip,
        now: reply.receivedAt,
      });
    }
  }
  // What was applied, or was already so, needs no one; the rest waits in the inbox.
  const handled = outcome === 'applied' || outcome === 'already';
  await tx
    .update(inboundMessages)
    .set({ outcome, appointmentId, ...(handled ? { handledAt: new Date() } : {}) })
    .where(and(eq(inboundMessages.accountId, accountId), eq(inboundMessages.id, id)));
  return 'new';
}

async function answerAppointment(
  ctx: Clinic,
  answer: { appointmentId: string; purpose: 'confirm' | 'cancel'; channel: ProviderChannel; ip: string; now: Date },
): Promise<ReplyOutcome> {
  const appointment = await loadReminder(ctx, answer.appointmentId);
  if (!appointment || appointment.deletedAt !== null) return 'too_late';
  if (appointment.status === 'cancelled') return answer.purpose === 'cancel' ? 'already' : 'too_late';
  if (appointment.status !== 'scheduled' || appointment.startsAt.getTime() <= answer.now.getTime()) return 'too_late';
  if (answer.purpose === 'confirm' && appointment.reminderState === 'confirmed') return 'already';
  await applyPatientAnswer(ctx.tx, {
    accountId: ctx.accountId,
    appointmentId: answer.appointmentId,
    patientId: appointment.patientId,
    status: appointment.status,
    purpose: answer.purpose,
    channel: answer.channel,
    userId: null,
    ip: answer.ip,
    now: answer.now,
  });
  return 'applied';
}

/** A short "done" in the patient's language, on the channel they wrote from (inside WhatsApp's 24 hours). */
async function confirmOptOut(ctx: Clinic, patientId: string, channel: ProviderChannel, to: string, replyId: string) {
  const [patient] = await ctx.tx
    .select({ language: patients.language })
    .from(patients)
    .where(and(eq(patients.accountId, ctx.accountId), eq(patients.id, patientId)));
  const [clinic] = await ctx.tx
    .select({ clinicName: accounts.clinicName })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  const language = languageOf(patient?.language ?? 'es');
  await queueProviderMessage(ctx, {
    patientId,
    kind: 'opt_out_confirmation',
    channel,
    to,
    language,
    text: { body: optOutConfirmation[language].replace('{clinic}', clinic?.clinicName ?? '') },
    inReplyTo: replyId,
  });
}
