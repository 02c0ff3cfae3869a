import { clinicToday } from '@odontia/shared/clinic-time';
import type {
  AppointmentCancelReason,
  AppointmentOrigin,
  ConfirmationChannel,
  ReminderState,
} from '@odontia/shared/enums';
import type {
  Appointment,
  AppointmentInput,
  CalendarAppointment,
  FreeSlot,
  OutsideScheduleReason,
} from '@odontia/shared/schemas/appointments';
import type { Page } from '@odontia/shared/schemas/common';
import type { PageQuery, RecordChange } from '@odontia/shared/schemas/records';
import type { RecordStep } from '../../context.ts';
import { isDeadlock, isExclusionViolation } from '../../db/errors.ts';
import type { RecordScope } from '../../db/records.ts';
import type { appointments } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { type AuditActor, audit } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import { invalidFields, requirePatient, requireProfessional } from '../clinical/clinical.service.ts';
import { slotFreed } from '../freed-slots.ts';
import { presentPatientContact } from '../patients/patient-contact.ts';
import { recallsService } from '../recalls/recalls.service.ts';
import {
  dropReminder,
  planReminder,
  queueReminder,
  type ReminderSettings,
  reminderPlan,
  reminderSettingsOf,
} from '../reminders/reminder-plan.ts';
import { recordWebhookEvent } from '../webhooks/webhook-events.ts';
import type { AppointmentRow, NamedAppointmentRow } from './appointments.repository.ts';
import * as repository from './appointments.repository.ts';
import { readExceptions, readWeeks } from './availability.repository.ts';
import { effectiveWeek, freeStarts, type Interval, outsideScheduleReasons } from './availability.ts';

/**
 * The agenda's appointments (issue 16; docs/decisions.md "The agenda (issue 16): appointments").
 * States: scheduled → completed | cancelled | rescheduled; cancelled → scheduled (restore);
 * completed and rescheduled are final. An edit that changes the start is a move: a new scheduled
 * appointment, the old one `rescheduled` pointing at it. PostgreSQL's exclusion constraints refuse
 * overlaps (409 appointment_overlaps naming the other one); every write is audited and keeps the
 * reminder queue in step (planReminder / dropReminder) in the same transaction.
 */

/** What a service call needs: the request context (a seed builds one too). */
export interface AgendaContext extends RecordScope, AuditActor {
  readonly timeZone: string;
}

export function present(named: NamedAppointmentRow): Appointment {
  const row = named.row;
  const iso = (value: Date | null) => (value ? value.toISOString() : null);
  return {
    id: row.id,
    ...presentPatientContact(named),
    professionalId: row.professionalId,
    professionalName: named.professionalName,
    chairId: row.chairId,
    chairName: named.chairName,
    treatmentId: row.treatmentId,
    treatmentName: named.treatmentName,
    treatmentColor: named.treatmentColor,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    timeZone: row.timeZone,
    reason: row.reason,
    notes: row.notes,
    status: row.status,
    outsideSchedule: row.outsideSchedule,
    confirmedAt: iso(row.confirmedAt),
    confirmationChannel: row.confirmationChannel as ConfirmationChannel | null,
    confirmedByName: named.confirmedByName,
    arrivedAt: iso(row.arrivedAt),
    cancelledAt: iso(row.cancelledAt),
    cancelReason: row.cancelReason as AppointmentCancelReason | null,
    cancelNote: row.cancelNote,
    cancelledByName: named.cancelledByName,
    rescheduledTo: row.rescheduledTo,
    rescheduledFrom: row.rescheduledFrom,
    attendanceId: row.attendanceId,
    reminderState: row.reminderState as ReminderState,
    reminderSentAt: iso(row.reminderSentAt),
    reminderError: row.reminderError,
    origin: row.origin as AppointmentOrigin,
    createdAt: row.createdAt.toISOString(),
    createdByName: named.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: named.updatedByName,
    version: row.version,
  };
}

/** A calendar block (`calendarAppointmentSchema`): the same values `present()` gives, fewer of them. */
function presentCalendar(row: repository.CalendarRow): CalendarAppointment {
  return {
    ...row,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status: row.status,
    confirmedAt: row.confirmedAt ? row.confirmedAt.toISOString() : null,
    arrivedAt: row.arrivedAt ? row.arrivedAt.toISOString() : null,
    cancelReason: row.cancelReason as AppointmentCancelReason | null,
    reminderState: row.reminderState as ReminderState,
    origin: row.origin as AppointmentOrigin,
  };
}

