import { z } from 'zod';
import { dateText, moneyText } from '../api-schema.ts';
import { currencies, paymentMethods } from '../enums.ts';
import { calendarDate } from '../validation.ts';
import { idSchema } from './common.ts';

/**
 * The dashboard (issue 19, spec §2 "Dashboard"): GET /api/dashboard, the morning's questions in
 * one answer for a period (this month so far unless asked). Every staff level sees today's agenda
 * (a level without reports.read: its own) and the clinical figures; `financial` is null without
 * reports.read. Each figure comes with what it is compared with: the period just before, of the
 * same length, and the same dates a year before.
 */

/** The longest period the dashboard sums (a year and a day: a leap year's whole year). */
export const dashboardMaxDays = 366;

export const dashboardQuerySchema = z
  .object({ from: calendarDate().optional(), to: calendarDate().optional() })
  .superRefine((value, ctx) => {
    if (value.from && value.to && value.to < value.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'end_before_start' });
    else if (value.from && value.to) {
      const days = (Date.parse(`${value.to}T00:00:00Z`) - Date.parse(`${value.from}T00:00:00Z`)) / 86_400_000 + 1;
      if (days > dashboardMaxDays) ctx.addIssue({ code: 'custom', path: ['to'], message: 'range_too_long' });
    }
  });
export type DashboardQuery = z.output<typeof dashboardQuerySchema>;

/** A figure of the period beside the period before and the same dates a year before. */
const compared = <T extends z.ZodType>(value: T) => z.object({ current: value, previous: value, lastYear: value });

/** A money figure (the clinic's currency), as every amount is answered. */
const money = moneyText();

export const dashboardAgendaRowSchema = z.object({
  professionalId: idSchema,
  professionalName: z.string(),
  total: z.number().int(),
  notConfirmed: z.number().int(),
  confirmed: z.number().int(),
  arrived: z.number().int(),
  completed: z.number().int(),
  cancelled: z.number().int(),
});

export const dashboardTreatmentSchema = z.object({
  treatmentId: idSchema,
  code: z.string(),
  name: z.string(),
  count: z.number().int(),
  amount: money,
});

export const dashboardSchema = z.object({
  period: z.object({
    from: dateText(),
    to: dateText(),
    previousFrom: dateText(),
    previousTo: dateText(),
    lastYearFrom: dateText(),
    lastYearTo: dateText(),
    today: dateText(),
  }),
  /** Today's appointments per professional (a level without reports.read: only its own). */
  agenda: z.array(dashboardAgendaRowSchema),
  clinical: z.object({
    attendances: compared(z.number().int()),
    newPatients: compared(z.number().int()),
    /** Patients attended in the period who had been attended before it. */
    returningPatients: z.number().int(),
    appointments: z.object({
      total: z.number().int(),
      completed: z.number().int(),
      cancelled: z.number().int(),
      lateCancelled: z.number().int(),
      noShow: z.number().int(),
      /** Shares of the period's appointments, 0–1 (0 with none). */
      noShowRate: z.number(),
      lateCancelRate: z.number(),
    }),
    /**
     * Recalls (issue 38) due this calendar month in the clinic (whatever the period asked), and of
     * them those recovered: booked. Recalls closed as superseded by a newer one are not counted.
     */
    recalls: z.object({ from: dateText(), to: dateText(), due: z.number().int(), booked: z.number().int() }),
  }),
  /** Null without reports.read. Amounts in the clinic's currency, as text ('1234.50'). */
  financial: z
    .object({
      currency: z.enum(currencies),
      /** Invoiced net of VAT (invoices and debit notes minus credit notes), and per day of the period. */
      production: compared(money).extend({ byDay: z.array(z.object({ day: dateText(), amount: money })) }),
      collections: z.object({
        total: money,
        byMethod: z.array(z.object({ method: z.enum(paymentMethods), amount: money, count: z.number().int() })),
      }),
      receivables: z.object({
        balance: money,
        overdue: money,
        onAccount: money,
        aging: z.object({
          current: money,
          days_0_30: money,
          days_31_60: money,
          days_61_90: money,
          days_over_90: money,
        }),
        debtors: z.array(z.object({ customerId: idSchema, name: z.string(), balance: money })),
        /** Issue 40: what the third-party payers owe (part of the balance), and of it what is past due. */
        payers: z.object({ balance: money, overdue: money }),
      }),
      // balance: what the clinic owes its providers in all, net of payments not yet allocated (onAccount).
      payables: z.object({
        balance: money,
        onAccount: money,
        overdue: money,
        dueThisWeek: money,
        weekEnds: dateText(),
        /** Issue 40: what is still to pay of the professionals' settlements, and how many are open. */
        settlementsPending: money,
        settlementsPendingCount: z.number().int(),
      }),
      topTreatments: z.array(dashboardTreatmentSchema),
      /**
       * Issue 40: the registers on the clinic's today (whatever the period asked): the closings of
       * today, what was counted at them, their differences (counted − expected) and the sessions open now.
       */
      cash: z.object({
        closings: z.number().int(),
        counted: money,
        difference: money,
        openSessions: z.number().int(),
      }),
      /** Payment plans (issue 40): instalments past their due date and unpaid, and what is owed of them. */
      instalmentsOverdue: z.object({ count: z.number().int(), amount: money }),
    })
    .nullable(),
});
export type Dashboard = z.output<typeof dashboardSchema>;

export const dashboardResponseSchema = z.object({ data: dashboardSchema });
