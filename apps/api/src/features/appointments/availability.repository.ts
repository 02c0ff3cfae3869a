import { and, eq, gt, inArray, isNull, lt, or, type SQL } from 'drizzle-orm';
import { scheduleExceptions, schedules } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import type { Exception, WeekRange } from './availability.ts';

/**
 * What availability needs of the schedules (issue 16), read straight from the tables the
 * schedules feature writes: the clinic's opening hours, the professionals' weeks and the dated
 * exceptions (the clinic's and theirs) that overlap a range.
 */

export interface Weeks {
  clinic: WeekRange[] | null;
  byProfessional: Map<string, WeekRange[]>;
}

export async function readWeeks(tx: TenantTx, accountId: string, professionalIds: string[]): Promise<Weeks> {
  const owners: SQL[] = [isNull(schedules.professionalId)];
  if (professionalIds.length) owners.push(inArray(schedules.professionalId, professionalIds));
  const rows = await tx
    .select({ professionalId: schedules.professionalId, ranges: schedules.ranges })
    .from(schedules)
    .where(and(eq(schedules.accountId, accountId), isNull(schedules.deletedAt), or(...owners)));
  const weeks: Weeks = { clinic: null, byProfessional: new Map() };
  for (const row of rows) {
    const ranges = (Array.isArray(row.ranges) ? row.ranges : []) as WeekRange[];
    if (row.professionalId === null) weeks.clinic = ranges;
    else weeks.byProfessional.set(row.professionalId, ranges);
  }
  return weeks;
}

/** The exceptions overlapping [from, to): the clinic's (professionalId null) and the professionals'. */
export async function readExceptions(
  tx: TenantTx,
  accountId: string,
  range: { from: Date; to: Date; professionalIds: string[] },
): Promise<(Exception & { professionalId: string | null })[]> {
  const owners: SQL[] = [isNull(scheduleExceptions.professionalId)];
  if (range.professionalIds.length) owners.push(inArray(scheduleExceptions.professionalId, range.professionalIds));
  const rows = await tx
    .select({
      professionalId: scheduleExceptions.professionalId,
      kind: scheduleExceptions.kind,
      startsAt: scheduleExceptions.startsAt,
      endsAt: scheduleExceptions.endsAt,
    })
    .from(scheduleExceptions)
    .where(
      and(
        eq(scheduleExceptions.accountId, accountId),
        isNull(scheduleExceptions.deletedAt),
        lt(scheduleExceptions.startsAt, range.to),
        gt(scheduleExceptions.endsAt, range.from),
        or(...owners),
      ),
    );
  return rows.map((row) => ({ ...row, kind: row.kind as Exception['kind'] }));
}
