import { and, eq, sql } from 'drizzle-orm';
import { clinicBrandColumns } from '../../db/clinic-brand.ts';
import { sendInOrder } from '../../db/indexed-search.ts';
import { sameClinicRow } from '../../db/records.ts';
import { accounts, appointmentLinks, appointments, patients, users } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import type { ClaimedJob, JobContext, JobHandler } from '../jobs/jobs.worker.ts';
import { dateAndTime } from '../messages/message-texts.ts';
import { withOptOutLink } from '../messages/opt-out.mail.ts';
import { chooseChannel, clinicMessaging, consentsOf, logEmail, queueProviderMessage } from '../messages/outbox.ts';
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

export async function loadReminder({ tx, accountId }: JobContext, appointmentId: string) {
  const [row] = await tx
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
    .where(and(eq(appointments.accountId, accountId), eq(appointments.id, appointmentId)))
    .for('update', { of: appointments });
  return row;
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

export function appointmentReminderHandler(deps: { mailer: Mailer; publicUrl: string }): JobHandler {
  return {
    async run(ctx, job) {
      const appointmentId = String(job.payload.appointmentId ?? job.key);
      const plannedStart = String(job.payload.startsAt ?? '');
      // The appointment and the clinic's channels in one round trip (sendInOrder pipelines them).
      const [appointment, clinic] = await sendInOrder(ctx.tx, [
        () => loadReminder(ctx, appointmentId),
        () => clinicMessaging(ctx),
      ]);
      if (
        !appointment ||
        appointment.deletedAt !== null ||
        appointment.status !== 'scheduled' ||
        appointment.startsAt.getTime() !== new Date(plannedStart).getTime() ||
        appointment.startsAt.getTime() <= Date.now()
      ) {
        return; // The booking changed since the plan: nothing to send, the job is done.
      }
      // The channel that reaches the patient now (issue 38): the clinic's order, the patient's consent.
      const patient = { ...appointment, id: appointment.patientId, language: languageOf(appointment.language) };
      const choice = chooseChannel(patient, clinic.reminderChannels, await consentsOf(ctx, patient.id), clinic);
      if (!choice) {
        await ctx.tx
          .update(appointments)
          .set({ reminderState: 'none' })
          .where(and(eq(appointments.accountId, ctx.accountId), eq(appointments.id, appointmentId)));
        return;
      }
      if (choice.channel !== 'email') {
        const when = dateAndTime(appointment.startsAt, appointment.timeZone, patient.language);
        await queueProviderMessage(ctx, {
          patientId: patient.id,
          appointmentId,
          kind: 'appointment_reminder',
          channel: choice.channel,
          to: choice.address,
          language: patient.language,
          text: {
            kind: 'appointment_reminder',
            values: {
              patient: appointment.firstName,
              clinic: appointment.clinicName,
              professional: appointment.professionalName,
              clinic_phone: appointment.clinicPhone ?? '',
              ...when,
            },
          },
        });
        return; // The message's own job sends it and marks the reminder sent.
      }
      const email = choice.address;
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
        patientId: patient.id,
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
