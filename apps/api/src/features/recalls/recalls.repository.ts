import type { RecallView } from '@odontia/shared/enums';
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, lte, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TxContext, WriterContext } from '../../context.ts';
import type { TenantScope } from '../../db/list-query.ts';
import { sameClinicRow } from '../../db/records.ts';
import {
  appointments,
  attendanceLines,
  attendances,
  patients,
  recallAttempts,
  recalls,
  treatments,
  users,
} from '../../db/schema/index.ts';

/**
 * Recalls' SQL (issue 38). Every statement names the clinic first (its indexes lead with it) and
 * row-level security checks it again.
 */

const openStatuses = ['pending', 'contacted'] as const;

export interface RecallFilters {
  view: RecallView;
  today: string;
  professionalId?: string | undefined;
  treatmentId?: string | undefined;
  patientId?: string | undefined;
}

function whereOf(accountId: string, filters: RecallFilters): SQL {
  const conditions: (SQL | undefined)[] = [eq(recalls.accountId, accountId), isNull(recalls.deletedAt)];
  const open = inArray(recalls.status, [...openStatuses]);
  switch (filters.view) {
    case 'open':
      conditions.push(open);
      break;
    case 'due':
      conditions.push(open, gte(recalls.dueOn, filters.today));
      break;
    case 'overdue':
      conditions.push(open, lt(recalls.dueOn, filters.today));
      break;
    default:
      conditions.push(eq(recalls.status, filters.view));
  }
  if (filters.professionalId) conditions.push(eq(recalls.professionalId, filters.professionalId));
  if (filters.treatmentId) conditions.push(eq(recalls.treatmentId, filters.treatmentId));
  if (filters.patientId) conditions.push(eq(recalls.patientId, filters.patientId));
  return and(...conditions) as SQL;
}

const professional = alias(users, 'recall_professional');

function selectRecalls({ tx }: TenantScope) {
  return tx
    .select({
      recall: recalls,
      patientFirstName: patients.firstName,
      patientLastName: patients.lastName,
      patientPhone: patients.phone,
      patientEmail: patients.email,
      treatmentName: treatments.name,
      professionalName: professional.completeName,
      appointmentStartsAt: appointments.startsAt,
      attemptCount: sql<number>`(select count(*)::int from ${recallAttempts} where ${recallAttempts.accountId} = ${recalls.accountId} and ${recallAttempts.recallId} = ${recalls.id})`,
    })
    .from(recalls)
    .innerJoin(patients, sameClinicRow(patients, recalls, recalls.patientId))
    .innerJoin(treatments, sameClinicRow(treatments, recalls, recalls.treatmentId))
    .innerJoin(professional, sameClinicRow(professional, recalls, recalls.professionalId))
    .leftJoin(appointments, sameClinicRow(appointments, recalls, recalls.appointmentId));
}
export type RecallRow = Awaited<ReturnType<ReturnType<typeof selectRecalls>['execute']>>[number];