/** The audited (editable) columns of a stored row or of an input. */
function columnsOf(row: {
  patientId: string;
  professionalId: string;
  chairId?: string | null | undefined;
  treatmentId?: string | null | undefined;
  startsAt: Date | string;
  endsAt: Date | string;
  reason?: string | null | undefined;
  notes?: string | null | undefined;
}) {
  return {
    patientId: row.patientId,
    professionalId: row.professionalId,
    chairId: row.chairId ?? null,
    treatmentId: row.treatmentId ?? null,
    startsAt: new Date(row.startsAt).toISOString(),
    endsAt: new Date(row.endsAt).toISOString(),
    reason: row.reason ?? null,
    notes: row.notes ?? null,
  };
}

async function get(ctx: AgendaContext, id: string): Promise<Appointment> {
  const row = await repository.findNamed(ctx, id);
  if (!row) throw new AppError('appointment_not_found');
  return present(row);
}

/** The live row locked, at the version read (409 version_conflict with the current record otherwise). */
async function lockAt(ctx: AgendaContext, id: string, version: number): Promise<AppointmentRow> {
  const current = await repository.findForUpdate(ctx, id);
  if (!current) throw new AppError('appointment_not_found');
  if (current.version !== version) throw new AppError('version_conflict', { current: await get(ctx, id) });
  return current;
}

function requireScheduled(row: AppointmentRow): void {
  if (row.status !== 'scheduled') throw new AppError('appointment_not_scheduled', { status: row.status });
}

/** The row locked at the version the client saw, still scheduled (what every change of state starts with). */
async function lockScheduled(ctx: AgendaContext, id: string, version: number): Promise<AppointmentRow> {
  const current = await lockAt(ctx, id, version);
  requireScheduled(current);
  return current;
}

/**
 * The write under a savepoint. Bookings of one time racing through the exclusion constraint can
 * wait on each other while the first is still in flight: PostgreSQL then cancels one of them as a
 * deadlock, which says nothing yet about who gets the time. That one is written again (its
 * savepoint only), now waiting on the others: it gets the time if they roll back, and otherwise the
 * constraint's own refusal, naming the appointment that won.
 */
async function writeUnderSavepoint<T>(ctx: AgendaContext, write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.tx.transaction(() => write());
    } catch (error) {
      if (!isDeadlock(error) || attempt === 5) throw error;
    }
  }
}

/**
 * Runs a write that may overlap another appointment under a savepoint: when the exclusion
 * constraint refuses it, only the write is undone and the answer names who holds the time.
 */
async function guardOverlap<T>(
  ctx: AgendaContext,
  slot: { start: Date; end: Date; professionalId: string; chairId: string | null; except: string[] },
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await writeUnderSavepoint(ctx, write);
  } catch (error) {
    // A deadlock still there after the retries is a race this booking lost all the same.
    if (!isExclusionViolation(error) && !isDeadlock(error)) throw error;
    const other = await repository.findOverlapping(ctx, slot);
    throw new AppError(
      'appointment_overlaps',
      other
        ? {
            resource: other.resource,
            appointment: {
              id: other.row.row.id,
              startsAt: other.row.row.startsAt.toISOString(),
              endsAt: other.row.row.endsAt.toISOString(),
              patientName: other.row.patientName,
              professionalName: other.row.professionalName,
            },
          }
        : undefined,
      { cause: error },
    );
  }
}

/** Why [start, end) is outside the professional's schedule (empty when it fits). */
export async function outsideReasons(
  ctx: AgendaContext,
  slot: { start: Date; end: Date; professionalId: string },
): Promise<OutsideScheduleReason[]> {
  const weeks = await readWeeks(ctx.tx, ctx.accountId, [slot.professionalId]);
  const exceptions = await readExceptions(ctx.tx, ctx.accountId, {
    from: slot.start,
    to: slot.end,
    professionalIds: [slot.professionalId],
  });
  const week = effectiveWeek(weeks.byProfessional.get(slot.professionalId), weeks.clinic);
  return outsideScheduleReasons(slot, week, exceptions, ctx.timeZone);
}

