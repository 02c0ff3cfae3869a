import { sql } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';
import { type DayFigure, dayFigureRows, openAmountsByDue } from '../figures/day-figures.repository.ts';

/**
 * The dashboard's reads (issue 19). The period's sums come from the kept day figures (a few rows
 * a day, whatever the clinic's size); today's agenda through the appointments' start index; the
 * returning patients through the patients' latest-attendance index (the attendances' date index
 * for a period past); the debtors through the balances' index. Every statement names the
 * clinic; RLS checks it again.
 */

export interface Period {
  label: 'current' | 'previous' | 'lastYear';
  from: string;
  to: string;
}

export interface FigureSumRow {
  period: Period['label'];
  figure: DayFigure;
  key: string;
  amount: string;
  count: number;
}

/** Each figure and key summed over each period (the periods may overlap: each is summed apart). */
export async function figureSums(ctx: TxContext, figures: DayFigure[], periods: Period[]): Promise<FigureSumRow[]> {
  const parts = periods.map(
    (period) => sql`
    select ${period.label}::text as period, r.figure, r.key, sum(r.amount)::text as amount, sum(r.count)::int as count
    from (${dayFigureRows(ctx, { figures, from: period.from, to: period.to })}) r
    group by r.figure, r.key`,
  );
  const { rows } = await ctx.tx.execute<FigureSumRow & { [key: string]: unknown }>(sql.join(parts, sql` union all `));
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/** A figure's amount per day of a period, for the keys given (days without any are left out). */
export async function figureByDay(
  ctx: TxContext,
  figure: DayFigure,
  signs: Record<string, 1 | -1>,
  from: string,
  to: string,
): Promise<{ day: string; amount: string }[]> {
  const keys = Object.keys(signs);
  const signed = sql.join(
    keys.map((key) => sql`when ${key} then ${signs[key] as number}`),
    sql` `,
  );
  const { rows } = await ctx.tx.execute<{ day: string; amount: string }>(sql`
    select r.day::text as day, sum(r.amount * case r.key ${signed} else 0 end)::text as amount
    from (${dayFigureRows(ctx, { figures: [figure], keys, from, to })}) r
    group by r.day order by r.day`);
  return rows;
}

export interface AgendaRow {
  professional_id: string;
  professional_name: string;
  total: number;
  not_confirmed: number;
  confirmed: number;
  arrived: number;
  completed: number;
  cancelled: number;
}

/** Today's appointments per professional (`appointments_starts_idx`), only `professionalId`'s when given. */
export async function agendaOf(ctx: TxContext, start: Date, end: Date, professionalId?: string): Promise<AgendaRow[]> {
  const { rows } = await ctx.tx.execute<AgendaRow & { [key: string]: unknown }>(sql`
    select a.professional_id, u.complete_name as professional_name,
      count(*) filter (where a.status <> 'rescheduled')::int as total,
      count(*) filter (where a.status = 'scheduled' and a.arrived_at is null and a.confirmed_at is null)::int as not_confirmed,
      count(*) filter (where a.status = 'scheduled' and a.arrived_at is null and a.confirmed_at is not null)::int as confirmed,
      count(*) filter (where a.status = 'scheduled' and a.arrived_at is not null)::int as arrived,
      count(*) filter (where a.status = 'completed')::int as completed,
      count(*) filter (where a.status = 'cancelled')::int as cancelled
    from appointments a
    join users u on u.account_id = a.account_id and u.id = a.professional_id
    where a.account_id = ${ctx.accountId}::uuid and a.deleted_at is null
      and a.starts_at >= ${start.toISOString()}::timestamptz and a.starts_at < ${end.toISOString()}::timestamptz
      ${professionalId ? sql`and a.professional_id = ${professionalId}::uuid` : sql``}
    group by a.professional_id, u.complete_name
    order by odontia_sort_key(u.complete_name) collate "C", a.professional_id`);
  return rows.map((row) => ({
    ...row,
    total: Number(row.total),
    not_confirmed: Number(row.not_confirmed),
    confirmed: Number(row.confirmed),
    arrived: Number(row.arrived),
    completed: Number(row.completed),
    cancelled: Number(row.cancelled),
  }));
}

/**
 * How many patients were attended in the period (each once; a deleted patient too, as the
 * period's attendances count theirs). A period that ends now or later (the dashboard's usual
 * periods end today) is counted from the patients' latest attendance; one that ended before now
 * from its attendances (see `patientsAttendedByLatest`).
 */
export async function patientsAttended(ctx: TxContext, start: Date, end: Date): Promise<number> {
  return end.getTime() >= Date.now()
    ? patientsAttendedByLatest(ctx, start, end)
    : patientsAttendedByAttendances(ctx, start, end);
}

/**
 * The patients attended in the period from its attendances: `attendances_recent_idx` alone
 * (clinic, date, with the patient; migration 0023), each patient once. Costs what the period's
 * attendances cost: ~100 ms for a big clinic's year.
 */
export async function patientsAttendedByAttendances(ctx: TxContext, start: Date, end: Date): Promise<number> {
  const { rows } = await ctx.tx.execute<{ n: number }>(sql`
    select count(*)::int as n
    from (
      select distinct a.patient_id from attendances a
      where a.account_id = ${ctx.accountId}::uuid and a.deleted_at is null
        and a.date >= ${start.toISOString()}::timestamptz and a.date < ${end.toISOString()}::timestamptz
    ) attended`);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The same number from the patients' latest attendance (`patients.last_attended_at`, kept by the
 * attendances' trigger, migration 0026): a patient attended in [start, end) has their latest
 * attendance in it, or after it — then one of theirs in it is looked up
 * (`attendances_patient_idx`). The first part is a count of `patients_last_attended_idx` alone;
 * the second reads the patients attended after the period, few when it ends now (attendances
 * dated ahead), most of the clinic for a period long past: for those, `patientsAttendedByAttendances`.
 */
export async function patientsAttendedByLatest(ctx: TxContext, start: Date, end: Date): Promise<number> {
  const from = start.toISOString();
  const to = end.toISOString();
  const { rows } = await ctx.tx.execute<{ n: number }>(sql`
    select
      (select count(*) from patients p
        where p.account_id = ${ctx.accountId}::uuid
          and p.last_attended_at >= ${from}::timestamptz and p.last_attended_at < ${to}::timestamptz)::int
      + (select count(*) from patients p
        where p.account_id = ${ctx.accountId}::uuid and p.last_attended_at >= ${to}::timestamptz
          and exists (
            select 1 from attendances a
            where a.account_id = p.account_id and a.patient_id = p.id and a.deleted_at is null
              and a.date >= ${from}::timestamptz and a.date < ${to}::timestamptz))::int as n`);
  return Number(rows[0]?.n ?? 0);
}

/** The customers who owe the most (`party_balances_balance_idx`, read backwards). */
export async function biggestDebtors(ctx: TxContext, limit: number) {
  const { rows } = await ctx.tx.execute<{ customer_id: string; name: string; balance: string }>(sql`
    select b.party_id as customer_id, c.name, (b.debits - b.credits)::text as balance
    from party_balances b
    join customers c on c.account_id = b.account_id and c.id = b.party_id
    where b.account_id = ${ctx.accountId}::uuid and b.party_kind = 'customer' and b.debits - b.credits > 0
    order by b.debits - b.credits desc, b.party_id
    limit ${limit}`);
  return rows;
}

/** What the clinic owes its providers past due, and due from `today` to `weekEnds`. */
export async function payablesDue(ctx: TxContext, today: string, weekEnds: string) {
  const { rows } = await ctx.tx.execute<{ overdue: string; due_this_week: string }>(sql`
    select coalesce(sum(owed) filter (where due < ${today}::date), 0)::text as overdue,
      coalesce(sum(owed) filter (where due between ${today}::date and ${weekEnds}::date), 0)::text as due_this_week
    from (${openAmountsByDue(ctx, 'purchase')}) by_due`);
  return { overdue: rows[0]?.overdue ?? '0', dueThisWeek: rows[0]?.due_this_week ?? '0' };
}

/** The price-list treatments' code and name. */
export async function treatmentNames(ctx: TxContext, ids: string[]) {
  if (ids.length === 0) return new Map<string, { code: string; name: string }>();
  const { rows } = await ctx.tx.execute<{ id: string; code: string; name: string }>(sql`
    select t.id, t.code, t.name from treatments t
    where t.account_id = ${ctx.accountId}::uuid and t.id in ${ids}`);
  return new Map(rows.map((row) => [row.id, { code: row.code, name: row.name }]));
}

/** Issue 40: the professionals' settlements still to pay (their payables' open amounts), and how many. */
export async function settlementsPending(ctx: TxContext): Promise<{ amount: string; count: number }> {
  const { rows } = await ctx.tx.execute<{ amount: string; count: number }>(sql`
    select coalesce(sum(d.open_amount), 0)::text as amount, count(*)::int as count
    from settlements s
    join commercial_documents d on d.account_id = s.account_id and d.id = s.document_id
    where s.account_id = ${ctx.accountId}::uuid and d.open_amount <> 0`);
  return { amount: rows[0]?.amount ?? '0', count: Number(rows[0]?.count ?? 0) };
}
