import { and, eq, isNull } from 'drizzle-orm';
import { sameClinicRow } from '../../db/records.ts';
import { accounts, patients, recalls, treatments } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import type { JobHandler } from '../jobs/jobs.worker.ts';
import { recallMail } from './recall.mail.ts';
import { insertAttempt, updateRecall } from './recalls.repository.ts';

/**
 * The `recall_message` job (issue 38): the recall's automatic e-mail. It re-reads the recall (locked)
 * in the job's transaction and sends nothing when it no longer applies — contacted, booked or closed
 * since, due on another day, the clinic stopped sending them, the patient inactive or without
 * e-mail. Otherwise it mails the patient in their language and logs the e-mail as an attempt (the
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
        !row.active ||
        row.patientDeleted !== null ||
        !row.email
      ) {
        return; // Nothing to send any more: the job is done.
      }
      await deps.mailer.send(
        recallMail({
          language: languageOf(row.language),
          to: row.email,
          firstName: row.firstName,
          sex: row.sex,
          clinicName: row.clinicName,
          clinicPhone: row.clinicPhone,
          dueOn: row.dueOn,
          reason: row.reason ?? row.treatmentName,
        }),
      );
      const writer = { tx: ctx.tx, accountId: ctx.accountId, userId: null };
      const attemptId = newId();
      await insertAttempt(writer, {
        id: attemptId,
        recallId,
        channel: 'email',
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
        after: { status: 'contacted', attemptId, to: row.email, attempts: job.attempts },
      });
    },
  };
}
