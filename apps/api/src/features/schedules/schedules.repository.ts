import { and, asc, eq, gt, inArray, isNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { searchCondition } from '../../db/indexed-search.ts';
import { recordRepository, sameClinicRow } from '../../db/records.ts';
import { accounts, chairs, scheduleExceptions, schedules, treatments, users } from '../../db/schema/index.ts';
import { spanishKey } from '../../db/spanish-order.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/** Opening hours, professionals' weeks, exceptions, chairs and treatments (issue 16; tenant context). */

interface Scope {
  readonly tx: TenantTx;
  readonly accountId: string;
}

export type ScheduleRow = typeof schedules.$inferSelect & { updatedByName: string | null };

const updater = alias(users, 'schedule_updater');

/** Every live week of the clinic (the clinic's has professional_id null), with who last saved it. */
export async function listSchedules({ tx, accountId }: Scope): Promise<ScheduleRow[]> {
  return tx
    .select({ ...schedulesColumns, updatedByName: updater.completeName })
    .from(schedules)
    .leftJoin(updater, sameClinicRow(updater, schedules, schedules.updatedBy))
    .where(and(eq(schedules.accountId, accountId), isNull(schedules.deletedAt)));
}

const schedulesColumns = {
  accountId: schedules.accountId,
  id: schedules.id,
  professionalId: schedules.professionalId,
  ranges: schedules.ranges,
  createdAt: schedules.createdAt,
  createdBy: schedules.createdBy,
  updatedAt: schedules.updatedAt,
  updatedBy: schedules.updatedBy,
  deletedAt: schedules.deletedAt,
  deletedBy: schedules.deletedBy,
  version: schedules.version,
};

/** The owner's live week, locked for a save (null professional: the clinic's opening hours). */
export async function findScheduleForUpdate(
  { tx, accountId }: Scope,
  professionalId: string | null,
): Promise<typeof schedules.$inferSelect | undefined> {
  const [row] = await tx
    .select()
    .from(schedules)
    .where(
      and(
        eq(schedules.accountId, accountId),
        professionalId ? eq(schedules.professionalId, professionalId) : isNull(schedules.professionalId),
        isNull(schedules.deletedAt),
      ),
    )
    .for('no key update');
  return row;
}

/** The first week of an owner; two first saves racing meet the owner's unique index (the loser gets 409). */
export async function insertSchedule(
  { tx, accountId, userId }: Scope & { userId: string },
  row: { id: string; professionalId: string | null; ranges: unknown },
): Promise<void> {
  await tx.insert(schedules).values({ ...row, accountId, createdBy: userId, updatedBy: userId });
}

export async function updateSchedule(
  { tx, accountId, userId }: Scope & { userId: string },
  id: string,
  ranges: unknown,
): Promise<void> {
  await tx
    .update(schedules)
    .set({ ranges, updatedAt: new Date(), updatedBy: userId, version: sql`${schedules.version} + 1` })
    .where(and(eq(schedules.accountId, accountId), eq(schedules.id, id)));
}

/** The clinic's users a week may belong to: active, not customers (as GET /api/professionals). */
export async function activeProfessionals({ tx, accountId }: Scope) {
  return tx
    .select({ id: users.id, completeName: users.completeName })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.active, true), ne(users.level, 'customer')))
    .orderBy(asc(spanishKey(users.completeName)), asc(users.id))
    .limit(500);
}

/** Names of the clinic's users by id (for the exceptions' professional, which may be null). */
export async function userNames({ tx, accountId }: Scope, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: users.id, name: users.completeName })
    .from(users)
    .where(and(eq(users.accountId, accountId), sql`${users.id} in ${ids}`));
  return new Map(rows.map((row) => [row.id, row.name]));
}

export const exceptionsRepository = recordRepository({
  table: scheduleExceptions,
  scope: [],
  order: [asc(scheduleExceptions.startsAt), asc(scheduleExceptions.id)],
});

/** The exceptions list's filters: those overlapping [from, to), of one professional (and the clinic's). */
export function exceptionsFilter(query: { from?: string; to?: string; professionalId?: string }): SQL | undefined {
  return and(
    query.from ? gt(scheduleExceptions.endsAt, new Date(query.from)) : undefined,
    query.to ? lt(scheduleExceptions.startsAt, new Date(query.to)) : undefined,
    query.professionalId
      ? sql`(${scheduleExceptions.professionalId} = ${query.professionalId} or ${scheduleExceptions.professionalId} is null)`
      : undefined,
  );
}

