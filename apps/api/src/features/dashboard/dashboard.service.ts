import { addDays, clinicDayRange, clinicToday } from '@odontia/shared/clinic-time';
import type { Currency, PaymentMethod } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import { addMonths } from '@odontia/shared/recalls';
import type { Dashboard, DashboardQuery } from '@odontia/shared/schemas/dashboard';
import Big from 'big.js';
import { sql } from 'drizzle-orm';
import type { RequestContext } from '../../context.ts';
import { cashToday } from '../cash-registers/cash-figures.ts';
import { clinicCurrency } from '../current-accounts/customer-accounts.repository.ts';
import { sideTotals } from '../current-accounts/party-accounts.repository.ts';
import type { DayFigure } from '../figures/day-figures.repository.ts';
import { overdueFigures } from '../payment-plans/payment-plans.repository.ts';
import { recallFigures } from '../recalls/recalls.repository.ts';
import * as repository from './dashboard.repository.ts';

/**
 * The dashboard (issue 19): the period's figures beside the period before and the same dates a
 * year before, today's agenda, and — for reports.read — production, collections, receivables,
 * payables and the top treatments. Production is what was invoiced net of VAT: invoices and
 * debit notes minus credit notes (budgets, proformas and delivery notes are not production).
 */

/** How a sale document type counts in production. */
const productionSigns: Record<string, 1 | -1> = { invoice: 1, debit_note: 1, credit_note: -1 };
const debtorsShown = 5;
const clinicalFigures: DayFigure[] = ['attendances', 'patients_new', 'patients_first_attended', 'appointments'];
const treatmentsShown = 5;

/** The same calendar day a year before (29 February: the 28th). */
export function aYearBefore(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const lastOfMonth = new Date(Date.UTC(year - 1, month, 0)).getUTCDate();
  return `${year - 1}-${String(month).padStart(2, '0')}-${String(Math.min(date, lastOfMonth)).padStart(2, '0')}`;
}

/** The period asked (this month so far by default), the one before it of the same length, and a year before. */
export function periodsOf(query: DashboardQuery, today: string) {
  const from = query.from ?? `${today.slice(0, 8)}01`;
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  const previousTo = addDays(from, -1);
  return {
    from,
    to,
    previousFrom: addDays(previousTo, -(days - 1)),
    previousTo,
    lastYearFrom: aYearBefore(from),
    lastYearTo: aYearBefore(to),
    today,
  };
}

const rate = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

export async function dashboard(ctx: RequestContext, query: DashboardQuery): Promise<Dashboard> {
  const today = clinicToday(ctx.timeZone);
  const period = periodsOf(query, today);
  const periods: repository.Period[] = [
    { label: 'current', from: period.from, to: period.to },
    { label: 'previous', from: period.previousFrom, to: period.previousTo },
    { label: 'lastYear', from: period.lastYearFrom, to: period.lastYearTo },
  ];
  const financial = can(ctx.level, 'reports.read');
  const sums = await repository.figureSums(
    ctx,
    financial ? [...clinicalFigures, 'sold_net', 'collected', 'treatments_sold'] : clinicalFigures,
    periods,
  );
  const rowsOf = (label: repository.Period['label'], figure: string) =>
    sums.filter((row) => row.period === label && row.figure === figure);
  const countOf = (label: repository.Period['label'], figure: string) =>
    rowsOf(label, figure).reduce((total, row) => total + row.count, 0);
  const compared = (figure: string) => ({
    current: countOf('current', figure),
    previous: countOf('previous', figure),
    lastYear: countOf('lastYear', figure),
  });

  const todayRange = clinicDayRange(ctx.timeZone, today);
  const agenda = await repository.agendaOf(ctx, todayRange.start, todayRange.end, financial ? undefined : ctx.userId);
  const periodStart = clinicDayRange(ctx.timeZone, period.from).start;
  const periodEnd = clinicDayRange(ctx.timeZone, period.to).end;

  const appointmentsByKind = new Map<string, number>();
  for (const row of rowsOf('current', 'appointments')) {
    const kind = row.key.split(':')[0] as string;
    appointmentsByKind.set(kind, (appointmentsByKind.get(kind) ?? 0) + row.count);
  }
  const kinds = (kind: string) => appointmentsByKind.get(kind) ?? 0;
  // A rescheduled appointment lives on as its new one: it is not counted twice.
  const appointmentsTotal = [...appointmentsByKind].reduce(
    (total, [kind, count]) => (kind === 'rescheduled' ? total : total + count),
    0,
  );

  return {
    period,
    agenda: agenda.map((row) => ({
      professionalId: row.professional_id,
      professionalName: row.professional_name,
      total: row.total,
      notConfirmed: row.not_confirmed,
      confirmed: row.confirmed,
      arrived: row.arrived,
      completed: row.completed,
      cancelled: row.cancelled,
    })),
    clinical: {
      attendances: compared('attendances'),
      newPatients: compared('patients_new'),
      // Attended in the period and before it: all attended less those whose first attendance
      // falls in it (a kept figure).
      returningPatients:
        (await repository.patientsAttended(ctx, periodStart, periodEnd)) -
        countOf('current', 'patients_first_attended'),
      appointments: {
        total: appointmentsTotal,
        completed: kinds('completed'),
        cancelled: kinds('cancelled'),
        lateCancelled: kinds('late_cancelled'),
        noShow: kinds('no_show'),
        noShowRate: rate(kinds('no_show'), appointmentsTotal),
        lateCancelRate: rate(kinds('late_cancelled'), appointmentsTotal),
      },
      recalls: await recallsOfMonth(ctx, period.today),
    },
    financial: financial ? await financialFigures(ctx, period, rowsOf) : null,
  };
}

