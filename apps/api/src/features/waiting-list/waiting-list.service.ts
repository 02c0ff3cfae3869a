import type { Weekday } from '@odontia/shared/enums';
import type { Page } from '@odontia/shared/schemas/common';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type {
  WaitingListEntry,
  WaitingListOffer,
  WaitingListQuery,
  WaitingTimeRange,
  waitingListContracts,
} from '@odontia/shared/schemas/waiting-list';
import type { z } from 'zod';
import type { RecordStep, RequestContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { activeProfessionals, treatmentExists } from '../appointments/appointments.repository.ts';
import { type AgendaContext, appointmentsService } from '../appointments/appointments.service.ts';
import { clinicDayOf } from '../appointments/availability.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { invalidFields, requirePatient, requireProfessional } from '../clinical/clinical.service.ts';
import type { FreedSlot, FreeingContext } from '../freed-slots.ts';
import { enqueueJob } from '../jobs/jobs.repository.ts';
import { patientReachable } from '../messages/outbox.ts';
import { presentPatientContact } from '../patients/patient-contact.ts';
import { suitsPreferences } from './preferences.ts';
import * as repository from './waiting-list.repository.ts';

/**
 * The waiting list (issue 38; docs/decisions.md "The waiting list (issue 38)"). Entries are
 * audited records (soft-deleted). When a slot frees — a cancellation (staff, the reminder's link,
 * the portal), a move, an exception removed — `offerFreedSlot` asks the agenda's own free-slot
 * search which starts of each waiting treatment fit in the freed time, and offers them, in order
 * (high priority, then arrival), to up to the clinic's number of entries whose professional and
 * preferences match: each offer holds its slot for the clinic's minutes and is e-mailed from the
 * jobs outbox (once). The first patient to accept books through the agenda's insert (its
 * exclusion constraint decides); the others are told the slot is gone. When every offer of a
 * slot expires unanswered, the next entries are offered it (`waiting_list_next`).
 */

export const offerJobKind = 'waiting_list_offer';
export const nextOffersJobKind = 'waiting_list_next';
const minute = 60_000;
const priorities = { normal: 0, high: 1 } as const;

type Input = z.output<typeof waitingListContracts.create>;

const columnsOf = (row: {
  patientId: string;
  treatmentId: string;
  professionalId: string | null;
  weekdays: readonly string[] | unknown;
  timeRanges: unknown;
  until: string | null;
  priority: number | 'normal' | 'high';
  notes: string | null;
}) => ({
  patientId: row.patientId,
  treatmentId: row.treatmentId,
  professionalId: row.professionalId,
  weekdays: [...(row.weekdays as string[])],
  timeRanges: row.timeRanges as WaitingTimeRange[],
  until: row.until,
  priority: typeof row.priority === 'number' ? row.priority : priorities[row.priority],
  notes: row.notes,
});

const records = auditedRecords({
  repository: repository.entriesRepository,
  entity: 'waiting_list_entry',
  notFound: 'waiting_list_entry_not_found',
  columnsOf,
  present: (row) => row.id as string,
  patientOf: () => null,
});

function present(named: repository.NamedEntry): WaitingListEntry {
  const row = named.row;
  return {
    id: row.id,
    ...presentPatientContact(named),
    treatmentId: row.treatmentId,
    treatmentName: named.treatmentName,
    durationMinutes: named.durationMinutes,
    professionalId: row.professionalId,
    professionalName: named.professionalName,
    weekdays: row.weekdays as Weekday[],
    timeRanges: row.timeRanges as WaitingTimeRange[],
    until: row.until,
    priority: row.priority === 1 ? 'high' : 'normal',
    notes: row.notes,
    status: row.status as WaitingListEntry['status'],
    appointmentId: row.appointmentId,
    lastOfferStatus: named.lastOfferStatus as WaitingListEntry['lastOfferStatus'],
    createdAt: row.createdAt.toISOString(),
    createdByName: named.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: named.updatedByName,
    version: row.version,
  };
}

async function get(ctx: RequestContext, id: string): Promise<WaitingListEntry> {
  const named = await repository.findNamed(ctx, id);
  if (!named) throw new AppError('waiting_list_entry_not_found');
  return present(named);
}

/** The clinic's patient, a live active treatment, an active professional when named (400 otherwise). */
async function checkReferences(ctx: RequestContext, input: Input): Promise<void> {
  try {
    await requirePatient(ctx, input.patientId, { lock: true });
  } catch {
    throw invalidFields([{ path: 'patientId', code: 'invalid_value' }]);
  }
  if (!(await treatmentExists(ctx.tx, ctx.accountId, input.treatmentId))) {
    throw invalidFields([{ path: 'treatmentId', code: 'invalid_value' }]);
  }
  if (input.professionalId) await requireProfessional(ctx, input.professionalId);
}

const notBooked = (row: { status: string }) => {
  if (row.status === 'booked') throw new AppError('waiting_list_entry_booked');
};

function presentOffer(row: Awaited<ReturnType<typeof repository.offersOf>>[number], now: Date): WaitingListOffer {
  const { offer } = row;
  const open = offer.status === 'offered' || offer.status === 'sent';
  return {
    id: offer.id,
    entryId: offer.entryId,
    professionalId: offer.professionalId,
    professionalName: row.professionalName,
    startsAt: offer.startsAt.toISOString(),
    endsAt: offer.endsAt.toISOString(),
    // An open offer past its hold is expired, whether or not a later step has marked it yet.
    status: open && offer.expiresAt <= now ? 'expired' : (offer.status as WaitingListOffer['status']),
    expiresAt: offer.expiresAt.toISOString(),
    sentAt: offer.sentAt?.toISOString() ?? null,
    answeredAt: offer.answeredAt?.toISOString() ?? null,
    appointmentId: offer.appointmentId,
    createdByName: row.createdByName,
    createdAt: offer.createdAt.toISOString(),
  };
}

/** The agenda's context for a freeing act (see online-booking's OnlineContext: authors may be empty). */
const agendaOf = (ctx: FreeingContext, timeZone: string): AgendaContext => ({
  ...ctx,
  userId: ctx.userId as string,
  timeZone,
});

/** Writes one offer of a slot to an entry, queues its e-mail and audits it. */
async function createOffer(
  ctx: FreeingContext,
  entry: { id: string; patientId: string },
  slot: { professionalId: string; start: Date; end: Date },
  holdMinutes: number,
  now: Date,
): Promise<string> {
  const id = newId();
  const expiresAt = new Date(now.getTime() + holdMinutes * minute);
  await repository.insertOffer(ctx, {
    id,
    entryId: entry.id,
    professionalId: slot.professionalId,
    startsAt: slot.start,
    endsAt: slot.end,
    expiresAt,
    createdBy: ctx.userId,
  });
  await enqueueJob(ctx, { kind: offerJobKind, key: id, runAt: now, payload: { offerId: id } });
  await auditEntry(ctx, entry, 'waiting_list_offer_created', {
    offerId: id,
    professionalId: slot.professionalId,
    startsAt: slot.start.toISOString(),
    endsAt: slot.end.toISOString(),
    expiresAt: expiresAt.toISOString(),
  });
  return id;
}

/**
 * Offers the time [start, end) that just freed (of one professional; null: every professional, a
 * clinic-wide exception removed) to the waiting entries it suits. Runs in the transaction that
 * freed it, so a rolled-back cancellation offers nothing; answers the offers' ids.
 */
export async function offerFreedSlot(ctx: FreeingContext, freed: FreedSlot, now = new Date()): Promise<string[]> {
  if (freed.end <= now) return [];
  const settings = await repository.settingsOf(ctx);
  const agenda = agendaOf(ctx, settings.timeZone);
  const professionals = freed.professionalId
    ? [freed.professionalId]
    : (await activeProfessionals(ctx.tx, ctx.accountId)).map((row) => row.id);
  const from = freed.start > now ? freed.start : now;
  const maxMinutes = Math.min(720, Math.floor((freed.end.getTime() - from.getTime()) / minute));
  if (maxMinutes < 5) return [];
  // Offers still open hold their slots: the freed time is offered around them.
  const held = await repository.openOffersBetween(ctx, { from, to: freed.end, now });
  const offered: string[] = [];
  for (const professionalId of professionals) {
    const entries = await repository.candidates(ctx, {
      professionalId,
      maxMinutes,
      day: clinicDayOf(from, settings.timeZone),
      now,
      limit: 100,
      range: { start: from, end: freed.end },
    });
    const startsByDuration = new Map<number, Awaited<ReturnType<typeof appointmentsService.freeSlots>>>();
    let count = 0;
    for (const { entry, durationMinutes } of entries) {
      if (count >= settings.offersPerSlot) break;
      let starts = startsByDuration.get(durationMinutes);
      if (!starts) {
        starts = await appointmentsService
          .freeSlots({
            ctx: agenda,
            query: { professionalId, durationMinutes, from: from.toISOString(), days: 1, limit: 100 },
            now,
            until: freed.end,
            alsoBusy: held,
          })
          .catch(() => []); // the professional is no longer active: nothing to offer
        startsByDuration.set(durationMinutes, starts);
      }
      const slot = starts
        .map((free) => ({ start: new Date(free.startsAt), end: new Date(free.endsAt) }))
        .find(
          (free) =>
            free.end <= freed.end &&
            (!entry.until || clinicDayOf(free.start, settings.timeZone) <= entry.until) &&
            suitsPreferences(
              { weekdays: entry.weekdays as Weekday[], timeRanges: entry.timeRanges as WaitingTimeRange[] },
              free,
              settings.timeZone,
            ),
        );
      if (!slot) continue;
      offered.push(await createOffer(ctx, entry, { professionalId, ...slot }, settings.holdMinutes, now));
      count += 1;
    }
    if (count > 0) {
      // When every offer runs out unanswered, the next entries are offered what is still free.
      await enqueueJob(ctx, {
        kind: nextOffersJobKind,
        key: `${professionalId}:${from.toISOString()}`,
        runAt: new Date(now.getTime() + settings.holdMinutes * minute),
        payload: { professionalId, startsAt: from.toISOString(), endsAt: freed.end.toISOString() },
      });
    }
  }
  return offered;
}

export const waitingListService = {
  get: ({ ctx, id }: { ctx: RequestContext; id: string }) => get(ctx, id),

  async list({ ctx, query }: { ctx: RequestContext; query: WaitingListQuery }): Promise<Page<WaitingListEntry>> {
    const { rows, total } = await repository.page(ctx, query);
    return { data: rows.map(present), total, page: query.page, pageSize: query.pageSize };
  },

  async create({ ctx, input }: { ctx: RequestContext; input: Input }): Promise<WaitingListEntry> {
    await checkReferences(ctx, input);
    const id = newId();
    await records.create(ctx, {}, columnsOf(input), { id });
    return get(ctx, id);
  },

  async update({ ctx, id, input }: RecordStep<Input & { version: number }>): Promise<WaitingListEntry> {
    await records.update(ctx, {}, id, { version: input.version, next: columnsOf(input) }, async (current) => {
      notBooked(current);
      await checkReferences(ctx, input);
    });
    return get(ctx, id);
  },

  remove: ({ ctx, id }: { ctx: RequestContext; id: string }) => records.remove(ctx, {}, id),

  changes: ({ ctx, id, query }: { ctx: RequestContext; id: string; query: PageQuery }) =>
    records.changes(ctx, {}, id, query),

  async offers({ ctx, id, now = new Date() }: { ctx: RequestContext; id: string; now?: Date }) {
    await get(ctx, id);
    return (await repository.offersOf(ctx, id)).map((row) => presentOffer(row, now));
  },

  /** Staff offer the entry one free start of its treatment (409 waiting_list_slot_unavailable otherwise). */
  async offer({
    ctx,
    id,
    input,
    now = new Date(),
  }: {
    ctx: RequestContext;
    id: string;
    input: { professionalId: string; startsAt: string };
    now?: Date;
  }): Promise<WaitingListOffer> {
    const entry = await records.lock(ctx, {}, id);
    notBooked(entry);
    const named = await get(ctx, id);
    // By e-mail, SMS or WhatsApp, whichever of the clinic's channels reaches the patient (issue 38).
    if (!(await patientReachable(ctx, entry.patientId))) throw new AppError('waiting_list_patient_without_email');
    if (entry.professionalId && entry.professionalId !== input.professionalId) {
      throw invalidFields([{ path: 'professionalId', code: 'invalid_value' }]);
    }
    const start = new Date(input.startsAt);
    const settings = await repository.settingsOf(ctx);
    const held = await repository.openOffersBetween(ctx, {
      from: start,
      to: new Date(start.getTime() + named.durationMinutes * minute),
      now,
    });
    const [first] = await appointmentsService.freeSlots({
      ctx,
      query: {
        professionalId: input.professionalId,
        durationMinutes: named.durationMinutes,
        from: start.toISOString(),
        days: 1,
        limit: 1,
      },
      now,
      alsoBusy: held,
    });
    if (first?.startsAt !== start.toISOString()) throw new AppError('waiting_list_slot_unavailable');
    const offerId = await createOffer(
      ctx,
      entry,
      { professionalId: input.professionalId, start, end: new Date(first.endsAt) },
      settings.holdMinutes,
      now,
    );
    const offers = await repository.offersOf(ctx, id);
    const row = offers.find((candidate) => candidate.offer.id === offerId);
    if (!row) throw new Error(`offer ${offerId} not read back`);
    return presentOffer(row, now);
  },
};

/** Audits a change of an entry by the actor, or by nobody (the patient's link, a job). */
export function auditEntry(
  ctx: FreeingContext,
  entry: { id: string; patientId: string },
  action: string,
  after: Record<string, unknown>,
): Promise<void> {
  return recordAuditEvent(ctx.tx, {
    accountId: ctx.accountId,
    userId: ctx.userId,
    ip: ctx.ip,
    patientId: entry.patientId,
    action,
    entity: 'waiting_list_entry',
    entityId: entry.id,
    after,
  });
}
