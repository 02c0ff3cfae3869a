import { clinicToday } from '@odontia/shared/clinic-time';
import Big from 'big.js';
import { and, eq, isNull } from 'drizzle-orm';
import { sameClinicRow } from '../../db/records.ts';
import { accounts, patients, paymentPlanInstalments, paymentPlans } from '../../db/schema/index.ts';
import type { Mailer } from '../../lib/mail.ts';
import { languageOf } from '../../lib/patient-mail.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import type { JobHandler } from '../jobs/jobs.worker.ts';
import { chooseChannel, clinicMessaging, consentsOf, logEmail, queueProviderMessage } from '../messages/outbox.ts';
import { instalmentReminderMail, instalmentReminderText, type ReminderWhen } from './instalment-reminder.mail.ts';
import { findPlan } from './payment-plans.repository.ts';

/**
 * The `instalment_reminder` job (issue 40): the patient's reminder N days before an instalment is
 * due (`when: 'before'`) or the day after it fell due unpaid (`when: 'overdue'`). One job per
 * instalment and moment (its key), so each is sent once. It checks again, in the job's transaction,
 * that it still applies: the plan active, the instalment not paid, the clinic still sending them
 * (`instalment_reminder_days` > 0 for the one before), the patient reachable on one of the clinic's
 * channels with consent (e-mail or SMS: WhatsApp needs a template approved per kind, which this
 * kind has not). Company customers (no patient) get none: the front desk handles them.
 */
export function instalmentReminderHandler(deps: { mailer: Mailer }): JobHandler {
  return {
    async run(ctx, job) {
      const instalmentId = String(job.payload.instalmentId ?? '');
      const when: ReminderWhen = job.payload.when === 'overdue' ? 'overdue' : 'before';
      const [row] = await ctx.tx
        .select({
          instalment: paymentPlanInstalments,
          planId: paymentPlans.id,
          planStatus: paymentPlans.status,
          patientId: paymentPlans.patientId,
          count: paymentPlans.instalmentCount,
          currency: paymentPlans.currency,
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
          days: accounts.instalmentReminderDays,
          timeZone: accounts.timeZone,
        })
        .from(paymentPlanInstalments)
        .innerJoin(paymentPlans, sameClinicRow(paymentPlans, paymentPlanInstalments, paymentPlanInstalments.planId))
        .innerJoin(patients, sameClinicRow(patients, paymentPlans, paymentPlans.patientId))
        .innerJoin(accounts, eq(accounts.id, paymentPlanInstalments.accountId))
        .where(
          and(
            eq(paymentPlanInstalments.accountId, ctx.accountId),
            eq(paymentPlanInstalments.id, instalmentId),
            isNull(patients.deletedAt),
          ),
        )
        .for('update', { of: paymentPlans });
      if (row?.planStatus !== 'active' || (when === 'before' && row.days <= 0)) return;
      const today = clinicToday(row.timeZone);
      if (when === 'overdue' && row.instalment.dueOn >= today) return;
      const plan = await findPlan(ctx, row.planId);
      if (!plan) return;
      const paid = new Big(plan.paid);
      const owed = new Big(row.instalment.cumulative).minus(paid);
      if (owed.lte(0)) return; // Paid: nothing to remind.
      const amount = owed.gt(row.instalment.amount) ? row.instalment.amount : owed.toFixed(2);
      const clinic = await clinicMessaging(ctx);
      const patient = { ...row, id: row.patientId as string, language: languageOf(row.language) };
      const channels = clinic.reminderChannels.filter((channel) => channel !== 'whatsapp');
      const choice = chooseChannel(patient, channels, await consentsOf(ctx, patient.id), clinic);
      if (!choice) return;
      const document = plan.documentNumber
        ? plan.pointOfService
          ? `${plan.pointOfService}-${plan.documentNumber}`
          : plan.documentNumber
        : '';
      const input = {
        language: patient.language,
        when,
        firstName: row.firstName,
        sex: row.sex,
        clinicName: row.clinicName,
        number: row.instalment.number,
        count: row.count,
        amount,
        currency: row.currency,
        dueOn: row.instalment.dueOn,
        document,
      };
      if (choice.channel === 'email') {
        const mail = instalmentReminderMail({ ...input, to: choice.address });
        await logEmail(ctx, {
          patientId: patient.id,
          kind: 'instalment_reminder',
          to: choice.address,
          language: patient.language,
          body: mail.text,
        });
        await deps.mailer.send(mail);
      } else if (choice.channel === 'sms') {
        await queueProviderMessage(ctx, {
          patientId: patient.id,
          kind: 'instalment_reminder',
          channel: 'sms',
          to: choice.address,
          language: patient.language,
          text: { body: instalmentReminderText(input) },
        });
      }
      await recordAuditEvent(ctx.tx, {
        accountId: ctx.accountId,
        userId: null,
        patientId: patient.id,
        action: 'instalment_reminder_sent',
        entity: 'payment_plan',
        entityId: row.planId,
        after: { instalment: row.instalment.number, when, amount, channel: choice.channel, to: choice.address },
      });
    },
  };
}