/** The recalls due in the calendar month of the clinic's today, and of them those booked. */
async function recallsOfMonth(ctx: RequestContext, today: string) {
  const from = `${today.slice(0, 7)}-01`;
  const to = addDays(addMonths(from, 1), -1);
  return { from, to, ...(await recallFigures(ctx, from, to)) };
}

/** Issue 40: the open amounts of the payers' documents (their customers'), and of them what is past due. */
async function payerReceivables(ctx: RequestContext, today: string) {
  const { rows } = await ctx.tx.execute<{ balance: string; overdue: string }>(sql`
    select coalesce(sum(d.open_amount), 0)::text as balance,
           coalesce(sum(d.open_amount) filter (where d.due_date < ${today}::date), 0)::text as overdue
    from payers p
    join commercial_documents d on d.account_id = p.account_id and d.customer_id = p.customer_id
    where p.account_id = ${ctx.accountId}::uuid and d.side = 'sale' and d.open_amount <> 0 and d.deleted_at is null`);
  return {
    balance: new Big(rows[0]?.balance ?? 0).toFixed(2),
    overdue: new Big(rows[0]?.overdue ?? 0).toFixed(2),
  };
}

async function financialFigures(
  ctx: RequestContext,
  period: ReturnType<typeof periodsOf>,
  rowsOf: (label: repository.Period['label'], figure: string) => repository.FigureSumRow[],
): Promise<NonNullable<Dashboard['financial']>> {
  const production = (label: repository.Period['label']) =>
    rowsOf(label, 'sold_net')
      .reduce((total, row) => total.plus(new Big(row.amount).times(productionSigns[row.key] ?? 0)), new Big(0))
      .toFixed(2);
  const collected = rowsOf('current', 'collected')
    .filter((row) => row.count !== 0 || !new Big(row.amount).eq(0))
    .sort((a, b) => new Big(b.amount).cmp(a.amount) || a.key.localeCompare(b.key));
  const receivables = await sideTotals(ctx, 'sale', period.today);
  const payables = await sideTotals(ctx, 'purchase', period.today);
  const weekEnds = addDays(period.today, 6);
  const sold = rowsOf('current', 'treatments_sold')
    .filter((row) => new Big(row.amount).gt(0))
    .sort((a, b) => new Big(b.amount).cmp(a.amount) || b.count - a.count || a.key.localeCompare(b.key))
    .slice(0, treatmentsShown);
  const names = await repository.treatmentNames(
    ctx,
    sold.map((row) => row.key),
  );
  return {
    currency: (await clinicCurrency(ctx)) as Currency,
    production: {
      current: production('current'),
      previous: production('previous'),
      lastYear: production('lastYear'),
      byDay: await repository.figureByDay(ctx, 'sold_net', productionSigns, period.from, period.to),
    },
    collections: {
      total: collected.reduce((total, row) => total.plus(row.amount), new Big(0)).toFixed(2),
      byMethod: collected.map((row) => ({
        method: row.key as PaymentMethod,
        amount: new Big(row.amount).toFixed(2),
        count: row.count,
      })),
    },
    receivables: {
      balance: new Big(receivables.balance).toFixed(2),
      overdue: new Big(receivables.days_0_30)
        .plus(receivables.days_31_60)
        .plus(receivables.days_61_90)
        .plus(receivables.days_over_90)
        .toFixed(2),
      onAccount: new Big(receivables.on_account).toFixed(2),
      aging: {
        current: new Big(receivables.current).toFixed(2),
        days_0_30: new Big(receivables.days_0_30).toFixed(2),
        days_31_60: new Big(receivables.days_31_60).toFixed(2),
        days_61_90: new Big(receivables.days_61_90).toFixed(2),
        days_over_90: new Big(receivables.days_over_90).toFixed(2),
      },
      debtors: (await repository.biggestDebtors(ctx, debtorsShown)).map((row) => ({
        customerId: row.customer_id,
        name: row.name,
        balance: new Big(row.balance).toFixed(2),
      })),
      // Issue 40: third-party payers.
      payers: await payerReceivables(ctx, period.today),
    },
    instalmentsOverdue: await overdueFigures(ctx, period.today).then((figures) => ({
      count: figures.count,
      amount: new Big(figures.amount).toFixed(2),
    })),
    payables: await repository.payablesDue(ctx, period.today, weekEnds).then(async (due) => {
      const settlements = await repository.settlementsPending(ctx);
      return {
        balance: new Big(payables.balance).toFixed(2),
        onAccount: new Big(payables.on_account).toFixed(2),
        overdue: new Big(due.overdue).toFixed(2),
        dueThisWeek: new Big(due.dueThisWeek).toFixed(2),
        weekEnds,
        settlementsPending: new Big(settlements.amount).toFixed(2),
        settlementsPendingCount: settlements.count,
      };
    }),
    topTreatments: sold.map((row) => ({
      treatmentId: row.key,
      code: names.get(row.key)?.code ?? '',
      name: names.get(row.key)?.name ?? '',
      count: row.count,
      amount: new Big(row.amount).toFixed(2),
    })),
    // Issue 40: the registers today.
    cash: await cashToday(ctx, period.today),
  };
}
