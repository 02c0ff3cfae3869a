import type { ProviderChannel } from '@odontia/shared/schemas/messages';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { clinicBrandColumns } from '../../db/clinic-brand.ts';
import { sendInOrder } from '../../db/indexed-search.ts';
import { sameClinicRow } from '../../db/records.ts';
import { accounts, appointmentLinks, appointments, patients, users } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import {
  type ClaimedJob,
  type JobAlone,
  type JobContext,
  type JobHandler,
  type JobRetry,
  jobAlone,
} from '../jobs/jobs.worker.ts';
import { dateAndTime } from '../messages/message-texts.ts';
import { withOptOutLink } from '../messages/opt-out.mail.ts';
import {
  chooseChannel,
  clinicMessaging,
  consentsOfPatients,
  logEmail,
  type NewProviderMessage,
  queueProviderMessages,
} from '../messages/outbox.ts';
import { reminderMail } from './reminder.mail.ts';

/**
 * The `appointment_reminder` job (issue 16). It re-reads the appointment in the clinic's
 * transaction and sends nothing when the booking changed since it was planned (no longer
 * scheduled, deleted, moved, already started); otherwise it makes the confirm and cancel links,
 * mails them, and marks the appointment `sent` — all in the job's transaction, so a failed send
 * leaves neither links nor state behind and the queue retries.
 */

/** What the appointment shows after the last attempt: short, nothing of the server's internals. */
export const reminderFailedMessage = 'The reminder e-mail could not be sent';

export async function loadReminder(ctx: JobContext, appointmentId: string) {
  const [row] = await loadReminders(ctx, [appointmentId]);
  return row;
}

/** Appointments with what their reminders say, locked for the reminder's decision. */
export function loadReminders({ tx, accountId }: JobContext, appointmentIds: readonly string[]) {
  return tx
    .select({
      appointmentId: appointments.id,
      status: appointments.status,
      reminderState: appointments.reminderState,
      deletedAt: appointments.deletedAt,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
      timeZone: appointments.timeZone,
      patientId: appointments.patientId,
      email: patients.email,
      phoneArea: patients.phoneArea,
      phone: patients.phone,
      active: patients.active,
      deceasedOn: patients.deceasedOn,
      firstName: patients.firstName,
      sex: patients.sex,
      language: patients.language,
      professionalName: users.completeName,
      clinicName: accounts.clinicName,
      ...clinicBrandColumns,
      clinicAddress: accounts.address,
      clinicPhone: accounts.phone,
    })
    .from(appointments)
    .innerJoin(patients, sameClinicRow(patients, appointments, appointments.patientId))
    .innerJoin(users, sameClinicRow(users, appointments, appointments.professionalId))
    .innerJoin(accounts, eq(accounts.id, appointments.accountId))
    .where(and(eq(appointments.accountId, accountId), inArray(appointments.id, [...appointmentIds])))
    .for('update', { of: appointments });
}

/** What every mail about an appointment says of it: to whom, the clinic, who sees the patient and when. */
export function appointmentMailOf(appointment: NonNullable<Awaited<ReturnType<typeof loadReminder>>>, to: string) {
  return {
    language: languageOf(appointment.language),
    to,
    firstName: appointment.firstName,
    sex: appointment.sex,
    clinicName: appointment.clinicName,
    clinicColor: appointment.brandColor,
    clinicAddress: appointment.clinicAddress,
    clinicPhone: appointment.clinicPhone,
    professionalName: appointment.professionalName,
    startsAt: appointment.startsAt,
    endsAt: appointment.endsAt,
    timeZone: appointment.timeZone,
  };
}

type Reminder = NonNullable<Awaited<ReturnType<typeof loadReminder>>>;

/** Reminder jobs of a clinic read, decided and written together (issue 38: a minute's reminders of many clinics). */
const batchSize = 25;