/** One page in due order (the index's), and how many match. */
export async function pageRecalls(
  ctx: TenantScope,
  filters: RecallFilters,
  page: { page: number; pageSize: number; descending: boolean },
): Promise<{ rows: RecallRow[]; total: number }> {
  const where = whereOf(ctx.accountId, filters);
  const order = page.descending ? [desc(recalls.dueOn), desc(recalls.id)] : [asc(recalls.dueOn), asc(recalls.id)];
  const rows = await selectRecalls(ctx)
    .where(where)
    .orderBy(...order)
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await ctx.tx.select({ n: count() }).from(recalls).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findRecall(ctx: TenantScope, id: string): Promise<RecallRow | undefined> {
  const [row] = await selectRecalls(ctx).where(
    and(eq(recalls.accountId, ctx.accountId), eq(recalls.id, id), isNull(recalls.deletedAt)),
  );
  return row;
}

/** The recall's row locked for a step. */
export async function lockRecall({ tx, accountId }: TenantScope, id: string) {
  const [row] = await tx
    .select()
    .from(recalls)
    .where(and(eq(recalls.accountId, accountId), eq(recalls.id, id), isNull(recalls.deletedAt)))
    .for('update');
  return row;
}

/** The recalls booked with an appointment, locked for the change its leaving brings. */
export async function bookedWith({ tx, accountId }: TenantScope, appointmentId: string) {
  return tx
    .select({
      id: recalls.id,
      patientId: recalls.patientId,
      status: recalls.status,
      dueOn: recalls.dueOn,
      lastAttemptAt: recalls.lastAttemptAt,
    })
    .from(recalls)
    .where(
      and(
        eq(recalls.accountId, accountId),
        eq(recalls.appointmentId, appointmentId),
        eq(recalls.status, 'booked'),
        isNull(recalls.deletedAt),
      ),
    )
    .orderBy(asc(recalls.id))
    .for('update');
}

export async function listAttempts({ tx, accountId }: TenantScope, recallId: string) {
  return tx
    .select({
      id: recallAttempts.id,
      channel: recallAttempts.channel,
      outcome: recallAttempts.outcome,
      note: recallAttempts.note,
      automatic: recallAttempts.automatic,
      createdAt: recallAttempts.createdAt,
      createdByName: users.completeName,
    })
    .from(recallAttempts)
    .leftJoin(users, sameClinicRow(users, recallAttempts, recallAttempts.createdBy))
    .where(and(eq(recallAttempts.accountId, accountId), eq(recallAttempts.recallId, recallId)))
    .orderBy(desc(recallAttempts.createdAt), desc(recallAttempts.id));
}

export async function insertAttempt(
  { tx, accountId, userId }: Pick<WriterContext, 'tx' | 'accountId'> & { userId: string | null },
  attempt: { id: string; recallId: string; channel: string; outcome: string; note: string | null; automatic: boolean },
): Promise<void> {
  await tx.insert(recallAttempts).values({ accountId, createdBy: userId, ...attempt });
}

/** A step's change of the recall: a new version by the actor. */
export async function updateRecall(
  { tx, accountId, userId }: Pick<WriterContext, 'tx' | 'accountId'> & { userId: string | null },
  id: string,
  change: Partial<typeof recalls.$inferInsert>,
): Promise<void> {
  await tx
    .update(recalls)
    .set({ ...change, updatedAt: sql`now()`, updatedBy: userId, version: sql`${recalls.version} + 1` })
    .where(and(eq(recalls.accountId, accountId), eq(recalls.id, id)));
}

/** The finished attendance's lines whose treatment has a recall rule, with the attendance's date. */
export async function linesWithRules({ tx, accountId }: TxContext, attendanceId: string) {
  return tx
    .select({
      lineId: attendanceLines.id,
      treatmentId: treatments.id,
      interval: treatments.recallInterval,
      unit: treatments.recallUnit,
      reason: treatments.recallReason,
      patientId: attendances.patientId,
      professionalId: attendances.professionalId,
      date: attendances.date,
    })
    .from(attendanceLines)
    .innerJoin(attendances, sameClinicRow(attendances, attendanceLines, attendanceLines.attendanceId))
    .innerJoin(treatments, sameClinicRow(treatments, attendanceLines, attendanceLines.treatmentId))
    .where(
      and(
        eq(attendanceLines.accountId, accountId),
        eq(attendanceLines.attendanceId, attendanceId),
        isNull(attendanceLines.deletedAt),
        eq(attendances.finished, true),
        isNull(attendances.deletedAt),
        sql`${treatments.recallInterval} is not null`,
      ),
    )
    .orderBy(asc(attendanceLines.position));
}

/** Inserts a recall unless its line already has one (finishing twice never makes two): whether it did. */
export async function insertRecallOnce(
  { tx, accountId, userId }: WriterContext,
  recall: {
    id: string;
    patientId: string;
    treatmentId: string;
    professionalId: string;
    attendanceId: string;
    attendanceLineId: string;
    dueOn: string;
    reason: string | null;
  },
): Promise<boolean> {
  const inserted = await tx
    .insert(recalls)
    .values({ accountId, createdBy: userId, updatedBy: userId, ...recall })
    .onConflictDoNothing({ target: [recalls.accountId, recalls.attendanceLineId] })
    .returning({ id: recalls.id });
  return inserted.length > 0;
}

/** The patient's open recalls of a treatment other than `except`, locked (oldest first). */
export async function openRecallsOf(
  { tx, accountId }: TenantScope,
  where: { patientId: string; treatmentId: string; except?: string; createdBefore?: Date },
) {
  return tx
    .select({ id: recalls.id, status: recalls.status, dueOn: recalls.dueOn, version: recalls.version })
    .from(recalls)
    .where(
      and(
        eq(recalls.accountId, accountId),
        eq(recalls.patientId, where.patientId),
        eq(recalls.treatmentId, where.treatmentId),
        inArray(recalls.status, [...openStatuses]),
        isNull(recalls.deletedAt),
        where.except ? ne(recalls.id, where.except) : undefined,
        where.createdBefore ? lte(recalls.createdAt, where.createdBefore) : undefined,
      ),
    )
    .orderBy(asc(recalls.createdAt), asc(recalls.id))
    .for('update');
}

/** The clinic's live appointment of the patient (a recall is booked with one of theirs only). */
export async function patientAppointment({ tx, accountId }: TenantScope, patientId: string, appointmentId: string) {
  const [row] = await tx
    .select({ id: appointments.id, startsAt: appointments.startsAt, status: appointments.status })
    .from(appointments)
    .where(
      and(
        eq(appointments.accountId, accountId),
        eq(appointments.id, appointmentId),
        eq(appointments.patientId, patientId),
        isNull(appointments.deletedAt),
      ),
    );
  return row;
}

/** The dashboard's figure: recalls due in [from, to] and, of them, those booked. */
export async function recallFigures({ tx, accountId }: TenantScope, from: string, to: string) {
  const [row] = await tx
    .select({
      due: count(),
      booked: sql<number>`count(*) filter (where ${recalls.status} = 'booked')::int`,
    })
    .from(recalls)
    .where(
      and(
        eq(recalls.accountId, accountId),
        gte(recalls.dueOn, from),
        lte(recalls.dueOn, to),
        isNull(recalls.deletedAt),
        sql`${recalls.closedReason} is distinct from 'superseded'`,
      ),
    );
  return { due: row?.due ?? 0, booked: row?.booked ?? 0 };
}