/** 409 appointment_outside_schedule (details.reasons) unless the booking was confirmed; whether it is outside. */
async function checkSchedule(
  ctx: AgendaContext,
  slot: { start: Date; end: Date; professionalId: string },
  allowOutside: boolean,
): Promise<boolean> {
  const reasons = await outsideReasons(ctx, slot);
  if (reasons.length > 0 && !allowOutside) throw new AppError('appointment_outside_schedule', { reasons });
  return reasons.length > 0;
}

/**
 * The clinic's live patient, locked against a deletion until the booking commits (400 otherwise);
 * answers whether it has an e-mail, which its reminder needs.
 */
async function requireBookedPatient(ctx: AgendaContext, patientId: string): Promise<{ hasEmail: boolean }> {
  const patient = await repository.lockPatientForBooking(ctx.tx, ctx.accountId, patientId);
  if (!patient) throw invalidFields([{ path: 'patientId', code: 'invalid_value' }]);
  return patient;
}

/** The references of a booking: the clinic's patient, an active professional, chair and treatment (400 otherwise). */
async function checkReferences(
  ctx: AgendaContext,
  input: AppointmentInput,
  current?: AppointmentRow,
): Promise<{ patientHasEmail?: boolean | undefined }> {
  const patient =
    !current || current.patientId !== input.patientId ? await requireBookedPatient(ctx, input.patientId) : undefined;
  if (!current || current.professionalId !== input.professionalId) await requireProfessional(ctx, input.professionalId);
  if (input.chairId && input.chairId !== current?.chairId) {
    if (!(await repository.chairExists(ctx.tx, ctx.accountId, input.chairId))) {
      throw invalidFields([{ path: 'chairId', code: 'invalid_value' }]);
    }
  }
  if (input.treatmentId && input.treatmentId !== current?.treatmentId) {
    if (!(await repository.treatmentExists(ctx.tx, ctx.accountId, input.treatmentId))) {
      throw invalidFields([{ path: 'treatmentId', code: 'invalid_value' }]);
    }
  }
  return { patientHasEmail: patient?.hasEmail };
}

async function replan(ctx: AgendaContext, id: string, patientId: string, startsAt: Date): Promise<void> {
  await planReminder(ctx, {
    id,
    startsAt,
    patientHasEmail: await repository.patientHasEmail(ctx.tx, ctx.accountId, patientId),
  });
}

/** Inserts a scheduled appointment (overlap-guarded), audits it and plans its reminder. */
function book(ctx: AgendaContext, input: AppointmentInput, extra: BookExtra): Promise<string> {
  return bookAs(ctx, newId(), input, extra);
}

