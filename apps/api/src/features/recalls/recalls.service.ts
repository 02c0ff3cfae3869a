import { addDays, clinicToday, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import type {
  RecallChannel,
  RecallCloseReason,
  RecallOutcome,
  RecallStatus,
  RecallUnit,
  RecallView,
} from '@odontia/shared/enums';
import { recallDueOfAttendance, recallViewOf } from '@odontia/shared/recalls';
import type {
  Recall,
  RecallAttempt,
  RecallDetail,
  recallAttemptRequestSchema,
  recallCloseRequestSchema,
  recallsQuerySchema,
} from '@odontia/shared/schemas/recalls';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { RecordStep, RequestContext } from '../../context.ts';
import type { TenantScope } from '../../db/list-query.ts';
import { accounts } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { audit, recordAuditEvent } from '../audit/audit.repository.ts';
import { invalidFields } from '../clinical/clinical.service.ts';
import { cancelQueuedJobs, enqueueJob } from '../jobs/jobs.repository.ts';
import * as repository from './recalls.repository.ts';

/**
 * Recalls (issue 38).
 *
 * - Made when an attendance is finished (attendances.service calls `fromFinishedAttendance` in the
 *   same transaction): one per line whose treatment has a rule — one per treatment of the
 *   attendance, the first line's — due the rule's interval after the attendance's day in the
 *   clinic's zone. The line is the recall's unique key, so finishing again or an addendum never
 *   makes a second. A new recall closes the patient's open ones of the same treatment as
 *   `superseded`.
 * - Steps: log an attempt (→ contacted), book it with one of the patient's appointments, close it
 *   with a reason; a booked or closed recall takes no step (409 recall_not_open). Booking an
 *   appointment for the patient and the treatment books their open recalls of it by itself
 *   (`bookedByAppointment`, from appointments.service; a restored appointment too).
 * - A booked recall follows its appointment: moved, to the new one (`appointmentMoved`); cancelled
 *   (by staff, the reminder's link or the portal) or deleted, open again (`appointmentLeft`).
 * - The automatic e-mail: when the clinic sends them (recall_message_days > 0) a job is queued
 *   with the recall for 09:00 clinic time that many days before it is due (recall.job.ts).
 * - Every change audited (entity 'recall', with the patient).
 */

type Query = z.output<typeof recallsQuerySchema>;
type Row = repository.RecallRow;
type Actor = Pick<RequestContext, 'tx' | 'accountId' | 'ip'> & { userId: string | null };
/** A step on one recall: the request, the recall's id, the step's input. */

export const recallMessageJobKind = 'recall_message';
/** The wall-clock hour the automatic e-mail leaves on its day. */
const messageHour = '09:00';

function present(row: Row, today: string): Recall {
  const recall = row.recall;
  return {
    id: recall.id,
    patientId: recall.patientId,
    patientName: `${row.patientLastName}, ${row.patientFirstName}`,
    patientPhone: row.patientPhone,
    patientEmail: row.patientEmail,
    treatmentId: recall.treatmentId,
    treatmentName: row.treatmentName,
    professionalId: recall.professionalId,
    professionalName: row.professionalName,
    attendanceId: recall.attendanceId,
    dueOn: recall.dueOn,
    reason: recall.reason,
    status: recall.status as RecallStatus,
    view: recallViewOf(recall, today),
    appointmentId: recall.appointmentId,
    appointmentStartsAt: row.appointmentStartsAt?.toISOString() ?? null,
    closedReason: recall.closedReason as RecallCloseReason | null,
    closeNote: recall.closeNote,
    attemptCount: Number(row.attemptCount),
    lastAttemptAt: recall.lastAttemptAt?.toISOString() ?? null,
    createdAt: recall.createdAt.toISOString(),
    version: recall.version,
  };
}

async function detail(ctx: RequestContext, id: string): Promise<RecallDetail> {
  const row = await repository.findRecall(ctx, id);
  if (!row) throw new AppError('recall_not_found');
  const attempts = await repository.listAttempts(ctx, id);
  return {
    ...present(row, clinicToday(ctx.timeZone)),
    attempts: attempts.map(
      (attempt): RecallAttempt => ({
        ...attempt,
        channel: attempt.channel as RecallChannel,
        outcome: attempt.outcome as RecallOutcome,
        createdAt: attempt.createdAt.toISOString(),
      }),
    ),
  };
}

/** The recall locked for a step; 404 when not the clinic's, 409 recall_not_open once booked or closed. */
async function lockOpen(ctx: TenantScope, id: string) {
  const current = await repository.lockRecall(ctx, id);
  if (!current) throw new AppError('recall_not_found');
  if (current.status !== 'pending' && current.status !== 'contacted') throw new AppError('recall_not_open');
  return current;
}

/**
 * Queues the automatic e-mail of a recall when the clinic sends them and the recall is not yet due:
 * on its day, or at once when that day has passed (`late: 'send'`, a new recall) or not at all
 * (`late: 'skip'`, a recall open again after its appointment was cancelled: the patient was just
 * in touch, the front desk calls).
 */
async function planMessage(
  ctx: TenantScope,
  recall: { id: string; dueOn: string },
  now = new Date(),
  late: 'send' | 'skip' = 'send',
) {
  const [clinic] = await ctx.tx
    .select({ days: accounts.recallMessageDays, timeZone: accounts.timeZone })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  if (!clinic || clinic.days <= 0) return;
  if (recall.dueOn < clinicToday(clinic.timeZone, now)) return;
  const day = addDays(recall.dueOn, -clinic.days);
  const at = instantOfClinicWallTime(`${day}T${messageHour}`, clinic.timeZone) ?? now;
  if (late === 'skip' && at.getTime() <= now.getTime()) return;
  await enqueueJob(ctx, {
    kind: recallMessageJobKind,
    key: recall.id,
    runAt: at.getTime() > now.getTime() ? at : now,
    payload: { recallId: recall.id, dueOn: recall.dueOn },
  });
}

/** A booked or closed recall's e-mail is not sent. */
const dropMessage = (ctx: TenantScope, recallId: string) => cancelQueuedJobs(ctx, recallMessageJobKind, recallId);

/** Audits a step of an open recall (with its patient): the status it had, what the step wrote. */
function auditStep(
  ctx: Actor,
  recall: { id: string; patientId: string; status: string },
  action: 'recall_attempt_logged' | 'recall_booked' | 'recall_closed' | 'recall_reopened',
  after: Record<string, unknown>,
) {
  return recordAuditEvent(ctx.tx, {
    accountId: ctx.accountId,
    userId: ctx.userId,
    ip: ctx.ip,
    patientId: recall.patientId,
    action,
    entity: 'recall',
    entityId: recall.id,
    before: { status: recall.status },
    after,
  });
}

/** Marks an open recall booked with an appointment (locked by the caller), audited. */
async function markBooked(
  ctx: Actor,
  recall: { id: string; patientId: string; status: string },
  appointmentId: string,
  automatic: boolean,
) {
  await repository.updateRecall(ctx, recall.id, { status: 'booked', appointmentId, bookedAt: new Date() });
  await dropMessage(ctx, recall.id);
  await auditStep(ctx, recall, 'recall_booked', {
    status: 'booked',
    appointmentId,
    ...(automatic ? { automatic: true } : {}),
  });
}

export const recallsService = {
  async list({ ctx, query }: { ctx: RequestContext; query: Query }) {
    const today = clinicToday(ctx.timeZone);
    const { rows, total } = await repository.pageRecalls(
      ctx,
      {
        view: query.view as RecallView,
        today,
        professionalId: query.professionalId,
        treatmentId: query.treatmentId,
        patientId: query.patientId,
      },
      { page: query.page, pageSize: query.pageSize, descending: query.sort === '-dueOn' },
    );
    return { data: rows.map((row) => present(row, today)), total, page: query.page, pageSize: query.pageSize };
  },

  get: ({ ctx, id }: { ctx: RequestContext; id: string }) => detail(ctx, id),

  async logAttempt({ ctx, id, input }: RecordStep<z.output<typeof recallAttemptRequestSchema>>): Promise<RecallDetail> {
    const current = await lockOpen(ctx, id);
    const attemptId = newId();
    await repository.insertAttempt(ctx, { id: attemptId, recallId: id, ...input, automatic: false });
    await repository.updateRecall(ctx, id, { status: 'contacted', lastAttemptAt: new Date() });
    await auditStep(ctx, current, 'recall_attempt_logged', { status: 'contacted', attemptId, ...input });
    return detail(ctx, id);
  },

  async book({ ctx, id, appointmentId }: { ctx: RequestContext; id: string; appointmentId: string }) {
    const current = await lockOpen(ctx, id);
    if (!(await repository.patientAppointment(ctx, current.patientId, appointmentId))) {
      throw invalidFields([{ path: 'appointmentId', code: 'invalid_value' }]);
    }
    await markBooked(ctx, current, appointmentId, false);
    return detail(ctx, id);
  },

  async close({ ctx, id, input }: RecordStep<z.output<typeof recallCloseRequestSchema>>): Promise<RecallDetail> {
    const current = await lockOpen(ctx, id);
    await repository.updateRecall(ctx, id, {
      status: 'closed',
      closedReason: input.reason,
      closeNote: input.note,
      closedAt: new Date(),
    });
    await dropMessage(ctx, id);
    await auditStep(ctx, current, 'recall_closed', {
      status: 'closed',
      closedReason: input.reason,
      closeNote: input.note,
    });
    return detail(ctx, id);
  },

  /** The recalls of a finished attendance (once per line: calling it again changes nothing). */
  async fromFinishedAttendance(ctx: RequestContext, attendanceId: string): Promise<void> {
    const lines = await repository.linesWithRules(ctx, attendanceId);
    const seen = new Set<string>();
    for (const line of lines) {
      if (seen.has(line.treatmentId) || line.interval === null || line.unit === null) continue;
      seen.add(line.treatmentId);
      const recall = {
        id: newId(),
        patientId: line.patientId,
        treatmentId: line.treatmentId,
        professionalId: line.professionalId,
        attendanceId,
        attendanceLineId: line.lineId,
        dueOn: recallDueOfAttendance(line.date, ctx.timeZone, {
          interval: line.interval,
          unit: line.unit as RecallUnit,
        }),
        reason: line.reason,
      };
      if (!(await repository.insertRecallOnce(ctx, recall))) continue;
      await audit(ctx, {
        patientId: recall.patientId,
        action: 'recall_created',
        entity: 'recall',
        entityId: recall.id,
        after: { treatmentId: recall.treatmentId, attendanceId, dueOn: recall.dueOn, reason: recall.reason },
      });
      const older = await repository.openRecallsOf(ctx, {
        patientId: recall.patientId,
        treatmentId: recall.treatmentId,
        except: recall.id,
      });
      for (const old of older) {
        await repository.updateRecall(ctx, old.id, {
          status: 'closed',
          closedReason: 'superseded',
          closedAt: new Date(),
        });
        await dropMessage(ctx, old.id);
        await auditStep(ctx, { ...old, patientId: recall.patientId }, 'recall_closed', {
          status: 'closed',
          closedReason: 'superseded',
          supersededBy: recall.id,
        });
      }
      await planMessage(ctx, recall);
    }
  },

  /**
   * An appointment booked for a patient and a treatment books the patient's open recalls of that
   * treatment made before it (appointments.service, in the booking's transaction).
   */
  async bookedByAppointment(
    ctx: Actor,
    appointment: { id: string; patientId: string; treatmentId: string | null },
  ): Promise<void> {
    if (!appointment.treatmentId) return;
    const open = await repository.openRecallsOf(ctx, {
      patientId: appointment.patientId,
      treatmentId: appointment.treatmentId,
      createdBefore: new Date(),
    });
    for (const recall of open) {
      await markBooked(ctx, { ...recall, patientId: appointment.patientId }, appointment.id, true);
    }
  },

  /**
   * The appointment a recall was booked with left the agenda without being kept (cancelled, a
   * no-show, deleted): the recall is open again — contacted when someone had reached the patient,
   * pending otherwise — so it is back on the front desk's list to call, and no longer counts as
   * recovered. Audited `recall_reopened` with why. In the appointment's transaction.
   */
  async appointmentLeft(
    ctx: Actor,
    appointment: { id: string; why: 'appointment_cancelled' | 'appointment_deleted' },
    now = new Date(),
  ): Promise<void> {
    for (const recall of await repository.bookedWith(ctx, appointment.id)) {
      const status = recall.lastAttemptAt ? 'contacted' : 'pending';
      await repository.updateRecall(ctx, recall.id, { status, appointmentId: null, bookedAt: null });
      await planMessage(ctx, recall, now, 'skip');
      await auditStep(ctx, recall, 'recall_reopened', { status, appointmentId: null, why: appointment.why });
    }
  },

  /** The appointment a recall was booked with moved (a new appointment): the recall follows it. */
  async appointmentMoved(ctx: Actor, move: { from: string; to: string }): Promise<void> {
    for (const recall of await repository.bookedWith(ctx, move.from)) {
      await repository.updateRecall(ctx, recall.id, { appointmentId: move.to });
      await auditStep(ctx, recall, 'recall_booked', { status: 'booked', appointmentId: move.to, moved: true });
    }
  },
};
