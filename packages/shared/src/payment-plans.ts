import Big from 'big.js';

/**
 * Payment plans (issue 40): the schedule of a plan's instalments, computed by this one function
 * in the form (the live preview) and on the server (what is stored), so both always agree.
 *
 * - Without interest: every instalment is the financed amount ÷ count rounded DOWN to the cent;
 *   the last one absorbs the remainder (so it is never smaller than the others, never negative).
 * - With an annual rate: French amortisation. The periodic rate is the annual rate ÷ the periods
 *   of a year (52 weekly, 26 every two weeks, 12 monthly); the level payment
 *   P·r / (1 − (1 + r)^−n) is rounded DOWN to the cent; each instalment's interest is the
 *   outstanding principal × r rounded half-up to the cent, its principal the payment minus that
 *   interest; the last instalment takes the whole outstanding principal and its interest (it
 *   absorbs every rounding). A tiny plan keeps a cent of principal for every instalment still to
 *   come, so no instalment is ever zero.
 * - Instalments always add up exactly to the plan's total (principal + interest), and their
 *   principals to the financed amount: the unit test proves it over counts 1..60.
 * - Due dates: the first due date, then every 7 or 14 days, or the same day of each following
 *   month (the 31st falls on the month's last day: 31 Jan → 28/29 Feb → 31 Mar).
 */

export const paymentPlanFrequencies = ['weekly', 'biweekly', 'monthly'] as const;
export type PaymentPlanFrequency = (typeof paymentPlanFrequencies)[number];
export const maxPlanInstalments = 60;
/** The most days before a due date the patient's reminder may leave (accounts_instalment_reminder_days). */
export const instalmentReminderDaysMax = 30;
/** The highest annual rate a plan may carry (percent). */
export const maxPlanAnnualRate = 200;

const periodsPerYear: Record<PaymentPlanFrequency, number> = { weekly: 52, biweekly: 26, monthly: 12 };

export interface ScheduleInput {
  /** The financed amount, a decimal string ≥ 0.01 × count. */
  amount: string;
  count: number;
  firstDueOn: string;
  frequency: PaymentPlanFrequency;
  /** Annual percentage ("12", "9.5"); null or "0" for none. */
  annualRate: string | null;
}

export interface ScheduledInstalment {
  number: number;
  dueOn: string;
  principal: string;
  interest: string;
  amount: string;
  /** What the plan has asked for up to and including this instalment. */
  cumulative: string;
  /** The principal still owed after it. */
  balance: string;
}

export interface Schedule {
  instalments: ScheduledInstalment[];
  principal: string;
  interest: string;
  total: string;
}

/** 'YYYY-MM-DD' plus `months` months, clamped to the month's last day, on the day of month `day`. */
export function addMonthsClamped(first: string, months: number): string {
  const [year, month, day] = first.split('-').map(Number) as [number, number, number];
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = index % 12;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = Math.min(day, last);
  return `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function addDaysUtc(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The due date of instalment `number` (1-based). */
export function instalmentDueOn(firstDueOn: string, frequency: PaymentPlanFrequency, number: number): string {
  if (frequency === 'monthly') return addMonthsClamped(firstDueOn, number - 1);
  return addDaysUtc(firstDueOn, (number - 1) * (frequency === 'weekly' ? 7 : 14));
}

/** Whether a financed amount can be split into `count` instalments of at least a cent each. */
export function fitsInstalments(amount: string, count: number): boolean {
  return new Big(amount).gte(new Big('0.01').times(count));
}

/** The plan's schedule; throws on an amount that cannot give each instalment a cent (check `fitsInstalments`). */
export function planSchedule(input: ScheduleInput): Schedule {
  const { count, firstDueOn, frequency } = input;
  if (!Number.isInteger(count) || count < 1 || count > maxPlanInstalments) throw new RangeError('count');
  const principal = new Big(input.amount);
  if (!fitsInstalments(input.amount, count)) throw new RangeError('amount');
  const rate = input.annualRate && new Big(input.annualRate).gt(0) ? new Big(input.annualRate) : null;
  const periodic = rate ? rate.div(100).div(periodsPerYear[frequency]) : new Big(0);
  let payment: Big;
  if (rate) {
    const growth = periodic.plus(1).pow(count);
    payment = principal.times(periodic).times(growth).div(growth.minus(1)).round(2, Big.roundDown);
  } else {
    payment = principal.div(count).round(2, Big.roundDown);
  }
  const instalments: ScheduledInstalment[] = [];
  let balance = principal;
  let cumulative = new Big(0);
  let interestTotal = new Big(0);
  for (let number = 1; number <= count; number += 1) {
    const interest = balance.times(periodic).round(2, Big.roundHalfUp);
    let part = number === count ? balance : payment.minus(interest);
    // A tiny plan at a high rate: the level payment would not cover the interest; never owe more.
    if (part.lt(0)) part = new Big(0);
    // Leave at least a cent of principal for each instalment still to come (tiny plans).
    const reserve = new Big('0.01').times(count - number);
    if (part.gt(balance.minus(reserve))) part = balance.minus(reserve);
    const amount = part.plus(interest);
    balance = balance.minus(part);
    cumulative = cumulative.plus(amount);
    interestTotal = interestTotal.plus(interest);
    instalments.push({
      number,
      dueOn: instalmentDueOn(firstDueOn, frequency, number),
      principal: part.toFixed(2),
      interest: interest.toFixed(2),
      amount: amount.toFixed(2),
      cumulative: cumulative.toFixed(2),
      balance: balance.toFixed(2),
    });
  }
  return {
    instalments,
    principal: principal.toFixed(2),
    interest: interestTotal.toFixed(2),
    total: cumulative.toFixed(2),
  };
}

export type InstalmentState = 'pending' | 'partly_paid' | 'paid' | 'overdue';

/**
 * What a plan's payments so far (`paid`: what was collected towards the plan, oldest instalment
 * first) make of one instalment, on the clinic's `today`: paid, overdue (past its due date and not
 * paid, whatever part was paid), partly paid or pending; and the amount paid of it.
 */
export function instalmentState(
  instalment: { amount: string; cumulative: string; dueOn: string },
  paid: string,
  today: string,
): { state: InstalmentState; paid: string } {
  const before = new Big(instalment.cumulative).minus(instalment.amount);
  let covered = new Big(paid).minus(before);
  if (covered.lt(0)) covered = new Big(0);
  if (covered.gt(instalment.amount)) covered = new Big(instalment.amount);
  if (covered.eq(instalment.amount)) return { state: 'paid', paid: covered.toFixed(2) };
  if (instalment.dueOn < today) return { state: 'overdue', paid: covered.toFixed(2) };
  return { state: covered.gt(0) ? 'partly_paid' : 'pending', paid: covered.toFixed(2) };
}
