import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { TxContext, WriterContext } from '../../context.ts';
import {
  treatmentPlanAlternatives,
  treatmentPlanItems,
  treatmentPlanPhases,
  treatmentPlanSessions,
  treatmentPlans,
} from '../../db/schema/index.ts';

/**
 * Treatment plans' SQL (issue 41). A plan's content is read in four queries (alternatives, phases,
 * items, sessions) and the sessions' state in two more (what carried them out, where they are
 * booked), whatever the plan's size: no query per row.
 */

export type PlanRow = typeof treatmentPlans.$inferSelect & {
  professionalName: string;
  createdByName: string | null;
  updatedByName: string | null;
  budgetPointOfService: string | null;
  budgetSequence: number | null;
};

const planSelect = sql`
  select p.*, pro.complete_name as professional_name, cu.complete_name as created_by_name,
    uu.complete_name as updated_by_name, d.point_of_service as budget_point_of_service,
    d.sequence_number as budget_sequence
  from treatment_plans p
  join users pro on pro.account_id = p.account_id and pro.id = p.professional_id
  left join users cu on cu.account_id = p.account_id and cu.id = p.created_by
  left join users uu on uu.account_id = p.account_id and uu.id = p.updated_by
  left join commercial_documents d on d.account_id = p.account_id and d.id = p.budget_id`;

type RawPlan = Record<string, unknown>;
const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

function toPlan(row: RawPlan): PlanRow {
  return {
    accountId: row.account_id as string,
    id: row.id as string,
    patientId: row.patient_id as string,
    professionalId: row.professional_id as string,
    title: row.title as string,
    status: row.status as string,
    notes: (row.notes as string | null) ?? null,
    presentedAt: date(row.presented_at),
    decidedAt: date(row.decided_at),
    acceptedAlternativeId: (row.accepted_alternative_id as string | null) ?? null,
    budgetId: (row.budget_id as string | null) ?? null,
    createdAt: date(row.created_at) as Date,
    createdBy: (row.created_by as string | null) ?? null,
    updatedAt: date(row.updated_at) as Date,
    updatedBy: (row.updated_by as string | null) ?? null,
    deletedAt: date(row.deleted_at),
    deletedBy: (row.deleted_by as string | null) ?? null,
    version: Number(row.version),
    professionalName: row.professional_name as string,
    createdByName: (row.created_by_name as string | null) ?? null,
    updatedByName: (row.updated_by_name as string | null) ?? null,
    budgetPointOfService: (row.budget_point_of_service as string | null) ?? null,
    budgetSequence:
      row.budget_sequence === null || row.budget_sequence === undefined ? null : Number(row.budget_sequence),
  };
}

