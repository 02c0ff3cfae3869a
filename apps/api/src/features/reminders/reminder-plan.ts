import { and, eq } from 'drizzle-orm';
import { accounts, appointments } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { cancelQueuedJobs, enqueueJob } from '../jobs/jobs.repository.ts';

/**
 * When an appointment's e-mail reminder goes out (issue 16). The appointments service calls
 * `planReminder` when an appointment is booked, moved or restored and `dropReminder` when it is
 * cancelled, completed or deleted — in its own transaction, so the queue always matches the agenda.
 * The job carries the start it was planned for: the worker sends nothing if the appointment no
 * longer starts then or is no longer scheduled, whatever happened in between.
 */

export const reminderJobKind = 'appointment_reminder';

/** A reminder planned later than this before the start is not worth sending (booked at the last minute). */
const lastUsefulMinutes = 60;

type Clinic = { tx: TenantTx; accountId: string };

export async function planReminder(
  ctx: Clinic,
  appointment: { id: string; startsAt: Date; patientHasEmail: boolean },
  now: Date = new Date(),
): Promise<'planned' | 'none'> {
  await cancelQueuedJobs(ctx, reminderJobKind, appointment.id);
  const [clinic] = await ctx.tx
    .select({ enabled: accounts.remindersEnabled, leadMinutes: accounts.reminderLeadMinutes })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  const start = appointment.startsAt.getTime();
  const useful = start - now.getTime() > lastUsefulMinutes * 60_000;
  const state = clinic?.enabled && appointment.patientHasEmail && useful ? 'planned' : 'none';
  if (state === 'planned' && clinic) {
    const runAt = new Date(Math.max(now.getTime(), start - clinic.leadMinutes * 60_000));
    await enqueueJob(ctx, {
      kind: reminderJobKind,
      key: appointment.id,
      runAt,
      payload: { appointmentId: appointment.id, startsAt: appointment.startsAt.toISOString() },
    });
  }
  await ctx.tx
    .update(appointments)
    .set({ reminderState: state, reminderError: null })
    .where(and(eq(appointments.accountId, ctx.accountId), eq(appointments.id, appointment.id)));
  return state;
}

/** The appointment left the agenda (cancelled, completed, moved away, deleted): its reminder is not sent. */
export async function dropReminder(ctx: Clinic, appointmentId: string): Promise<void> {
  await cancelQueuedJobs(ctx, reminderJobKind, appointmentId);
}
