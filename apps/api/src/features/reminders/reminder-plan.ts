import { and, eq } from 'drizzle-orm';
import { accounts, appointments } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { cancelQueuedJobs, enqueueJob } from '../jobs/jobs.repository.ts';

/**
 * When an appointment's e-mail reminder goes out (issue 16). The appointments service calls
 * `reminderPlan` + `queueReminder` when an appointment is booked or moved (a new row),
 * `planReminder` when one is restored or changes patient, and `dropReminder` when it is
 * cancelled, completed or deleted — in its own transaction, so the queue always matches the agenda.
 * The job carries the start it was planned for: the worker sends nothing if the appointment no
 * longer starts then or is no longer scheduled, whatever happened in between.
 */

export const reminderJobKind = 'appointment_reminder';

/** A reminder planned later than this before the start is not worth sending (booked at the last minute). */
const lastUsefulMinutes = 60;

type Clinic = { tx: TenantTx; accountId: string };

type ReminderPlan = { state: 'planned'; runAt: Date } | { state: 'none' };

/** The clinic's reminder settings (online booking reads them with its rules, in the same row). */
export interface ReminderSettings {
  remindersEnabled: boolean;
  reminderLeadMinutes: number;
  /** The channels a reminder tries (issue 38); e-mail only when not read. */
  reminderChannels?: string[];
}

export async function reminderSettingsOf(ctx: Clinic): Promise<ReminderSettings | undefined> {
  const [clinic] = await ctx.tx
    .select({
      remindersEnabled: accounts.remindersEnabled,
      reminderLeadMinutes: accounts.reminderLeadMinutes,
      reminderChannels: accounts.reminderChannels,
    })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  return clinic;
}

/**
 * When an appointment's reminder would go out: at `runAt`, or not at all (reminders off, booked too
 * late, no e-mail when e-mail is the only channel). With SMS or WhatsApp among the clinic's channels
 * the job itself picks the channel that reaches the patient, or none.
 */
export function reminderPlan(
  clinic: ReminderSettings | undefined,
  appointment: { startsAt: Date; patientHasEmail: boolean },
  now: Date = new Date(),
): ReminderPlan {
  const start = appointment.startsAt.getTime();
  const useful = start - now.getTime() > lastUsefulMinutes * 60_000;
  const byPhone = clinic?.reminderChannels?.some((channel) => channel !== 'email') ?? false;
  if (!clinic?.remindersEnabled || !(appointment.patientHasEmail || byPhone) || !useful) return { state: 'none' };
  return { state: 'planned', runAt: new Date(Math.max(now.getTime(), start - clinic.reminderLeadMinutes * 60_000)) };
}

/**
 * Queues a planned reminder. A new appointment calls it after inserting itself with the plan's
 * state (no job can carry its id yet: nothing to cancel, nothing to update afterwards).
 */
export async function queueReminder(
  ctx: Clinic,
  appointment: { id: string; startsAt: Date },
  plan: ReminderPlan,
): Promise<void> {
  if (plan.state !== 'planned') return;
  await enqueueJob(ctx, {
    kind: reminderJobKind,
    key: appointment.id,
    runAt: plan.runAt,
    payload: { appointmentId: appointment.id, startsAt: appointment.startsAt.toISOString() },
  });
}

/** Plans again the reminder of an existing appointment (restored, or another patient): its queued one goes first. */
export async function planReminder(
  ctx: Clinic,
  appointment: { id: string; startsAt: Date; patientHasEmail: boolean },
  now: Date = new Date(),
): Promise<'planned' | 'none'> {
  await cancelQueuedJobs(ctx, reminderJobKind, appointment.id);
  const plan = reminderPlan(await reminderSettingsOf(ctx), appointment, now);
  await queueReminder(ctx, appointment, plan);
  await ctx.tx
    .update(appointments)
    .set({ reminderState: plan.state, reminderError: null })
    .where(and(eq(appointments.accountId, ctx.accountId), eq(appointments.id, appointment.id)));
  return plan.state;
}

/** The appointment left the agenda (cancelled, completed, moved away, deleted): its reminder is not sent. */
export async function dropReminder(ctx: Clinic, appointmentId: string): Promise<void> {
  await cancelQueuedJobs(ctx, reminderJobKind, appointmentId);
}
