import { weekdays } from '@odontia/shared/enums';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type {
  ReminderSettings,
  Schedule,
  ScheduleException,
  ScheduleRange,
  StoredReminderSettings,
  saveScheduleRequestSchema,
  scheduleExceptionContracts,
  scheduleExceptionsQuerySchema,
} from '@odontia/shared/schemas/schedules';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { guardUnique } from '../../db/errors.ts';
import { presentStamps } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { audit } from '../audit/audit.repository.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { requireProfessional } from '../clinical/clinical.service.ts';
import { slotFreed } from '../freed-slots.ts';
import * as repository from './schedules.repository.ts';

/**
 * Opening hours and attendance schedules (issue 16, spec §3 "Schedule"). A week is saved whole
 * (one row per owner: the clinic, or one professional), versioned and audited as entity
 * 'schedule' with the ranges before and after. A professional without a week of their own
 * follows the clinic's opening hours. Exceptions (holidays, vacations, blocks) are records.
 */

type Range = ScheduleRange;
type SaveWeek = z.output<typeof saveScheduleRequestSchema>;

/** Ranges in a stable order: weekday (sunday first), then opening. */
function sorted(ranges: readonly Range[]): Range[] {
  return [...ranges]
    .map((range) => ({
      weekday: range.weekday,
      opening: range.opening,
      closing: range.closing,
      recessStart: range.recessStart ?? null,
      recessEnd: range.recessEnd ?? null,
    }))
    .sort((a, b) => weekdays.indexOf(a.weekday) - weekdays.indexOf(b.weekday) || a.opening.localeCompare(b.opening));
}

function present(
  row: repository.ScheduleRow | undefined,
  owner: { professionalId: string | null; professionalName: string | null },
): Schedule {
  if (!row) return { id: null, ...owner, ranges: [], version: 0, updatedAt: null, updatedByName: null };
  return {
    id: row.id,
    ...owner,
    ranges: sorted(row.ranges as Range[]),
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
  };
}

async function readWeek(ctx: RequestContext, professionalId: string | null, professionalName: string | null) {
  const rows = await repository.listSchedules(ctx);
  return present(
    rows.find((row) => row.professionalId === professionalId),
    { professionalId, professionalName },
  );
}

async function saveWeek(
  ctx: RequestContext,
  professionalId: string | null,
  professionalName: string | null,
  input: SaveWeek,
): Promise<Schedule> {
  const ranges = sorted(input.ranges);
  const current = await repository.findScheduleForUpdate(ctx, professionalId);
  const currentVersion = current?.version ?? 0;
  if (currentVersion !== input.version) {
    throw new AppError('version_conflict', { current: await readWeek(ctx, professionalId, professionalName) });
  }
  const before = current ? sorted(current.ranges as Range[]) : [];
  let id: string;
  if (current) {
    id = current.id;
    await repository.updateSchedule(ctx, id, ranges);
  } else {
    id = newId();
    // Two first saves at once: the owner's unique index refuses the second, which is stale.
    await guardUnique(
      ctx.tx,
      () => repository.insertSchedule(ctx, { id, professionalId, ranges }),
      async () => {
        throw new AppError('version_conflict', { current: await readWeek(ctx, professionalId, professionalName) });
      },
    );
  }
  await audit(ctx, {
    patientId: null,
    action: 'schedule_updated',
    entity: 'schedule',
    entityId: id,
    before: { professionalId, ranges: before },
    after: { professionalId, ranges },
  });
  return readWeek(ctx, professionalId, professionalName);
}

/** The professional must be an active user of the clinic: 404 user_not_found otherwise. */
async function professionalName(ctx: RequestContext, professionalId: string): Promise<string> {
  const found = (await repository.activeProfessionals(ctx)).find((row) => row.id === professionalId);
  if (!found) throw new AppError('user_not_found');
  return found.completeName;
}

type ExceptionInput = z.output<typeof scheduleExceptionContracts.create>;
type ExceptionColumns = {
  professionalId: string | null;
  kind: string;
  startsAt: Date;
  endsAt: Date;
  allDay: boolean;
  reason: string | null;
};
const exceptionColumns = (input: {
  professionalId: string | null;
  kind: string;
  startsAt: string | Date;
  endsAt: string | Date;
  allDay: boolean;
  reason: string | null;
}): ExceptionColumns => ({
  professionalId: input.professionalId,
  kind: input.kind,
  startsAt: new Date(input.startsAt),
  endsAt: new Date(input.endsAt),
  allDay: input.allDay,
  reason: input.reason,
});

const exceptionRecords = auditedRecords({
  repository: repository.exceptionsRepository,
  entity: 'schedule_exception',
  notFound: 'schedule_exception_not_found',
  columnsOf: exceptionColumns,
  present: (row): ScheduleException => ({
    id: row.id,
    professionalId: row.professionalId,
    professionalName: null,
    kind: row.kind as ScheduleException['kind'],
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    allDay: row.allDay,
    reason: row.reason,
    ...presentStamps(row),
  }),
});

