import type { Appointment, FreeSlot } from '@odontia/shared/schemas/appointments';
import type {
  OnlineAppointment,
  OnlineBookingSettings,
  OnlineFreeSlotsQuery,
  UpdateOnlineBookingSettings,
} from '@odontia/shared/schemas/online-booking';
import type { RequestContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { activeProfessionals, findForUpdate } from '../appointments/appointments.repository.ts';
import { type AgendaContext, appointmentsService } from '../appointments/appointments.service.ts';
import { auditClinicSettings } from '../audit/audit.repository.ts';
import { changedFields } from '../audit/record-changes.ts';
import { invalidFields } from '../clinical/clinical.service.ts';
import { enqueueJob } from '../jobs/jobs.repository.ts';
import { findRules, type Rules } from '../portal/portal.repository.ts';
import { applyPatientAnswer } from '../reminders/appointment-links.service.ts';
import * as repository from './online-booking.repository.ts';

/**
 * Online booking (issue 37; docs/decisions.md "Online booking (issue 37)"). The clinic's rules
 * narrow the agenda's own free-slot search (appointments.service.ts `freeSlots`: opening hours,
 * schedules, exceptions, durations, busy time); a booking goes through the agenda's own insert, so
 * the database's exclusion constraint decides between two patients racing for one slot (409
 * slot_taken). The patient's confirm and cancel are the reminder link's (appointment-links.service.ts).
 */

/**
 * Who acts online: the portal's patient (their user) or nobody (a booking of the public page,
 * confirmed by its e-mail link). With nobody, the appointment's author and the audit's user stay
 * empty, as for the reminder's links; the audit's `origin: 'online'` says who it was.
 */
export interface OnlineContext {
  readonly tx: AgendaContext['tx'];
  readonly accountId: string;
  readonly userId: string | null;
  readonly ip: string;
  readonly timeZone: string;
}

/** The agenda's context for an online act (see OnlineContext: `created_by` is nullable). */
const agendaOf = (ctx: OnlineContext): AgendaContext => ({ ...ctx, userId: ctx.userId as string });

export const onlineBookingJobKind = 'online_booking_mail';
const hour = 3_600_000;

export async function presentSettings(ctx: RequestContext): Promise<OnlineBookingSettings> {
  const rules = await findRules(ctx);
  const treatments = await repository.treatmentOptions(ctx, { bookableOnly: false });
  const professionals = await activeProfessionals(ctx.tx, ctx.accountId);
  return {
    enabled: rules.enabled,
    treatmentIds: treatments.filter((treatment) => treatment.bookable).map((treatment) => treatment.id),
    professionalIds: rules.professionalIds,
    leadHours: rules.leadHours,
    horizonDays: rules.horizonDays,
    maxPending: rules.maxPending,
    newPatients: rules.newPatients,
    changeHours: rules.changeHours,
    treatments: treatments.map(({ id, name, durationMinutes }) => ({ id, name, durationMinutes })),
    professionals: professionals.map(({ id, name }) => ({ id, name })),
    version: rules.version,
  };
}

/** The rules as audited: the clinic's columns and the bookable treatments, ids sorted. */
function audited(values: Omit<UpdateOnlineBookingSettings, 'version'>) {
  return {
    enabled: values.enabled,
    treatmentIds: [...values.treatmentIds].sort().join(','),
    professionalIds: [...values.professionalIds].sort().join(','),
    leadHours: values.leadHours,
    horizonDays: values.horizonDays,
    maxPending: values.maxPending,
    newPatients: values.newPatients,
    changeHours: values.changeHours,
  };
}

export const onlineBookingSettings = {
  get: ({ ctx }: { ctx: RequestContext }) => presentSettings(ctx),

  /** A new version of the clinic (shared with the other settings: 409 version_conflict when stale); audited. */
  async update({ ctx, input }: { ctx: RequestContext; input: UpdateOnlineBookingSettings }) {
    await repository.lockClinic(ctx);
    const rules = await findRules(ctx);
    if (rules.version !== input.version)
      throw new AppError('version_conflict', { current: await presentSettings(ctx) });
    const treatmentIds = [...new Set(input.treatmentIds)];
    const professionalIds = [...new Set(input.professionalIds)];
    const knownTreatments = new Set(await repository.existingTreatments(ctx, treatmentIds));
    const knownStaff = new Set(await repository.activeStaff(ctx, professionalIds));
    const problems = [
      ...treatmentIds.flatMap((id, index) =>
        knownTreatments.has(id) ? [] : [{ path: `treatmentIds.${index}`, code: 'invalid_value' as const }],
      ),
      ...professionalIds.flatMap((id, index) =>
        knownStaff.has(id) ? [] : [{ path: `professionalIds.${index}`, code: 'invalid_value' as const }],
      ),
    ];
    if (problems.length > 0) throw invalidFields(problems);
    const current = await presentSettings(ctx);
    const change = changedFields(audited(current), audited({ ...input, treatmentIds, professionalIds }));
    await repository.updateRules(ctx, {
      onlineBookingEnabled: input.enabled,
      onlineBookingProfessionalIds: professionalIds,
      onlineBookingLeadHours: input.leadHours,
      onlineBookingHorizonDays: input.horizonDays,
      onlineBookingMaxPending: input.maxPending,
      onlineBookingNewPatients: input.newPatients,
      onlineBookingChangeHours: input.changeHours,
    });
    await repository.setBookableTreatments(ctx, treatmentIds);
    await auditClinicSettings(ctx, 'online_booking_settings_updated', change, rules.version);
    return presentSettings(ctx);
  },
};

async function openRules(ctx: OnlineContext): Promise<Rules> {
  const rules = await findRules(ctx);
  if (!rules.enabled) throw new AppError('online_booking_disabled');
  return rules;
}

/** The bookable treatment (400 treatmentId) and, when named, an offered professional (400 professionalId). */
async function offered(ctx: OnlineContext, rules: Rules, choice: { treatmentId: string; professionalId?: string }) {
  const treatment = await repository.bookableTreatment(ctx, choice.treatmentId);
  if (!treatment) throw invalidFields([{ path: 'treatmentId', code: 'invalid_value' }]);
  if (choice.professionalId && !rules.professionalIds.includes(choice.professionalId)) {
    throw invalidFields([{ path: 'professionalId', code: 'invalid_value' }]);
  }
  return treatment;
}

/** The window online booking offers: from now + lead time to now + horizon. */
const windowOf = (rules: Rules, now: Date) => ({
  earliest: new Date(now.getTime() + rules.leadHours * hour),
  latest: new Date(now.getTime() + rules.horizonDays * 24 * hour),
});

function checkWindow(rules: Rules, start: Date, now: Date, skipLeadTime = false): void {
  const { earliest, latest } = windowOf(rules, now);
  if (start < earliest && !skipLeadTime) throw new AppError('online_booking_too_soon', { leadHours: rules.leadHours });
  if (start >= latest) throw new AppError('online_booking_too_far', { horizonDays: rules.horizonDays });
}

/** The agenda's free slots, narrowed by the rules and with the public page's pending holds as busy. */
async function slots(
  ctx: OnlineContext,
  rules: Rules,
  search: { durationMinutes: number; professionalId?: string | undefined; from: Date; days: number; limit: number },
  now: Date,
): Promise<FreeSlot[]> {
  const { earliest, latest } = windowOf(rules, now);
  const from = search.from > earliest ? search.from : earliest;
  const until = new Date(Math.min(latest.getTime(), from.getTime() + search.days * 24 * hour));
  if (until <= from) return [];
  const alsoBusy = await repository.heldBetween(ctx, { from, to: until, now });
  return appointmentsService.freeSlots({
    ctx: agendaOf(ctx),
    query: {
      professionalId: search.professionalId,
      durationMinutes: search.durationMinutes,
      from: from.toISOString(),
      days: search.days,
      limit: search.limit,
    },
    now,
    within: rules.professionalIds,
    until,
    alsoBusy,
  });
}

/** 409 slot_unavailable unless `start` is one of the free slots offered for this professional. */
async function requireOffered(
  ctx: OnlineContext,
  rules: Rules,
  slot: { professionalId: string; start: Date; durationMinutes: number },
  now: Date,
): Promise<FreeSlot> {
  const [first] = await slots(
    ctx,
    rules,
    { durationMinutes: slot.durationMinutes, professionalId: slot.professionalId, from: slot.start, days: 1, limit: 1 },
    now,
  );
  if (!first || first.startsAt !== slot.start.toISOString()) throw new AppError('slot_unavailable');
  return first;
}

async function checkPendingLimit(ctx: OnlineContext, rules: Rules, patientId: string, now: Date): Promise<void> {
  if ((await repository.countUpcomingOnline(ctx, patientId, now)) >= rules.maxPending) {
    throw new AppError('online_booking_pending_limit', { maxPending: rules.maxPending });
  }
}

/** The agenda's overlap and schedule answers, as the patient reads them. */
async function asPatient<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof AppError && error.code === 'appointment_overlaps') throw new AppError('slot_taken');
    if (error instanceof AppError && error.code === 'appointment_outside_schedule') {
      throw new AppError('slot_unavailable');
    }
    throw error;
  }
}

