import { type AnyColumn, and, asc, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { RequestContext, TxContext, WriterContext } from '../../context.ts';
import { recordRepository, sameClinicRow } from '../../db/records.ts';
import {
  appointments,
  commercialDocuments,
  labCaseEvents,
  labCases,
  patients,
  providers,
  treatmentPlanItems,
  users,
} from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';

/**
 * Dental lab cases (issue 41). Writes go through `recordRepository` (the clinic, the author, the
 * version); reads are one query per page joining the patient, the lab, the seating appointment,
 * the invoice and the people, with the overdue and seating-warning flags computed in the same
 * query (the clinic's today and time zone are parameters) — never a query per row.
 */

export const labCasesRepository = recordRepository({
  table: labCases,
  scope: [],
  order: [asc(labCases.dueOn), asc(labCases.id)],
});

/** The day an appointment starts on, in the clinic's time zone. */
const dayOf = (startsAt: AnyColumn | SQL, timeZone: SQL | string) =>
  sql`((${startsAt} at time zone ${timeZone})::date)`;

/**
 * "Its seating appointment is coming and the case will not be back by the day before": the case is
 * not received (draft, sent or returned), the appointment is scheduled for today or later, and
 * either it is already the day before (or the day itself) or the lab's due date is after the day
 * before (or there is none). `today` and `timeZone` are the clinic's (parameters or placeholders).
 */
export function seatingWarningSql(
  lab: { status: AnyColumn; dueOn: AnyColumn },
  appointment: { startsAt: AnyColumn; status: AnyColumn },
  today: SQL | string,
  timeZone: SQL | string,
): SQL<boolean> {
  const day = dayOf(appointment.startsAt, timeZone);
  return sql<boolean>`(${lab.status} in ('draft', 'sent', 'returned')
    and ${appointment.status} = 'scheduled'
    and ${day} >= ${today}::date
    and (${today}::date >= ${day} - 1 or ${lab.dueOn} is null or ${lab.dueOn} >= ${day}))`;
}

/** The agenda's flag for one appointment row: one of its live cases has a seating warning. */
export function appointmentLabWarningSql(today: SQL | string, timeZone: SQL | string): SQL<boolean> {
  const lc = alias(labCases, 'warning_lab_case');
  return sql<boolean>`exists (select 1 from ${labCases} as ${sql.identifier('warning_lab_case')} where ${lc.accountId} = ${appointments.accountId}
    and ${lc.appointmentId} = ${appointments.id} and ${lc.deletedAt} is null
    and ${seatingWarningSql(lc, appointments, today, timeZone)})`;
}

const creator = alias(users, 'lab_case_creator');
const updater = alias(users, 'lab_case_updater');

/** A plan item as the plan shows it: its description, and its tooth when it has one. */
function planItemLabel(item: typeof treatmentPlanItems) {
  return sql`case when ${item.id} is null then null else concat_ws(' · ', ${item.description}, ${item.tooth}::text) end`;
}

function selectCases(ctx: Pick<RequestContext, 'tx' | 'timeZone'>, today: string) {
  const overdue = sql<boolean>`(${labCases.status} = 'sent' and ${labCases.dueOn} < ${today}::date)`;
  const warning = sql<boolean>`coalesce(${seatingWarningSql(labCases, appointments, today, ctx.timeZone)}, false)`;
  return ctx.tx
    .select({
      row: labCases,
      patientName: sql<string>`${patients.firstName} || ' ' || ${patients.lastName}`,
      providerName: providers.fantasyName,
      appointmentStartsAt: appointments.startsAt,
      purchaseNumber: sql<
        string | null
      >`nullif(concat_ws('-', ${commercialDocuments.pointOfService}, ${commercialDocuments.documentNumber}), '')`,
      treatmentPlanItemLabel: sql<string | null>`${planItemLabel(treatmentPlanItems)}`,
      overdue,
      seatingWarning: warning,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(labCases)
    .innerJoin(patients, sameClinicRow(patients, labCases, labCases.patientId))
    .innerJoin(providers, sameClinicRow(providers, labCases, labCases.providerId))
    .leftJoin(appointments, sameClinicRow(appointments, labCases, labCases.appointmentId))
    .leftJoin(commercialDocuments, sameClinicRow(commercialDocuments, labCases, labCases.purchaseId))
    .leftJoin(treatmentPlanItems, sameClinicRow(treatmentPlanItems, labCases, labCases.treatmentPlanItemId))
    .leftJoin(creator, sameClinicRow(creator, labCases, labCases.createdBy))
    .leftJoin(updater, sameClinicRow(updater, labCases, labCases.updatedBy))
    .$dynamic();
}
export type LabCaseRow = Awaited<ReturnType<ReturnType<typeof selectCases>['execute']>>[number];

export async function findCase(ctx: RequestContext, today: string, id: string): Promise<LabCaseRow | undefined> {
  const [row] = await selectCases(ctx, today).where(
    and(eq(labCases.accountId, ctx.accountId), eq(labCases.id, id), isNull(labCases.deletedAt)),
  );
  return row;
}

export interface CaseFilter {
  status?: string | undefined;
  overdue?: boolean | undefined;
  providerId?: string | undefined;
  patientId?: string | undefined;
  appointmentId?: string | undefined;
  purchaseId?: string | undefined;
}

const openStatuses = ['draft', 'sent', 'received', 'checked', 'returned'];

/**
 * A page of cases. With a patient, an appointment or an invoice: every state, newest first;
 * otherwise the open list (or one state), soonest due first, no due date last (`lab_cases_open_idx`).
 */
export async function pageCases(
  ctx: RequestContext,
  today: string,
  filter: CaseFilter,
  page: { page: number; pageSize: number },
): Promise<{ rows: LabCaseRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [eq(labCases.accountId, ctx.accountId), isNull(labCases.deletedAt)];
  const everyState = Boolean(filter.patientId || filter.appointmentId || filter.purchaseId);
  if (filter.status) conditions.push(eq(labCases.status, filter.status));
  else if (!everyState) conditions.push(inArray(labCases.status, openStatuses));
  if (filter.overdue) conditions.push(sql`${labCases.status} = 'sent' and ${labCases.dueOn} < ${today}::date`);
  if (filter.providerId) conditions.push(eq(labCases.providerId, filter.providerId));
  if (filter.patientId) conditions.push(eq(labCases.patientId, filter.patientId));
  if (filter.appointmentId) conditions.push(eq(labCases.appointmentId, filter.appointmentId));
  if (filter.purchaseId) conditions.push(eq(labCases.purchaseId, filter.purchaseId));
  const where = and(...conditions) as SQL;
  const order = everyState
    ? [sql`${labCases.createdAt} desc`, sql`${labCases.id} desc`]
    : [sql`${labCases.dueOn} asc nulls last`, asc(labCases.id)];
  const rows = await selectCases(ctx, today)
    .where(where)
    .orderBy(...order)
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await ctx.tx.select({ n: count() }).from(labCases).where(where);
  return { rows, total: total?.n ?? 0 };
}

export interface CaseEventInput {
  caseId: string;
  action: string;
  fromStatus: string | null;
  toStatus: string;
  onDate?: string | null;
  dueOn?: string | null;
  reason?: string | null;
}

export async function insertEvent(ctx: WriterContext, event: CaseEventInput): Promise<void> {
  await ctx.tx.insert(labCaseEvents).values({
    accountId: ctx.accountId,
    id: newId(),
    caseId: event.caseId,
    action: event.action,
    fromStatus: event.fromStatus,
    toStatus: event.toStatus,
    onDate: event.onDate ?? null,
    dueOn: event.dueOn ?? null,
    reason: event.reason ?? null,
    createdBy: ctx.userId,
  });
}

export function caseEvents(ctx: TxContext, caseId: string) {
  const by = alias(users, 'lab_case_event_by');
  return ctx.tx
    .select({ event: labCaseEvents, byName: by.completeName })
    .from(labCaseEvents)
    .leftJoin(by, sameClinicRow(by, labCaseEvents, labCaseEvents.createdBy))
    .where(and(eq(labCaseEvents.accountId, ctx.accountId), eq(labCaseEvents.caseId, caseId)))
    .orderBy(asc(labCaseEvents.createdAt), asc(labCaseEvents.id));
}

/** The appointment a case names: its patient (null when it is not the clinic's or was deleted). */
export async function appointmentPatient(ctx: TxContext, appointmentId: string): Promise<string | null> {
  const [row] = await ctx.tx
    .select({ patientId: appointments.patientId })
    .from(appointments)
    .where(
      and(
        eq(appointments.accountId, ctx.accountId),
        eq(appointments.id, appointmentId),
        isNull(appointments.deletedAt),
      ),
    );
  return row?.patientId ?? null;
}

/** The purchase a case names: its provider (null when it is not a live purchase of the clinic). */
export async function purchaseProvider(ctx: TxContext, purchaseId: string): Promise<string | null | undefined> {
  const [row] = await ctx.tx
    .select({ providerId: commercialDocuments.providerId })
    .from(commercialDocuments)
    .where(
      and(
        eq(commercialDocuments.accountId, ctx.accountId),
        eq(commercialDocuments.id, purchaseId),
        eq(commercialDocuments.side, 'purchase'),
        isNull(commercialDocuments.deletedAt),
      ),
    );
  return row ? row.providerId : undefined;
}

/** Whether the provider is a live provider of the clinic. */
export async function providerExists(ctx: TxContext, providerId: string): Promise<boolean> {
  const [row] = await ctx.tx
    .select({ id: providers.id })
    .from(providers)
    .where(and(eq(providers.accountId, ctx.accountId), eq(providers.id, providerId), isNull(providers.deletedAt)));
  return Boolean(row);
}

/**
 * The items of the patient's accepted treatment plans, their live alternative only (an accepted
 * plan is final: its items keep their ids), in the plan's order.
 */
export async function acceptedPlanItems(ctx: TxContext, patientId: string, itemId?: string) {
  const { rows } = await ctx.tx.execute<{
    id: string;
    plan_id: string;
    plan_title: string;
    description: string;
    tooth: number | null;
  }>(sql`
    select i.id, i.plan_id, p.title as plan_title, i.description, i.tooth
    from treatment_plans p
    join treatment_plan_alternatives a
      on a.account_id = p.account_id and a.plan_id = p.id and a.retired_at is null and a.id = p.accepted_alternative_id
    join treatment_plan_phases ph on ph.account_id = a.account_id and ph.alternative_id = a.id
    join treatment_plan_items i on i.account_id = ph.account_id and i.phase_id = ph.id
    where p.account_id = ${ctx.accountId} and p.patient_id = ${patientId} and p.deleted_at is null
      and p.status = 'accepted' ${itemId ? sql`and i.id = ${itemId}` : sql``}
    order by p.created_at desc, ph.position, i.position`);
  return rows.map((row) => ({
    id: row.id,
    planId: row.plan_id,
    planTitle: row.plan_title,
    description: row.description,
    tooth: row.tooth,
    label: row.tooth === null ? row.description : `${row.description} · ${row.tooth}`,
  }));
}
