import { describe, expect, it } from 'vitest';
import { accountStateAt, addMonths, dueDay, graceEndsAt, plansConfigSchema } from './account.ts';

describe('accountStateAt (issue 19)', () => {
  const at = new Date('2026-06-20T12:00:00Z');
  const day = 86_400_000;
  const rules = { graceDays: 10, enforced: true, renewalRequestedAt: null, at };

  it('is active before the due date, in grace for the grace days after it, then read-only', () => {
    expect(accountStateAt({ ...rules, endsAt: new Date(at.getTime() + day) })).toBe('active');
    expect(accountStateAt({ ...rules, endsAt: new Date(at.getTime() - 9 * day) })).toBe('grace');
    expect(accountStateAt({ ...rules, endsAt: new Date(at.getTime() - 10 * day) })).toBe('read_only');
  });

  it('never ends without a due date or when not enforced (self-hosted)', () => {
    expect(accountStateAt({ ...rules, endsAt: null })).toBe('active');
    expect(accountStateAt({ ...rules, enforced: false, endsAt: '2020-01-01T00:00:00Z' })).toBe('active');
  });

  it('gives a renewal ordered and not paid a new grace period from the order', () => {
    const endsAt = new Date(at.getTime() - 40 * day);
    expect(accountStateAt({ ...rules, endsAt, renewalRequestedAt: new Date(at.getTime() - day) })).toBe('grace');
    expect(accountStateAt({ ...rules, endsAt, renewalRequestedAt: new Date(at.getTime() - 11 * day) })).toBe(
      'read_only',
    );
  });

  it('says when writing stops', () => {
    expect(graceEndsAt('2026-06-01T03:00:00.000Z', 15)).toBe('2026-06-16T03:00:00.000Z');
    expect(graceEndsAt(null, 15)).toBeNull();
  });
});

describe('contract days', () => {
  it('adds months, the 31st falling on a shorter month’s last day', () => {
    expect(addMonths('2026-01-15', 1)).toBe('2026-02-15');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2026-05-31', -1)).toBe('2026-04-30');
    expect(addMonths('2026-03-10', 12)).toBe('2027-03-10');
  });

  it('answers the due date in the clinic’s time zone: the day before the contract’s end', () => {
    // Ends at the start of 2026-07-01 in Buenos Aires (03:00 UTC): due on 30 June.
    expect(dueDay('2026-07-01T03:00:00.000Z', 'America/Argentina/Buenos_Aires')).toBe('2026-06-30');
    expect(dueDay('2026-07-01T03:00:00.000Z', 'Asia/Tokyo')).toBe('2026-07-01');
    expect(dueDay(null, 'UTC')).toBeNull();
  });
});

describe('plansConfigSchema', () => {
  it('normalises prices and fills the defaults', () => {
    const [plan] = plansConfigSchema.parse([{ id: 'basic', name: 'Básico', price: 30, currency: 'euro' }]);
    expect(plan).toEqual({
      id: 'basic',
      name: 'Básico',
      price: '30.00',
      currency: 'euro',
      periodMonths: 1,
      limits: { professionals: null, storageMb: null },
    });
  });

  it('refuses a bad plan and repeated ids', () => {
    const good = { id: 'basic', name: 'Básico', price: '30', currency: 'euro' };
    expect(plansConfigSchema.safeParse([{ ...good, currency: 'bitcoin' }]).success).toBe(false);
    expect(plansConfigSchema.safeParse([{ ...good, price: '-1' }]).success).toBe(false);
    expect(plansConfigSchema.safeParse([{ ...good, id: 'Basic Plan' }]).success).toBe(false);
    expect(plansConfigSchema.safeParse([good, good]).success).toBe(false);
  });
});