/** The patient's view of an appointment the agenda just answered (no second read). */
function fromAgenda(row: Appointment): OnlineAppointment {
  return {
    id: row.id,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    timeZone: row.timeZone,
    status: row.status,
    treatmentId: row.treatmentId,
    treatmentName: row.treatmentName,
    professionalId: row.professionalId,
    professionalName: row.professionalName,
    confirmedAt: row.confirmedAt,
    origin: row.origin,
  };
}

async function patientAppointment(ctx: OnlineContext, patientId: string, id: string) {
  const row = await repository.findPatientAppointment(ctx, patientId, id);
  if (!row) throw new AppError('appointment_not_found');
  return row;
}

/** The confirmation e-mail (with the .ics) leaves from the job queue once the booking is committed. */
async function queueConfirmation(ctx: OnlineContext, appointmentId: string, now: Date): Promise<void> {
  await enqueueJob(ctx, { kind: onlineBookingJobKind, key: appointmentId, runAt: now, payload: { appointmentId } });
}

/** The window of confirm, cancel and reschedule: up to `changeHours` before the appointment. */
function checkChangeWindow(rules: Rules, row: repository.PatientAppointmentRow, now: Date): void {
  if (row.status !== 'scheduled') throw new AppError('appointment_not_scheduled', { status: row.status });
  if (row.startsAt.getTime() - now.getTime() < rules.changeHours * hour) {
    throw new AppError('online_booking_change_closed', { changeHours: rules.changeHours });
  }
}

