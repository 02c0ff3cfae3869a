import { and, eq, isNull } from 'drizzle-orm';
import { sameClinicRow } from '../../db/records.ts';
import { accounts, patients, recalls, treatments } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import type { JobHandler } from '../jobs/jobs.worker.ts';
import { chooseChannel, clinicMessaging, consentsOf, logEmail, queueProviderMessage } from '../messages/outbox.ts';
import { formatRecallDay, recallMail } from './recall.mail.ts';
import { insertAttempt, updateRecall } from './recalls.repository.ts';

/**
 * The `recall_message` job (issue 38): the recall's automatic e-mail. It re-reads the recall (locked)
 * in the job's transaction and sends nothing when it no longer applies — contacted, booked or closed
 * since, due on another day, the clinic stopped sending them, no channel reaches the patient (issue 38:
 * the clinic's channels in order, with the patient's consent; none to an inactive or deceased one).
 * Otherwise it writes to the patient in their language and logs the message as an attempt (the
 * recall is then contacted), all in the job's transaction: a failed send leaves nothing behind and
 * the queue retries; a sent one is never sent again (the recall is no longer pending).
 */
export function recallMessageHandler(deps: { mailer: Mailer }): JobHandler {
  return {
    async run(ctx, job) {
      const recallId = String(job.payload.recallId ?? job.key);
      const [row] = await ctx.tx
        .select({
          status: recalls.status,
          dueOn: recalls.dueOn,
          reason: recalls.reason,
          patientId: recalls.patientId,
          treatmentName: treatments.name,
          email: patients.email,
          phoneArea: patients.phoneArea,
          phone: patients.phone,
          deceasedOn: patients.deceasedOn,
          active: patients.active,
          patientDeleted: patients.deletedAt,
          firstName: patients.firstName,
          sex: patients.sex,
          language: patients.language,
          clinicName: accounts.clinicName,
          clinicPhone: accounts.phone,
          days: accounts.recallMessageDays,
        })
        .from(recalls)
        .innerJoin(patients, sameClinicRow(patients, recalls, recalls.patientId))
        .innerJoin(treatments, sameClinicRow(treatments, recalls, recalls.treatmentId))
        .innerJoin(accounts, eq(accounts.id, recalls.accountId))
        .where(and(eq(recalls.accountId, ctx.accountId), eq(recalls.id, recallId), isNull(recalls.deletedAt)))
        .for('update', { of: recalls });
      if (
        row?.status !== 'pending' ||
        row.dueOn !== String(job.payload.dueOn ?? '') ||
        row.days <= 0 ||
        row.patientDeleted !== null
      ) {
        return; // Nothing to send any more: the job is done.
      }
      // The clinic's channels in order, the patient's consent (issue 38); none: the front desk calls.
      const clinic = await clinicMessaging(ctx);
      const patient = { ...row, id: row.patientId, language: languageOf(row.language) };
      const choice = chooseChannel(patient, clinic.reminderChannels, await consentsOf(ctx, patient.id), clinic);
      if (!choice) return;
      if (choice.channel === 'email') {
        const mail = recallMail({
          language: patient.language,
          to: choice.address,
          firstName: row.firstName,
          sex: row.sex,
          clinicName: row.clinicName,
          clinicPhone: row.clinicPhone,
          dueOn: row.dueOn,
          reason: row.reason ?? row.treatmentName,
        });
        await logEmail(ctx, {
          patientId: patient.id,
          kind: 'recall',
          to: choice.address,
          language: patient.language,
          body: mail.text,
        });
        await deps.mailer.send(mail);
      } else {
        await queueProviderMessage(ctx, {
          patientId: patient.id,
          kind: 'recall',
          channel: choice.channel,
          to: choice.address,
          language: patient.language,
          text: {
            kind: 'recall',
            values: {
              patient: row.firstName,
              clinic: row.clinicName,
              clinic_phone: row.clinicPhone ?? '',
              treatment: row.reason ?? row.treatmentName,
              due_date: formatRecallDay(row.dueOn, patient.language),
            },
          },
        });
      }
      const writer = { tx: ctx.tx, accountId: ctx.accountId, userId: null };
      const attemptId = newId();
      await insertAttempt(writer, {
        id: attemptId,
        recallId,
        channel: choice.channel === 'email' ? 'email' : 'message',
        outcome: 'sent',
        note: null,
        automatic: true,
      });
      await updateRecall(writer, recallId, { status: 'contacted', lastAttemptAt: new Date() });
      await recordAuditEvent(ctx.tx, {
        accountId: ctx.accountId,
        userId: null,
        patientId: row.patientId,
        action: 'recall_message_sent',
        entity: 'recall',
        entityId: recallId,
        before: { status: 'pending' },
        after: { status: 'contacted', attemptId, to: choice.address, channel: choice.channel, attempts: job.attempts },
      });
    },
  };
}