export function appointmentReminderHandler(deps: { mailer: Mailer; publicUrl: string }): JobHandler {
  const appointmentIdOf = (job: ClaimedJob) => String(job.payload.appointmentId ?? job.key);

  /**
   * Re-reads the appointments and sends nothing for a booking that changed since it was planned;
   * the others get the first of the clinic's channels that reaches the patient now (issue 38): no
   * channel marks the reminder `none`, SMS and WhatsApp queue a message (its own job sends it and
   * marks the reminder sent), e-mail is sent by the job alone (a mail cannot be taken back when a
   * batch rolls back).
   */
  async function runAll(ctx: JobContext, list: readonly ClaimedJob[], alone: boolean) {
    const answers = new Map<string, JobRetry | JobAlone>();
    const [rows, clinic] = await sendInOrder(ctx.tx, [
      () => loadReminders(ctx, list.map(appointmentIdOf)),
      () => clinicMessaging(ctx),
    ]);
    const byId = new Map(rows.map((row) => [row.appointmentId, row]));
    const due = list.flatMap((job) => {
      const appointment = byId.get(appointmentIdOf(job));
      const plannedStart = new Date(String(job.payload.startsAt ?? '')).getTime();
      const unchanged =
        appointment &&
        appointment.deletedAt === null &&
        appointment.status === 'scheduled' &&
        appointment.startsAt.getTime() === plannedStart &&
        appointment.startsAt.getTime() > Date.now();
      return unchanged ? [{ job, appointment }] : [];
    });
    const consents = await consentsOfPatients(
      ctx,
      due.map(({ appointment }) => appointment.patientId),
    );
    const unreachable: string[] = [];
    const messages: NewProviderMessage[] = [];
    for (const { job, appointment } of due) {
      const patient = { ...appointment, id: appointment.patientId, language: languageOf(appointment.language) };
      const choice = chooseChannel(patient, clinic.reminderChannels, consents.get(patient.id) ?? new Map(), clinic);
      if (!choice) unreachable.push(appointment.appointmentId);
      else if (choice.channel !== 'email') messages.push(reminderMessage(appointment, choice.channel, choice.address));
      else if (alone) await mailReminder(ctx, job, appointment, choice.address);
      else answers.set(job.id, jobAlone);
    }
    if (unreachable.length > 0) {
      await ctx.tx
        .update(appointments)
        .set({ reminderState: 'none' })
        .where(and(eq(appointments.accountId, ctx.accountId), inArray(appointments.id, unreachable)));
    }
    await queueProviderMessages(ctx, messages);
    return answers;
  }

  function reminderMessage(appointment: Reminder, channel: ProviderChannel, to: string): NewProviderMessage {
    const language = languageOf(appointment.language);
    return {
      patientId: appointment.patientId,
      appointmentId: appointment.appointmentId,
      kind: 'appointment_reminder',
      channel,
      to,
      language,
      text: {
        kind: 'appointment_reminder',
        values: {
          patient: appointment.firstName,
          clinic: appointment.clinicName,
          professional: appointment.professionalName,
          clinic_phone: appointment.clinicPhone ?? '',
          ...dateAndTime(appointment.startsAt, appointment.timeZone, language),
        },
      },
    };
  }

  /** Makes the confirm and cancel links, mails them and marks the appointment `sent`, in the job's transaction. */
  async function mailReminder(ctx: JobContext, job: ClaimedJob, appointment: Reminder, email: string) {
    const appointmentId = appointment.appointmentId;
    const language = languageOf(appointment.language);
    const link = async (purpose: 'confirm' | 'cancel') => {
      const token = newToken();
      await ctx.tx.insert(appointmentLinks).values({
        accountId: ctx.accountId,
        id: newId(),
        appointmentId,
        purpose,
        tokenHash: hashToken(token),
        expiresAt: appointment.endsAt,
      });
      return `${deps.publicUrl}appointment/${purpose}/${token}`;
    };
    const confirmLink = await link('confirm');
    const cancelLink = await link('cancel');
    const mail = reminderMail({
      ...appointmentMailOf(appointment, email),
      language,
      confirmLink,
      cancelLink,
    });
    const optOutToken = await logEmail(ctx, {
      patientId: appointment.patientId,
      appointmentId,
      kind: 'appointment_reminder',
      to: email,
      language,
      body: mail.text,
    });
    await deps.mailer.send(withOptOutLink(mail, language, `${deps.publicUrl}messages/opt-out/${optOutToken}`));
    await ctx.tx
      .update(appointments)
      .set({ reminderState: 'sent', reminderSentAt: sql`now()`, reminderError: null })
      .where(and(eq(appointments.accountId, ctx.accountId), eq(appointments.id, appointmentId)));
    await recordAuditEvent(ctx.tx, {
      accountId: ctx.accountId,
      userId: null,
      patientId: appointment.patientId,
      action: 'appointment_reminder_sent',
      entity: 'appointment',
      entityId: appointmentId,
      after: { to: email, channel: 'email', startsAt: appointment.startsAt.toISOString(), attempts: job.attempts },
    });
  }

  return {
    async run(ctx, job) {
      await runAll(ctx, [job], true);
    },

    batch: {
      size: batchSize,
      run: (ctx, list) => runAll(ctx, list, false),
    },

    async onFailed(ctx, job: ClaimedJob) {
      const appointmentId = String(job.payload.appointmentId ?? job.key);
      const [appointment] = await ctx.tx
        .update(appointments)
        .set({ reminderState: 'failed', reminderError: reminderFailedMessage })
        .where(
          and(
            eq(appointments.accountId, ctx.accountId),
            eq(appointments.id, appointmentId),
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
        entityId: appointmentId,
        after: { attempts: job.attempts, error: reminderFailedMessage },
      });
    },
  };
}
