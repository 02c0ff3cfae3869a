import Big from 'big.js';
import { describe, expect, it } from 'vitest';
import { addMonthsClamped, instalmentState, maxPlanInstalments, planSchedule } from './payment-plans.ts';

const sum = (values: string[]) => values.reduce((total, value) => total.plus(value), new Big(0)).toFixed(2);

describe('planSchedule', () => {
  it('splits without interest: equal instalments rounded down, the last absorbs the cents', () => {
    const schedule = planSchedule({
      amount: '1000.00',
      count: 3,
      firstDueOn: '2026-01-31',
      frequency: 'monthly',
      annualRate: null,
    });
    expect(schedule.instalments.map((i) => i.amount)).toEqual(['333.33', '333.33', '333.34']);
    expect(schedule.instalments.map((i) => i.dueOn)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31']);
    expect(schedule.total).toBe('1000.00');
    expect(schedule.interest).toBe('0.00');
  });

  it('amortises the French way with an annual rate: principal and interest per instalment', () => {
    // 1,200.00 at 12 % a year over 12 months: r = 1 %, level payment 106.618… → 106.61.
    const schedule = planSchedule({
      amount: '1200.00',
      count: 12,
      firstDueOn: '2026-02-10',
      frequency: 'monthly',
      annualRate: '12',
    });
    const [first, second] = schedule.instalments;
    expect(first).toMatchObject({ interest: '12.00', principal: '94.61', amount: '106.61', balance: '1105.39' });
    expect(second).toMatchObject({ interest: '11.05', principal: '95.56', amount: '106.61' });
    const last = schedule.instalments.at(-1);
    expect(last?.balance).toBe('0.00');
    expect(sum(schedule.instalments.map((i) => i.principal))).toBe('1200.00');
    expect(sum(schedule.instalments.map((i) => i.amount))).toBe(schedule.total);
    expect(new Big(schedule.total).minus(schedule.principal).toFixed(2)).toBe(schedule.interest);
  });

  it('weekly and every two weeks', () => {
    const weekly = planSchedule({
      amount: '10',
      count: 3,
      firstDueOn: '2026-12-28',
      frequency: 'weekly',
      annualRate: '0',
    });
    expect(weekly.instalments.map((i) => i.dueOn)).toEqual(['2026-12-28', '2027-01-04', '2027-01-11']);
    const biweekly = planSchedule({
      amount: '10',
      count: 2,
      firstDueOn: '2026-02-20',
      frequency: 'biweekly',
      annualRate: null,
    });
    expect(biweekly.instalments.map((i) => i.dueOn)).toEqual(['2026-02-20', '2026-03-06']);
  });

  it('always adds up to the plan over counts 1..60, amounts and rates (property style)', () => {
    let seed = 40;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const rates = [null, '0', '0.01', '3.5', '12', '29.99', '99.99', '200'];
    const frequencies = ['weekly', 'biweekly', 'monthly'] as const;
    for (let count = 1; count <= maxPlanInstalments; count += 1) {
      for (let round = 0; round < 12; round += 1) {
        const cents = count + Math.floor(random() * (round % 3 === 0 ? 100 : 100_000_000));
        const amount = new Big(cents).div(100).toFixed(2);
        const annualRate = rates[Math.floor(random() * rates.length)] ?? null;
        const frequency = frequencies[round % 3] ?? 'monthly';
        const schedule = planSchedule({ amount, count, firstDueOn: '2026-03-31', frequency, annualRate });
        const label = JSON.stringify({ amount, count, annualRate, frequency });
        expect(schedule.instalments, label).toHaveLength(count);
        expect(sum(schedule.instalments.map((i) => i.amount)), label).toBe(schedule.total);
        expect(sum(schedule.instalments.map((i) => i.principal)), label).toBe(amount);
        expect(sum(schedule.instalments.map((i) => i.interest)), label).toBe(schedule.interest);
        expect(schedule.instalments.at(-1)?.cumulative, label).toBe(schedule.total);
        for (const instalment of schedule.instalments) {
          expect(new Big(instalment.amount).gt(0), label).toBe(true);
          expect(new Big(instalment.principal).gte(0), label).toBe(true);
        }
        if (!annualRate || annualRate === '0') expect(schedule.interest).toBe('0.00');
        const dates = schedule.instalments.map((i) => i.dueOn);
        expect([...dates].sort(), label).toEqual(dates);
      }
    }
    // 720 schedules: a few seconds on a loaded CI machine, beyond the default 5 s there.
  }, 30_000);

  it('refuses what cannot be a cent an instalment', () => {
    expect(() =>
      planSchedule({ amount: '0.05', count: 6, firstDueOn: '2026-01-01', frequency: 'monthly', annualRate: null }),
    ).toThrow();
    expect(() =>
      planSchedule({ amount: '10', count: 61, firstDueOn: '2026-01-01', frequency: 'monthly', annualRate: null }),
    ).toThrow();
  });

  it('clamps a month-end due date', () => {
    expect(addMonthsClamped('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonthsClamped('2026-11-30', 3)).toBe('2027-02-28');
  });
});

describe('instalmentState', () => {
  const instalment = { amount: '100.00', cumulative: '200.00', dueOn: '2026-05-10' };
  it('applies what was paid oldest first', () => {
    expect(instalmentState(instalment, '50.00', '2026-05-01')).toEqual({ state: 'pending', paid: '0.00' });
    expect(instalmentState(instalment, '150.00', '2026-05-01')).toEqual({ state: 'partly_paid', paid: '50.00' });
    expect(instalmentState(instalment, '200.00', '2026-06-01')).toEqual({ state: 'paid', paid: '100.00' });
    expect(instalmentState(instalment, '999.00', '2026-06-01')).toEqual({ state: 'paid', paid: '100.00' });
  });
  it('is overdue from the day after its due date, in the clinic’s day', () => {
    expect(instalmentState(instalment, '150.00', '2026-05-10').state).toBe('partly_paid');
    expect(instalmentState(instalment, '150.00', '2026-05-11')).toEqual({ state: 'overdue', paid: '50.00' });
  });
});