/** The exceptions with their professional's name (null: the whole clinic). */
async function named(ctx: RequestContext, rows: ScheduleException[]): Promise<ScheduleException[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.professionalId ? [row.professionalId] : [])))];
  const names = await repository.userNames(ctx, ids);
  return rows.map((row) => ({
    ...row,
    professionalName: row.professionalId ? (names.get(row.professionalId) ?? null) : null,
  }));
}

type One = { ctx: RequestContext; id: string };

export const scheduleExceptionsService = {
  async list({ ctx, query }: { ctx: RequestContext; query: z.output<typeof scheduleExceptionsQuerySchema> }) {
    const page = await exceptionRecords.page(ctx, {}, query, repository.exceptionsFilter(query));
    return { ...page, data: await named(ctx, page.data) };
  },
  async get({ ctx, id }: One) {
    const [found] = await named(ctx, [await exceptionRecords.get(ctx, {}, id)]);
    return found as ScheduleException;
  },
  async create({ ctx, input }: { ctx: RequestContext; input: ExceptionInput }) {
    if (input.professionalId) await requireProfessional(ctx, input.professionalId);
    const created = await exceptionRecords.create(ctx, {}, exceptionColumns(input));
    return (await named(ctx, [created]))[0] as ScheduleException;
  },
  async update({ ctx, id, input }: One & { input: ExceptionInput & { version: number } }) {
    const updated = await exceptionRecords.update(
      ctx,
      {},
      id,
      { version: input.version, next: exceptionColumns(input) },
      async (current) => {
        if (input.professionalId && input.professionalId !== current.professionalId)
          await requireProfessional(ctx, input.professionalId);
      },
    );
    return (await named(ctx, [updated]))[0] as ScheduleException;
  },
  /** A removed exception frees its time: offered to the waiting list (issue 38), in this transaction. */
  async remove({ ctx, id }: One) {
    let freed: { professionalId: string | null; startsAt: Date; endsAt: Date } | undefined;
    await exceptionRecords.remove(ctx, {}, id, (current) => {
      freed = current;
    });
    if (freed) {
      await slotFreed(ctx, { professionalId: freed.professionalId, start: freed.startsAt, end: freed.endsAt });
    }
  },
  changes: ({ ctx, id, query }: One & { query: PageQuery }) => exceptionRecords.changes(ctx, {}, id, query),
};

export const schedulesService = {
  /** The clinic's opening hours and every active professional's week (version 0: follows the clinic's). */
  async all({ ctx }: { ctx: RequestContext }): Promise<{ clinic: Schedule; professionals: Schedule[] }> {
    // One after the other: both run on the request's one connection.
    const rows = await repository.listSchedules(ctx);
    const professionals = await repository.activeProfessionals(ctx);
    return {
      clinic: present(
        rows.find((row) => row.professionalId === null),
        { professionalId: null, professionalName: null },
      ),
      professionals: professionals.map((professional) =>
        present(
          rows.find((row) => row.professionalId === professional.id),
          { professionalId: professional.id, professionalName: professional.completeName },
        ),
      ),
    };
  },

  saveClinic: ({ ctx, input }: { ctx: RequestContext; input: SaveWeek }) => saveWeek(ctx, null, null, input),

  async saveProfessional({
    ctx,
    professionalId,
    input,
  }: {
    ctx: RequestContext;
    professionalId: string;
    input: SaveWeek;
  }) {
    const name = await professionalName(ctx, professionalId);
    return saveWeek(ctx, professionalId, name, input);
  },

  async reminders({ ctx }: { ctx: RequestContext }): Promise<StoredReminderSettings> {
    const row = await repository.findReminderSettings(ctx);
    if (!row) throw new AppError('not_found');
    return row;
  },

  /** Saved; `remindersChanged` when the lead or on/off changed (it applies to appointments booked or moved from now on). */
  async saveReminders({
    ctx,
    input,
  }: {
    ctx: RequestContext;
    input: ReminderSettings;
  }): Promise<{ settings: StoredReminderSettings; remindersChanged: boolean }> {
    const before = await repository.findReminderSettings(ctx);
    const after = {
      remindersEnabled: input.remindersEnabled,
      reminderLeadMinutes: input.reminderLeadMinutes,
      address: input.address ?? null,
      phone: input.phone ?? null,
      // Recalls (issue 38): left out of the body, it stays as it is.
      recallMessageDays: input.recallMessageDays ?? before?.recallMessageDays ?? 0,
    };
    await repository.updateReminderSettings(ctx, after);
    await audit(ctx, {
      patientId: null,
      action: 'reminder_settings_updated',
      entity: 'account',
      entityId: ctx.accountId,
      before: before ?? null,
      after,
    });
    const remindersChanged =
      before?.remindersEnabled !== after.remindersEnabled || before?.reminderLeadMinutes !== after.reminderLeadMinutes;
    return { settings: after, remindersChanged };
  },
};