/** A state change of a locked row: written as a new version, audited with what changed. */
async function transition(
  ctx: AgendaContext,
  current: AppointmentRow,
  action: string,
  change: Partial<typeof appointments.$inferInsert>,
  audited: Record<string, unknown>,
): Promise<void> {
  await repository.appointmentsRepository.update(ctx, current.id, change);
  const before: Record<string, unknown> = {};
  for (const key of Object.keys(audited)) {
    const value = (current as Record<string, unknown>)[key];
    before[key] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  await audit(ctx, {
    patientId: current.patientId,
    action,
    entity: 'appointment',
    entityId: current.id,
    before,
    after: audited,
  });
}

/** The free slots of `professionals` in [from, until): their week, minus exceptions, appointments and `alsoBusy`. */
async function freeSlotsBetween(
  ctx: AgendaContext,
  search: {
    professionals: { id: string; name: string }[];
    weeks: Awaited<ReturnType<typeof readWeeks>>;
    chairId?: string | undefined;
    durationMinutes: number;
    limit: number;
    from: Date;
    until: Date;
    now: Date;
    alsoBusy: readonly { professionalId: string; startsAt: Date; endsAt: Date }[];
  },
): Promise<FreeSlot[]> {
  const { professionals, weeks, from, until, now, alsoBusy } = search;
  const ids = professionals.map((professional) => professional.id);
  // A slot that starts before `until` may end after it: what is busy until then counts too.
  const readTo = new Date(until.getTime() + search.durationMinutes * 60_000);
  const exceptions = await readExceptions(ctx.tx, ctx.accountId, { from, to: readTo, professionalIds: ids });
  const busy = await repository.busyBetween(ctx.tx, ctx.accountId, {
    from,
    to: readTo,
    professionalIds: ids,
    chairId: search.chairId,
  });
  const slots: FreeSlot[] = [];
  for (const professional of professionals) {
    const week = effectiveWeek(weeks.byProfessional.get(professional.id), weeks.clinic);
    if (!week) continue;
    const taken: Interval[] = [
      ...exceptions
        .filter((exception) => exception.professionalId === null || exception.professionalId === professional.id)
        .map((exception) => ({ start: exception.startsAt.getTime(), end: exception.endsAt.getTime() })),
      ...busy
        .filter((row) => row.professionalId === professional.id || row.professionalId === null)
        .map((row) => ({ start: Number(row.start), end: Number(row.end) })),
      ...alsoBusy
        .filter((row) => row.professionalId === professional.id)
        .map((row) => ({ start: row.startsAt.getTime(), end: row.endsAt.getTime() })),
    ];
    for (const slot of freeStarts({
      week,
      busy: taken,
      from,
      until,
      now,
      durationMinutes: search.durationMinutes,
      timeZone: ctx.timeZone,
      limit: search.limit,
    })) {
      slots.push({
        startsAt: new Date(slot.start).toISOString(),
        endsAt: new Date(slot.end).toISOString(),
        professionalId: professional.id,
        professionalName: professional.name,
      });
    }
  }
  return slots;
}

export const appointmentsService = {
  get: ({ ctx, id }: { ctx: AgendaContext; id: string }) => get(ctx, id),

  async calendar({
    ctx,
    query,
  }: {
    ctx: AgendaContext;
    query: {
      from: string;
      to: string;
      professionalIds?: string[] | undefined;
      chairIds?: string[] | undefined;
      inactive?: 'true' | 'false' | undefined;
    };
  }): Promise<CalendarAppointment[]> {
    const rows = await repository.calendar(ctx, {
      from: new Date(query.from),
      to: new Date(query.to),
      professionalIds: query.professionalIds,
      chairIds: query.chairIds,
      inactive: query.inactive === 'true',
      today: clinicToday(ctx.timeZone),
      timeZone: ctx.timeZone,
    });
    return rows.map(presentCalendar);
  },

  async list({
    ctx,
    query,
  }: {
    ctx: AgendaContext;
    query: Omit<repository.ListFilter, 'from' | 'to'> & { from?: string | undefined; to?: string | undefined };
  }): Promise<Page<Appointment>> {
    const { rows, total } = await repository.list(ctx, {
      ...query,
      from: query.from ? new Date(query.from) : undefined,
      to: query.to ? new Date(query.to) : undefined,
    });
    return { data: rows.map(present), total, page: query.page, pageSize: query.pageSize };
  },

  async ofPatient({
    ctx,
    patientId,
    query,
    now = new Date(),
  }: {
    ctx: AgendaContext;
    patientId: string;
    query: PageQuery;
    now?: Date;
  }): Promise<Page<Appointment>> {
    await requirePatient(ctx, patientId);
    const { rows, total } = await repository.ofPatient(ctx, patientId, query, now);
    return { data: rows.map(present), total, page: query.page, pageSize: query.pageSize };
  },

  /**
   * The free starts of the professionals' agendas. Online booking (issue 37) narrows the same
   * search: to the professionals it offers (`within`), up to its horizon (`until`), with its pending
   * holds as busy time too (`alsoBusy`) — one slot engine for the agenda and the patients.
   */
  async freeSlots({
    ctx,
    query,
    now = new Date(),
    within,
    until: upTo,
    alsoBusy = [],
  }: {
    ctx: AgendaContext;
    query: {
      professionalId?: string | undefined;
      chairId?: string | undefined;
      durationMinutes: number;
      from?: string | undefined;
      days: number;
      limit: number;
    };
    now?: Date;
    within?: readonly string[];
    until?: Date;
    alsoBusy?: readonly { professionalId: string; startsAt: Date; endsAt: Date }[];
  }): Promise<FreeSlot[]> {
    const professionals = (await repository.activeProfessionals(ctx.tx, ctx.accountId, query.professionalId)).filter(
      (professional) => !within || within.includes(professional.id),
    );
    if (query.professionalId && professionals.length === 0) {
      throw invalidFields([{ path: 'professionalId', code: 'invalid_value' }]);
    }
    if (query.chairId && !(await repository.chairExists(ctx.tx, ctx.accountId, query.chairId))) {
      throw invalidFields([{ path: 'chairId', code: 'invalid_value' }]);
    }
    const from = query.from ? new Date(query.from) : now;
    const wanted = from.getTime() + query.days * 24 * 3_600_000;
    const until = new Date(upTo ? Math.min(wanted, upTo.getTime()) : wanted);
    if (professionals.length === 0 || until <= from) return [];
    const ids = professionals.map((professional) => professional.id);
    const weeks = await readWeeks(ctx.tx, ctx.accountId, ids);
    const slots = await freeSlotsBetween(ctx, { ...query, professionals, weeks, from, until, now, alsoBusy });
    // By time, then by name (the professionals came by name and the sort is stable).
    return slots.sort((a, b) => a.startsAt.localeCompare(b.startsAt)).slice(0, query.limit);
  },

  /** A booking; `origin: 'online'` when the patient booked it (issue 37: the agenda and its history mark it). */
  async create({
    ctx,
    input,
    origin = 'staff',
  }: {
    ctx: AgendaContext;
    input: AppointmentInput;
    origin?: AppointmentOrigin;
  }): Promise<Appointment> {
    const { patientHasEmail } = await checkReferences(ctx, input);
    const outside = await checkSchedule(
      ctx,
      { start: new Date(input.startsAt), end: new Date(input.endsAt), professionalId: input.professionalId },
      input.allowOutsideSchedule,
    );
    const id = await book(ctx, input, { outsideSchedule: outside, origin, patientHasEmail });
    return get(ctx, id);
  },

  /**
   * A slot the online booking's free-slot search offered in this same transaction (issue 37): that
   * search already read the active professional, the treatment and the schedule, so only the
   * patient is checked (and locked) again. The exclusion constraint still decides a race; the
   * patient's request then fails whole (409), so no savepoint is kept to name who won the time.
   * Answers the new appointment's id (the caller knows everything else it shows).
   */
  async bookOffered({
    ctx,
    input,
    reminders,
  }: {
    ctx: AgendaContext;
    input: AppointmentInput;
    /** The clinic's reminder settings, read with the online booking's rules. */
    reminders: ReminderSettings;
  }): Promise<string> {
    const patient = await requireBookedPatient(ctx, input.patientId);
    return book(ctx, input, {
      outsideSchedule: false,
      origin: 'online',
      patientHasEmail: patient.hasEmail,
      overlapFailsRequest: true,
      reminders,
    });
  },

  /**
   * An edit at the version read. A different start moves it (answer `rescheduled: true` with the
   * new appointment); anything else changes the same appointment.
   */
  async update({
    ctx,
    id,
    input,
    origin = 'staff',
  }: {
    ctx: AgendaContext;
    id: string;
    input: AppointmentInput & { version: number };
    /** 'online': the patient moved it (issue 37); the move is recorded as such. */
    origin?: AppointmentOrigin;
  }): Promise<{ appointment: Appointment; rescheduled: boolean }> {
    const current = await lockScheduled(ctx, id, input.version);
    const { patientHasEmail } = await checkReferences(ctx, input, current);
    const start = new Date(input.startsAt);
    const end = new Date(input.endsAt);
    const slot = { start, end, professionalId: input.professionalId };
    if (start.getTime() !== current.startsAt.getTime()) {
      const outside = await checkSchedule(ctx, slot, input.allowOutsideSchedule);
      const newIdOf = newId();
      // The old one leaves the active set first, so the new one may overlap its old time.
      await transition(
        ctx,
        current,
        origin === 'online' ? 'appointment_rescheduled_online' : 'appointment_rescheduled',
        { status: 'rescheduled', rescheduledTo: newIdOf },
        { status: 'rescheduled', rescheduledTo: newIdOf },
      );
      await dropReminder(ctx, current.id);
      const bookedId = await bookAs(ctx, newIdOf, input, {
        outsideSchedule: outside,
        rescheduledFrom: current.id,
        // The new appointment keeps where the booking came from; a move online makes it online.
        origin: origin === 'online' ? 'online' : (current.origin as AppointmentOrigin),
        patientHasEmail,
      });
      // A recall booked with it follows it (issue 38).
      await recallsService.appointmentMoved(ctx, { from: current.id, to: bookedId });
      await recordWebhookEvent(ctx, 'appointment.moved', {
        appointmentId: bookedId,
        previousAppointmentId: current.id,
        patientId: input.patientId,
        professionalId: input.professionalId,
        startsAt: start.toISOString(),
        endsAt: end.toISOString(),
        previousStartsAt: current.startsAt.toISOString(),
        previousEndsAt: current.endsAt.toISOString(),
        status: 'scheduled',
      });
      // The time it left is offered to the waiting list (issue 38).
      await slotFreed(ctx, {
        professionalId: current.professionalId,
        start: current.startsAt,
        end: current.endsAt,
      });
      return { appointment: await get(ctx, bookedId), rescheduled: true };
    }
    const timesChanged = end.getTime() !== current.endsAt.getTime() || input.professionalId !== current.professionalId;
    const outside = timesChanged ? await checkSchedule(ctx, slot, input.allowOutsideSchedule) : current.outsideSchedule;
    const next = columnsOf(input);
    const { before, after } = changedFields(columnsOf(current), next);
    if (outside !== current.outsideSchedule) {
      before.outsideSchedule = current.outsideSchedule;
      after.outsideSchedule = outside;
    }
    await guardOverlap(
      ctx,
      { start, end, professionalId: input.professionalId, chairId: input.chairId ?? null, except: [id] },
      () =>
        repository.appointmentsRepository.update(ctx, id, {
          ...next,
          startsAt: start,
          endsAt: end,
          outsideSchedule: outside,
        }),
    );
    await audit(ctx, {
      patientId: input.patientId,
      action: 'appointment_updated',
      entity: 'appointment',
      entityId: id,
      before,
      after,
    });
    if (input.patientId !== current.patientId) await replan(ctx, id, input.patientId, start);
    if (timesChanged) {
      await recordWebhookEvent(ctx, 'appointment.moved', {
        appointmentId: id,
        previousAppointmentId: id,
        patientId: input.patientId,
        professionalId: input.professionalId,
        startsAt: start.toISOString(),
        endsAt: end.toISOString(),
        previousStartsAt: current.startsAt.toISOString(),
        previousEndsAt: current.endsAt.toISOString(),
        status: 'scheduled',
      });
    }
    return { appointment: await get(ctx, id), rescheduled: false };
  },

  async remove({ ctx, id }: { ctx: AgendaContext; id: string }): Promise<void> {
    const current = await repository.findForUpdate(ctx, id);
    if (!current) throw new AppError('appointment_not_found');
    await repository.appointmentsRepository.softDelete(ctx, id);
    await audit(ctx, {
      patientId: current.patientId,
      action: 'appointment_deleted',
      entity: 'appointment',
      entityId: id,
      before: { ...columnsOf(current), status: current.status, version: current.version },
      after: { deleted: true },
    });
    await dropReminder(ctx, id);
    if (current.status === 'scheduled') {
      await recallsService.appointmentLeft(ctx, { id, why: 'appointment_deleted' });
    }
  },

  async changes({ ctx, id, query }: { ctx: AgendaContext; id: string; query: PageQuery }): Promise<Page<RecordChange>> {
    if (!(await repository.findNamed(ctx, id))) throw new AppError('appointment_not_found');
    return listRecordChanges(ctx.tx, ctx.accountId, { entity: 'appointment', entityId: id }, query);
  },

  async cancel({
    ctx,
    id,
    input,
    now = new Date(),
  }: {
    ctx: AgendaContext;
    id: string;
    input: { reason: AppointmentCancelReason; note?: string | null | undefined; version: number };
    now?: Date;
  }): Promise<Appointment> {
    const current = await lockScheduled(ctx, id, input.version);
    if (input.reason === 'no_show' && current.startsAt.getTime() > now.getTime()) {
      throw new AppError('appointment_not_started');
    }
    const at = now.toISOString();
    await transition(
      ctx,
      current,
      'appointment_cancelled',
      {
        status: 'cancelled',
        cancelledAt: now,
        cancelReason: input.reason,
        cancelNote: input.note ?? null,
        cancelledBy: ctx.userId,
      },
      { status: 'cancelled', cancelledAt: at, cancelReason: input.reason, cancelNote: input.note ?? null },
    );
    await dropReminder(ctx, id);
    // A recall booked with it is open again (issue 38).
    await recallsService.appointmentLeft(ctx, { id, why: 'appointment_cancelled' }, now);
    // The freed time is offered to the waiting list (issue 38), in this transaction.
    await slotFreed(ctx, { professionalId: current.professionalId, start: current.startsAt, end: current.endsAt }, now);
    await recordWebhookEvent(ctx, 'appointment.cancelled', {
      appointmentId: id,
      patientId: current.patientId,
      professionalId: current.professionalId,
      startsAt: current.startsAt.toISOString(),
      endsAt: current.endsAt.toISOString(),
      status: 'cancelled',
      reason: input.reason,
      cancelledAt: at,
    });
    return get(ctx, id);
  },

  async confirm({
    ctx,
    id,
    input,
  }: RecordStep<{ channel: ConfirmationChannel; version: number }, AgendaContext>): Promise<Appointment> {
    const current = await lockScheduled(ctx, id, input.version);
    const now = new Date();
    await transition(
      ctx,
      current,
      'appointment_confirmed',
      { confirmedAt: now, confirmationChannel: input.channel, confirmedBy: ctx.userId },
      { confirmedAt: now.toISOString(), confirmationChannel: input.channel },
    );
    return get(ctx, id);
  },

  async unconfirm({ ctx, id, input }: { ctx: AgendaContext; id: string; input: { version: number } }) {
    const current = await lockScheduled(ctx, id, input.version);
    await transition(
      ctx,
      current,
      'appointment_unconfirmed',
      { confirmedAt: null, confirmationChannel: null, confirmedBy: null },
      { confirmedAt: null, confirmationChannel: null },
    );
    return get(ctx, id);
  },

  async arrive({ ctx, id, input }: { ctx: AgendaContext; id: string; input: { version: number } }) {
    const current = await lockScheduled(ctx, id, input.version);
    const now = new Date();
    await transition(ctx, current, 'appointment_arrived', { arrivedAt: now }, { arrivedAt: now.toISOString() });
    return get(ctx, id);
  },

  async complete({
    ctx,
    id,
    input,
    attendanceId = null,
  }: {
    ctx: AgendaContext;
    id: string;
    input: { version: number };
    attendanceId?: string | null;
  }) {
    const current = await lockScheduled(ctx, id, input.version);
    await transition(
      ctx,
      current,
      'appointment_completed',
      { status: 'completed', attendanceId },
      { status: 'completed', attendanceId },
    );
    await dropReminder(ctx, id);
    return get(ctx, id);
  },

  async restore({
    ctx,
    id,
    input,
  }: RecordStep<{ version: number; allowOutsideSchedule: boolean }, AgendaContext>): Promise<Appointment> {
    const current = await lockAt(ctx, id, input.version);
    if (current.status !== 'cancelled') throw new AppError('appointment_not_cancelled', { status: current.status });
    const slot = { start: current.startsAt, end: current.endsAt, professionalId: current.professionalId };
    const outside = await checkSchedule(ctx, slot, input.allowOutsideSchedule);
    await guardOverlap(ctx, { ...slot, chairId: current.chairId, except: [id] }, () =>
      transition(
        ctx,
        current,
        'appointment_restored',
        {
          status: 'scheduled',
          cancelledAt: null,
          cancelReason: null,
          cancelNote: null,
          cancelledBy: null,
          outsideSchedule: outside,
        },
        { status: 'scheduled', cancelledAt: null, cancelReason: null, cancelNote: null, outsideSchedule: outside },
      ),
    );
    await replan(ctx, id, current.patientId, current.startsAt);
    // Back on the agenda: it books the patient's open recalls of its treatment again (issue 38).
    await recallsService.bookedByAppointment(ctx, {
      id,
      patientId: current.patientId,
      treatmentId: current.treatmentId,
    });
    return get(ctx, id);
  },

  /**
   * "Start attendance" (issue 16): the attendance being saved completes its appointment, in the
   * same transaction. The appointment must be the patient's (404 otherwise) and scheduled (409).
   */
  async completeForAttendance(
    ctx: AgendaContext,
    input: { appointmentId: string; patientId: string; attendanceId: string },
  ): Promise<void> {
    const current = await repository.findForUpdate(ctx, input.appointmentId);
    if (!current || current.patientId !== input.patientId) throw new AppError('appointment_not_found');
    requireScheduled(current);
    await transition(
      ctx,
      current,
      'appointment_completed',
      { status: 'completed', attendanceId: input.attendanceId },
      { status: 'completed', attendanceId: input.attendanceId },
    );
    await dropReminder(ctx, current.id);
  },
};

interface BookExtra {
  outsideSchedule: boolean;
  rescheduledFrom?: string;
  origin: AppointmentOrigin;
  /** Read with the patient's lock; read here when the caller did not lock the patient. */
  patientHasEmail?: boolean | undefined;
  /** An overlap fails the whole request (online booking): no savepoint around the insert. */
  overlapFailsRequest?: boolean;
  /** The clinic's reminder settings, when the caller read them already. */
  reminders?: ReminderSettings | undefined;
}

/** An overlap refused without a savepoint: the transaction is lost, so the request fails with it. */
async function refuseOverlap<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isExclusionViolation(error) || isDeadlock(error))
      throw new AppError('appointment_overlaps', undefined, { cause: error });
    throw error;
  }
}