/** Every rule a new booking meets (the portal's, and the public page's hold); answers the treatment. */
export const onlineBookingRules = {
  async check(
    ctx: OnlineContext,
    rules: Rules,
    booking: {
      patientId?: string | undefined;
      treatmentId: string;
      professionalId: string;
      start: Date;
      now: Date;
      skipLeadTime?: boolean | undefined;
    },
  ) {
    const { now, start, professionalId } = booking;
    const treatment = await offered(ctx, rules, booking);
    checkWindow(rules, start, now, booking.skipLeadTime);
    if (booking.patientId) await checkPendingLimit(ctx, rules, booking.patientId, now);
    const slot = await requireOffered(
      ctx,
      rules,
      { professionalId, start, durationMinutes: treatment.durationMinutes },
      now,
    );
    return { treatment, slot };
  },
};

export const onlineBookingService = {
  /** Free slots of a bookable treatment (its duration), optionally of one offered professional. */
  async freeSlots({ ctx, query, now = new Date() }: { ctx: OnlineContext; query: OnlineFreeSlotsQuery; now?: Date }) {
    const rules = await openRules(ctx);
    const treatment = await offered(ctx, rules, query);
    return slots(
      ctx,
      rules,
      {
        durationMinutes: treatment.durationMinutes,
        professionalId: query.professionalId,
        from: query.from ? new Date(query.from) : now,
        days: query.days,
        limit: query.limit,
      },
      now,
    );
  },

  /**
   * Books a slot for a patient of the clinic, re-checking every rule (enabled, treatment,
   * professional, lead time, horizon, pending limit, the slot still offered) and inserting through
   * the agenda: the exclusion constraint decides a race (409 slot_taken). Marked online, audited
   * `appointment_booked_online`; the confirmation e-mail is queued.
   */
  async bookOnline({
    ctx,
    patientId,
    treatmentId,
    professionalId,
    start,
    now = new Date(),
    skipLeadTime = false,
  }: {
    ctx: OnlineContext;
    patientId: string;
    treatmentId: string;
    professionalId: string;
    start: Date;
    now?: Date;
    /** A public booking confirmed by its link: the lead time was met when it was held. */
    skipLeadTime?: boolean;
  }): Promise<OnlineAppointment> {
    const rules = await openRules(ctx);
    const { treatment, slot } = await onlineBookingRules.check(ctx, rules, {
      patientId,
      treatmentId,
      professionalId,
      start,
      now,
      skipLeadTime,
    });
    const id = await asPatient(() =>
      appointmentsService.bookOffered({
        ctx: agendaOf(ctx),
        input: {
          patientId,
          professionalId,
          chairId: null,
          treatmentId,
          startsAt: slot.startsAt,
          endsAt: slot.endsAt,
          reason: treatment.name,
          notes: null,
          allowOutsideSchedule: false,
        },
        reminders: rules,
      }),
    );
    await queueConfirmation(ctx, id, now);
    // What the patient is shown is what was just written: no second read.
    return {
      id,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      timeZone: ctx.timeZone,
      status: 'scheduled',
      treatmentId,
      treatmentName: treatment.name,
      professionalId,
      professionalName: slot.professionalName,
      confirmedAt: null,
      origin: 'online',
    };
  },

  /** The patient confirms (or cancels) within the window; the reminder link's own write. */
  async answer({
    ctx,
    patientId,
    id,
    purpose,
    now = new Date(),
  }: {
    ctx: OnlineContext;
    patientId: string;
    id: string;
    purpose: 'confirm' | 'cancel';
    now?: Date;
  }): Promise<OnlineAppointment> {
    const rules = await findRules(ctx);
    await findForUpdate(agendaOf(ctx), id);
    const row = await patientAppointment(ctx, patientId, id);
    checkChangeWindow(rules, row, now);
    await applyPatientAnswer(ctx.tx, {
      accountId: ctx.accountId,
      appointmentId: id,
      patientId,
      status: row.status,
      purpose,
      channel: 'online',
      userId: ctx.userId,
      ip: ctx.ip,
      now,
    });
    return fromAgenda(await appointmentsService.get({ ctx: agendaOf(ctx), id }));
  },

  /**
   * Moves the patient's appointment to another offered slot (the same professional and treatment,
   * and so the same duration, unless another offered one is named; another treatment brings its
   * own duration): the agenda's own move, recorded as rescheduled online.
   */
  async reschedule({
    ctx,
    patientId,
    id,
    input,
    now = new Date(),
  }: {
    ctx: OnlineContext;
    patientId: string;
    id: string;
    input: { startsAt: string; professionalId?: string | undefined; treatmentId?: string | undefined };
    now?: Date;
  }): Promise<OnlineAppointment> {
    await findForUpdate(agendaOf(ctx), id);
    const row = await patientAppointment(ctx, patientId, id);
    const rules = await openRules(ctx);
    checkChangeWindow(rules, row, now);
    const professionalId = input.professionalId ?? row.professionalId;
    if (!rules.professionalIds.includes(professionalId)) {
      throw invalidFields([{ path: 'professionalId', code: 'invalid_value' }]);
    }
    // Another treatment: one offered online, with its duration (the same one keeps the appointment's).
    const treatment =
      input.treatmentId && input.treatmentId !== row.treatmentId
        ? await offered(ctx, rules, { treatmentId: input.treatmentId })
        : null;
    const start = new Date(input.startsAt);
    checkWindow(rules, start, now);
    const durationMinutes =
      treatment?.durationMinutes ?? Math.round((row.endsAt.getTime() - row.startsAt.getTime()) / 60_000);
    await requireOffered(ctx, rules, { professionalId, start, durationMinutes }, now);
    const { appointment } = await asPatient(() =>
      appointmentsService.update({
        ctx: agendaOf(ctx),
        id,
        input: {
          patientId,
          professionalId,
          chairId: row.chairId,
          treatmentId: treatment?.id ?? row.treatmentId,
          startsAt: start.toISOString(),
          endsAt: new Date(start.getTime() + durationMinutes * 60_000).toISOString(),
          // An online booking's reason is its treatment's name: it follows the new one.
          reason: treatment && row.reason === row.treatmentName ? treatment.name : row.reason,
          notes: row.notes,
          allowOutsideSchedule: false,
          version: row.version,
        },
        origin: 'online',
      }),
    );
    await queueConfirmation(ctx, appointment.id, now);
    return fromAgenda(appointment);
  },
};