/** Names in Spanish order (db/spanish-order.ts, treatments_name_idx). */
const byName = spanishKey(treatments.name);

export const treatmentsRepository = recordRepository({
  table: treatments,
  scope: [],
  order: [asc(byName), asc(treatments.id)],
});

/** The price list in each of its orders, ascending and descending (name and id break ties). */
const treatmentOrders = {
  name: (dir: SQL) => [sql`${byName} ${dir}`, sql`${treatments.id} ${dir}`],
  code: (dir: SQL) => [sql`lower(${treatments.code}) ${dir} nulls last`, asc(byName), asc(treatments.id)],
  group: (dir: SQL) => [sql`${spanishKey(treatments.groupName)} ${dir} nulls last`, asc(byName), asc(treatments.id)],
  price: (dir: SQL) => [sql`${treatments.price} ${dir}`, asc(byName), asc(treatments.id)],
};
const treatmentsIn = (order: SQL[]) => recordRepository({ table: treatments, scope: [], order });
const ascending = sql.raw('asc');
const descending = sql.raw('desc');
export const sortedTreatments = {
  name: treatmentsRepository,
  '-name': treatmentsIn(treatmentOrders.name(descending)),
  code: treatmentsIn(treatmentOrders.code(ascending)),
  '-code': treatmentsIn(treatmentOrders.code(descending)),
  group: treatmentsIn(treatmentOrders.group(ascending)),
  '-group': treatmentsIn(treatmentOrders.group(descending)),
  price: treatmentsIn(treatmentOrders.price(ascending)),
  '-price': treatmentsIn(treatmentOrders.price(descending)),
} as const;

/**
 * The price list's filters: every word of `q` in the code, name or group (accent- and case-free,
 * `search_text`), active or not, one group. A clinic's price list is a few hundred rows: the
 * policy-checked LIKE reads them all in a millisecond, so the system-context index lookup of
 * db/indexed-search.ts is not needed here.
 */
export function treatmentsFilter(query: {
  q?: string | undefined;
  active?: boolean | undefined;
  group?: string | undefined;
}): SQL | undefined {
  return and(
    searchCondition(treatments.searchText, query.q),
    query.active === undefined ? undefined : eq(treatments.active, query.active),
    query.group ? eq(treatments.groupName, query.group) : undefined,
  );
}

/** The groups of the live treatments, in Spanish order. */
export async function treatmentGroups({ tx, accountId }: Scope): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ key: spanishKey(treatments.groupName), groupName: treatments.groupName })
    .from(treatments)
    .where(
      and(eq(treatments.accountId, accountId), isNull(treatments.deletedAt), sql`${treatments.groupName} is not null`),
    )
    .orderBy(sql`1`, sql`2`);
  return rows.flatMap((row) => (row.groupName ? [row.groupName] : []));
}

/** Live treatments whose code (any case) is one of these, with their id, version and duration. */
export async function treatmentsByCode({ tx, accountId }: Scope, codes: string[]) {
  if (codes.length === 0) return [];
  return tx
    .select({
      id: treatments.id,
      code: treatments.code,
      version: treatments.version,
      durationMinutes: treatments.durationMinutes,
    })
    .from(treatments)
    .where(
      and(
        eq(treatments.accountId, accountId),
        isNull(treatments.deletedAt),
        inArray(
          sql`lower(${treatments.code})`,
          codes.map((code) => code.toLowerCase()),
        ),
      ),
    );
}

export const chairsRepository = recordRepository({
  table: chairs,
  scope: [],
  order: [asc(chairs.sortOrder), asc(spanishKey(chairs.name)), asc(chairs.id)],
});

/** The clinic's reminder settings and the address and phone the reminder prints. */
export async function findReminderSettings({ tx, accountId }: Scope) {
  const [row] = await tx
    .select({
      remindersEnabled: accounts.remindersEnabled,
      reminderLeadMinutes: accounts.reminderLeadMinutes,
      address: accounts.address,
      phone: accounts.phone,
      recallMessageDays: accounts.recallMessageDays,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for('no key update');
  return row;
}

export async function updateReminderSettings(
  { tx, accountId }: Scope,
  settings: {
    remindersEnabled: boolean;
    reminderLeadMinutes: number;
    address: string | null;
    phone: string | null;
    recallMessageDays: number;
  },
): Promise<void> {
  await tx
    .update(accounts)
    .set({ ...settings, updatedAt: new Date(), version: sql`${accounts.version} + 1` })
    .where(eq(accounts.id, accountId));
}