/** Inserts the scheduled appointment `id` (a move chooses the id first, to point the old one at it). */
async function bookAs(ctx: AgendaContext, id: string, input: AppointmentInput, extra: BookExtra): Promise<string> {
  const start = new Date(input.startsAt);
  const end = new Date(input.endsAt);
  const columns = columnsOf(input);
  const patientHasEmail =
    extra.patientHasEmail ?? (await repository.patientHasEmail(ctx.tx, ctx.accountId, input.patientId));
  // A new row: its reminder's state is written with it, and no queued job can carry its id yet.
  const reminder = reminderPlan(extra.reminders ?? (await reminderSettingsOf(ctx)), {
    startsAt: start,
    patientHasEmail,
  });
  const insert = () =>
    repository.appointmentsRepository.insert(ctx, {
      id,
      ...columns,
      startsAt: start,
      endsAt: end,
      timeZone: ctx.timeZone,
      status: 'scheduled',
      outsideSchedule: extra.outsideSchedule,
      rescheduledFrom: extra.rescheduledFrom ?? null,
      origin: extra.origin,
      reminderState: reminder.state,
    });
  if (extra.overlapFailsRequest) await refuseOverlap(insert);
  else
    await guardOverlap(
      ctx,
      { start, end, professionalId: input.professionalId, chairId: input.chairId ?? null, except: [] },
      insert,
    );
  await audit(ctx, {
    patientId: input.patientId,
    action: extra.origin === 'online' && !extra.rescheduledFrom ? 'appointment_booked_online' : 'appointment_created',
    entity: 'appointment',
    entityId: id,
    after: {
      ...columns,
      outsideSchedule: extra.outsideSchedule,
      rescheduledFrom: extra.rescheduledFrom ?? null,
      ...(extra.origin === 'online' ? { origin: 'online' } : {}),
    },
  });
  await queueReminder(ctx, { id, startsAt: start }, reminder);
  // Issue 42: integrators hear of a booking (a move sends appointment.moved instead).
  if (!extra.rescheduledFrom) {
    await recordWebhookEvent(ctx, 'appointment.booked', {
      appointmentId: id,
      patientId: input.patientId,
      professionalId: input.professionalId,
      chairId: input.chairId ?? null,
      treatmentId: input.treatmentId ?? null,
      startsAt: start.toISOString(),
      endsAt: end.toISOString(),
      status: 'scheduled',
      origin: extra.origin,
    });
  }
  // Issue 38: the patient's open recalls of this treatment are booked by it.
  await recallsService.bookedByAppointment(ctx, {
    id,
    patientId: input.patientId,
    treatmentId: input.treatmentId ?? null,
  });
  return id;
}