/** A live plan of the patient (locked for a write with `lock`). */
export async function findPlan(
  { tx, accountId }: TxContext,
  patientId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<PlanRow | undefined> {
  if (options.lock) {
    await tx.execute(sql`
      select 1 from treatment_plans where account_id = ${accountId} and id = ${id} and patient_id = ${patientId}
        and deleted_at is null for no key update`);
  }
  const { rows } = await tx.execute<RawPlan>(sql`${planSelect}
    where p.account_id = ${accountId} and p.id = ${id} and p.patient_id = ${patientId} and p.deleted_at is null`);
  return rows[0] ? toPlan(rows[0]) : undefined;
}

/** A page of the patient's live plans, newest first, and the count. */
export async function listPlans(
  { tx, accountId }: TxContext,
  patientId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: PlanRow[]; total: number }> {
  const { rows } = await tx.execute<RawPlan>(sql`${planSelect}
    where p.account_id = ${accountId} and p.patient_id = ${patientId} and p.deleted_at is null
    order by p.created_at desc, p.id desc
    limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`);
  const { rows: counted } = await tx.execute<{ n: number }>(sql`
    select count(*)::int as n from treatment_plans
    where account_id = ${accountId} and patient_id = ${patientId} and deleted_at is null`);
  return { rows: rows.map(toPlan), total: Number(counted[0]?.n ?? 0) };
}

export async function insertPlan(ctx: WriterContext, row: Omit<typeof treatmentPlans.$inferInsert, 'accountId'>) {
  await ctx.tx
    .insert(treatmentPlans)
    .values({ ...row, accountId: ctx.accountId, createdBy: ctx.userId, updatedBy: ctx.userId });
}

/** A new version of the plan by the actor. */
export async function updatePlan(
  ctx: WriterContext,
  id: string,
  set: Partial<Omit<typeof treatmentPlans.$inferInsert, 'accountId' | 'id'>>,
) {
  await ctx.tx
    .update(treatmentPlans)
    .set({ ...set, updatedAt: new Date(), updatedBy: ctx.userId, version: sql`${treatmentPlans.version} + 1` })
    .where(and(eq(treatmentPlans.accountId, ctx.accountId), eq(treatmentPlans.id, id)));
}

export async function softDeletePlan(ctx: WriterContext, id: string) {
  await ctx.tx
    .update(treatmentPlans)
    .set({ deletedAt: new Date(), deletedBy: ctx.userId, version: sql`${treatmentPlans.version} + 1` })
    .where(and(eq(treatmentPlans.accountId, ctx.accountId), eq(treatmentPlans.id, id)));
}

export type ContentRows = {
  alternatives: (typeof treatmentPlanAlternatives.$inferInsert)[];
  phases: (typeof treatmentPlanPhases.$inferInsert)[];
  items: (typeof treatmentPlanItems.$inferInsert)[];
  sessions: (typeof treatmentPlanSessions.$inferInsert)[];
};

/** Retires the plan's live alternatives (an edit writes the content anew). */
export async function retireContent({ tx, accountId }: TxContext, planId: string) {
  await tx
    .update(treatmentPlanAlternatives)
    .set({ retiredAt: new Date() })
    .where(
      and(
        eq(treatmentPlanAlternatives.accountId, accountId),
        eq(treatmentPlanAlternatives.planId, planId),
        isNull(treatmentPlanAlternatives.retiredAt),
      ),
    );
}

export async function insertContent({ tx }: TxContext, rows: ContentRows) {
  if (rows.alternatives.length > 0) await tx.insert(treatmentPlanAlternatives).values(rows.alternatives);
  if (rows.phases.length > 0) await tx.insert(treatmentPlanPhases).values(rows.phases);
  if (rows.items.length > 0) await tx.insert(treatmentPlanItems).values(rows.items);
  if (rows.sessions.length > 0) await tx.insert(treatmentPlanSessions).values(rows.sessions);
}

export type AlternativeRow = { id: string; planId: string; position: number; label: string };
export type PhaseRow = { id: string; alternativeId: string; position: number; kind: string; name: string };
export type ItemRow = {
  id: string;
  planId: string;
  phaseId: string;
  position: number;
  tooth: number | null;
  zone: string | null;
  treatmentId: string;
  treatmentCode: string | null;
  treatmentName: string;
  description: string;
  unitPrice: string;
  quantity: number;
  discountRate: string;
  vatRate: string;
  amount: string;
  notes: string | null;
  chartedAt: Date | null;
};
export type SessionRow = {
  id: string;
  planId: string;
  itemId: string;
  position: number;
  description: string;
  sharePercent: string;
  amount: string;
  budgetLineId: string | null;
  appointmentId: string | null;
};

/** The live content of these plans: four queries. */
export async function contentOf({ tx, accountId }: TxContext, planIds: string[]) {
  if (planIds.length === 0) return { alternatives: [], phases: [], items: [], sessions: [] };
  const alternatives = await tx
    .select({
      id: treatmentPlanAlternatives.id,
      planId: treatmentPlanAlternatives.planId,
      position: treatmentPlanAlternatives.position,
      label: treatmentPlanAlternatives.label,
    })
    .from(treatmentPlanAlternatives)
    .where(
      and(
        eq(treatmentPlanAlternatives.accountId, accountId),
        inArray(treatmentPlanAlternatives.planId, planIds),
        isNull(treatmentPlanAlternatives.retiredAt),
      ),
    )
    .orderBy(treatmentPlanAlternatives.planId, treatmentPlanAlternatives.position);
  const alternativeIds = alternatives.map((row) => row.id);
  if (alternativeIds.length === 0) return { alternatives, phases: [], items: [], sessions: [] };
  const { rows: phases } = await tx.execute<PhaseRow>(sql`
    select id, alternative_id as "alternativeId", position, kind, name from treatment_plan_phases
    where account_id = ${accountId} and plan_id in ${planIds} and alternative_id in ${alternativeIds}
    order by position`);
  const phaseIds = phases.map((row) => row.id);
  if (phaseIds.length === 0) return { alternatives, phases, items: [], sessions: [] };
  const { rows: items } = await tx.execute<ItemRow & { chartedAt: string | Date | null }>(sql`
    select i.id, i.plan_id as "planId", i.phase_id as "phaseId", i.position, i.tooth, i.zone,
      i.treatment_id as "treatmentId", t.code as "treatmentCode", t.name as "treatmentName", i.description,
      i.unit_price::text as "unitPrice", i.quantity, i.discount_rate::text as "discountRate",
      i.vat_rate::text as "vatRate", i.amount::text as amount, i.notes, i.charted_at as "chartedAt"
    from treatment_plan_items i
    join treatments t on t.account_id = i.account_id and t.id = i.treatment_id
    where i.account_id = ${accountId} and i.plan_id in ${planIds} and i.phase_id in ${phaseIds}
    order by i.position`);
  const itemIds = items.map((row) => row.id);
  if (itemIds.length === 0) return { alternatives, phases, items: [], sessions: [] };
  const { rows: sessions } = await tx.execute<SessionRow>(sql`
    select id, plan_id as "planId", item_id as "itemId", position, description,
      share_percent::text as "sharePercent", amount::text as amount, budget_line_id as "budgetLineId",
      appointment_id as "appointmentId"
    from treatment_plan_sessions
    where account_id = ${accountId} and plan_id in ${planIds} and item_id in ${itemIds}
    order by position`);
  return {
    alternatives,
    phases,
    items: items.map((item) => ({
      ...item,
      tooth: item.tooth === null ? null : Number(item.tooth),
      quantity: Number(item.quantity),
      chartedAt: item.chartedAt ? new Date(item.chartedAt) : null,
    })),
    sessions: sessions.map((session) => ({ ...session, position: Number(session.position) })),
  };
}

export type DoneRow = {
  budgetLineId: string;
  attendanceId: string;
  attendanceLineId: string;
  date: Date;
  billed: boolean;
};

/** The live attendance lines (of live attendances) that carry out these budget lines, first done first. */
export async function doneOf({ tx, accountId }: TxContext, budgetLineIds: string[]): Promise<DoneRow[]> {
  if (budgetLineIds.length === 0) return [];
  const { rows } = await tx.execute<DoneRow & { date: string | Date }>(sql`
    select al.budget_line_id as "budgetLineId", a.id as "attendanceId", al.id as "attendanceLineId", a.date,
      exists (select 1 from billed_sources b where b.account_id = al.account_id
              and b.source_kind = 'attendance_line' and b.source_id = al.id) as billed
    from attendance_lines al
    join attendances a on a.account_id = al.account_id and a.id = al.attendance_id and a.deleted_at is null
    where al.account_id = ${accountId} and al.budget_line_id in ${budgetLineIds} and al.deleted_at is null
    order by a.date, al.id`);
  return rows.map((row) => ({ ...row, date: new Date(row.date) }));
}

/** The budget lines billed as such (converted into an issued invoice). */
export async function billedBudgetLines({ tx, accountId }: TxContext, budgetLineIds: string[]): Promise<Set<string>> {
  if (budgetLineIds.length === 0) return new Set();
  const { rows } = await tx.execute<{ id: string }>(sql`
    select source_id as id from billed_sources
    where account_id = ${accountId} and source_kind = 'budget_line' and source_id in ${budgetLineIds}`);
  return new Set(rows.map((row) => row.id));
}

export type BookedRow = { startId: string; id: string; status: string; startsAt: Date; deleted: boolean };

/**
 * Where each booked appointment is now: a moved appointment (rescheduled) is followed to the one
 * that replaced it, a handful of queries for the whole plan (one per move in the longest chain).
 */
export async function bookedNow(
  { tx, accountId }: TxContext,
  appointmentIds: string[],
): Promise<Map<string, BookedRow>> {
  const found = new Map<string, BookedRow>();
  let wanted = new Map(appointmentIds.map((id) => [id, id] as const)); // current id → start id
  for (let hop = 0; hop < 20 && wanted.size > 0; hop += 1) {
    const { rows } = await tx.execute<{
      id: string;
      status: string;
      startsAt: string | Date;
      deleted: boolean;
      rescheduledTo: string | null;
    }>(sql`
      select id, status, starts_at as "startsAt", deleted_at is not null as deleted, rescheduled_to as "rescheduledTo"
      from appointments where account_id = ${accountId} and id in ${[...wanted.keys()]}`);
    const next = new Map<string, string>();
    for (const row of rows) {
      const startId = wanted.get(row.id) as string;
      if (row.status === 'rescheduled' && row.rescheduledTo && !row.deleted) next.set(row.rescheduledTo, startId);
      else
        found.set(startId, {
          startId,
          id: row.id,
          status: row.status,
          startsAt: new Date(row.startsAt),
          deleted: row.deleted,
        });
    }
    wanted = next;
  }
  return found;
}

export async function setSessionBudgetLines(
  { tx, accountId }: TxContext,
  pairs: { id: string; budgetLineId: string }[],
) {
  for (const pair of pairs) {
    await tx
      .update(treatmentPlanSessions)
      .set({ budgetLineId: pair.budgetLineId })
      .where(and(eq(treatmentPlanSessions.accountId, accountId), eq(treatmentPlanSessions.id, pair.id)));
  }
}

export async function setSessionAppointment({ tx, accountId }: TxContext, id: string, appointmentId: string) {
  await tx
    .update(treatmentPlanSessions)
    .set({ appointmentId })
    .where(and(eq(treatmentPlanSessions.accountId, accountId), eq(treatmentPlanSessions.id, id)));
}

export async function markItemsCharted({ tx, accountId }: TxContext, itemIds: string[], at: Date) {
  if (itemIds.length === 0) return;
  await tx
    .update(treatmentPlanItems)
    .set({ chartedAt: at })
    .where(and(eq(treatmentPlanItems.accountId, accountId), inArray(treatmentPlanItems.id, itemIds)));
}

/** The accepted plans (ids) with a session whose budget line one of these attendance lines carries out. */
export async function plansCarriedBy(
  { tx, accountId }: TxContext,
  attendanceId: string,
): Promise<{ id: string; acceptedAlternativeId: string }[]> {
  const { rows } = await tx.execute<{ id: string; acceptedAlternativeId: string }>(sql`
    select distinct s.plan_id as id, p.accepted_alternative_id as "acceptedAlternativeId"
    from attendance_lines al
    join treatment_plan_sessions s on s.account_id = al.account_id and s.budget_line_id = al.budget_line_id
    join treatment_plans p on p.account_id = s.account_id and p.id = s.plan_id
      and p.status = 'accepted' and p.deleted_at is null
    where al.account_id = ${accountId} and al.attendance_id = ${attendanceId} and al.deleted_at is null
      and al.budget_line_id is not null`);
  return rows;
}

export type FollowUpRaw = {
  planId: string;
  patientId: string;
  firstName: string;
  lastName: string;
  phoneArea: string | null;
  phone: string | null;
  title: string;
  professionalName: string;
  decidedAt: string | Date | null;
  total: string;
  pendingAmount: string;
  openSessions: number;
  /** The appointments booked for the sessions not done (the service follows them to today's state). */
  openAppointments: string[] | null;
  nextItem: string | null;
  nextTooth: number | null;
  lastVisit: string | null;
};

/**
 * The follow-up list: accepted plans with a session not done, oldest answer first (the partial
 * index treatment_plans_follow_up_idx). A session is done when a live attendance line carries out
 * its budget line. One statement for the page (a lateral aggregate per plan of the page), one for
 * the count; the service then splits the open sessions into scheduled and pending (bookedNow).
 */
export async function followUp(
  { tx, accountId }: TxContext,
  page: { page: number; pageSize: number },
): Promise<{ rows: FollowUpRaw[]; total: number }> {
  const open = sql`
    from treatment_plans p
    join patients pa on pa.account_id = p.account_id and pa.id = p.patient_id and pa.deleted_at is null
    join lateral (
      select coalesce(sum(x.amount), 0)::text as total,
        coalesce(sum(x.amount) filter (where not x.done), 0)::text as pending_amount,
        count(*) filter (where not x.done)::int as open_sessions,
        array_agg(x.appointment_id) filter (where not x.done and x.appointment_id is not null) as open_appointments,
        (array_agg(x.description order by x.item_position, x.position) filter (where not x.done))[1] as next_item,
        (array_agg(x.tooth order by x.item_position, x.position) filter (where not x.done))[1] as next_tooth
      from (
        select s.amount, s.appointment_id, i.description, i.tooth, i.position as item_position, s.position,
          exists (select 1 from attendance_lines al
                  join attendances a on a.account_id = al.account_id and a.id = al.attendance_id and a.deleted_at is null
                  where al.account_id = s.account_id and al.budget_line_id = s.budget_line_id
                    and al.deleted_at is null) as done
        from treatment_plan_sessions s
        join treatment_plan_items i on i.account_id = s.account_id and i.id = s.item_id
        join treatment_plan_phases ph on ph.account_id = i.account_id and ph.id = i.phase_id
          and ph.alternative_id = p.accepted_alternative_id
        where s.account_id = p.account_id and s.plan_id = p.id
      ) x
    ) st on true
    where p.account_id = ${accountId} and p.deleted_at is null and p.status = 'accepted' and st.open_sessions > 0`;
  const { rows } = await tx.execute<FollowUpRaw>(sql`
    select p.id as "planId", p.patient_id as "patientId", pa.first_name as "firstName", pa.last_name as "lastName",
      pa.phone_area as "phoneArea", pa.phone, p.title, (select u.complete_name from users u where u.account_id = p.account_id and u.id = p.professional_id) as "professionalName",
      p.decided_at as "decidedAt", st.total, st.pending_amount as "pendingAmount", st.open_sessions as "openSessions",
      st.open_appointments as "openAppointments", st.next_item as "nextItem", st.next_tooth as "nextTooth",
      (select (max(a.date) at time zone (select ac.time_zone from accounts ac where ac.id = p.account_id))::date::text from attendances a
         where a.account_id = p.account_id and a.patient_id = p.patient_id and a.deleted_at is null) as "lastVisit"
    ${open}
    order by p.decided_at, p.id
    limit ${page.pageSize} offset ${(page.page - 1) * page.pageSize}`);
  const { rows: counted } = await tx.execute<{ n: number }>(sql`select count(*)::int as n ${open}`);
  return { rows, total: Number(counted[0]?.n ?? 0) };
}
