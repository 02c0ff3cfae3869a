import { addDays, clinicDayRange } from '@odontia/shared/clinic-time';
import { addMonths } from '@odontia/shared/schemas/account';
import { eq } from 'drizzle-orm';
import { accountMovements, accounts } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { newId } from '../lib/ids.ts';
import { demoDay, demoTimeZone } from './demo-time.ts';

/**
 * The demo clinic's contract with Odontia (issue 19): the `basic` plan paid month by month for
 * the last five months (each month a renewal order and its payment), its current period ending
 * in 20 days, so it is active and can renew. An installation that configures a `basic` plan
 * (PLANS, as the e2e servers do) shows its price and limits; without plans it is self-hosted.
 */

export const demoPlan = { id: 'basic', price: '45000.00', currency: 'argentine_peso' } as const;

export async function seedDemoAccount(
  tx: TenantTx,
  accountId: string,
  { administratorId }: { administratorId: string },
) {
  // The current period ends in 20 days; five monthly periods before it were paid.
  const dueDate = demoDay(-20);
  const firstStart = addDays(addMonths(dueDate, -5), 1);
  let start = firstStart;
  for (let month = 0; month < 5; month += 1) {
    const end = addDays(addMonths(start, 1), -1);
    const ordered = addDays(start, -3);
    const paidOn = addDays(start, -1);
    const stamp = start.replaceAll('-', '');
    const orderId = newId();
    const paidAt = clinicDayRange(demoTimeZone, paidOn).start;
    // What the order and its payment share: the period bought, its price, paid by hand.
    const paidPeriod = {
      accountId,
      plan: demoPlan.id,
      periodStart: start,
      periodEnd: end,
      amount: demoPlan.price,
      currency: demoPlan.currency,
      status: 'paid' as const,
      provider: 'manual',
      paidAt,
    };
    await tx.insert(accountMovements).values([
      {
        ...paidPeriod,
        id: orderId,
        date: ordered,
        kind: 'renewal_order',
        reference: `RN-${stamp}-DEMO${month}1`,
        createdBy: administratorId,
        createdAt: clinicDayRange(demoTimeZone, ordered).start,
      },
      {
        ...paidPeriod,
        id: newId(),
        date: paidOn,
        kind: 'payment',
        reference: `PA-${stamp}-DEMO${month}2`,
        orderId,
        createdAt: paidAt,
      },
    ]);
    start = addDays(end, 1);
  }
  await tx
    .update(accounts)
    .set({
      plan: demoPlan.id,
      contractStartsAt: clinicDayRange(demoTimeZone, firstStart).start,
      planEndsAt: clinicDayRange(demoTimeZone, addDays(start, -1)).end,
      billingEmail: 'administracion@sonrisa.demo',
      billingContact: 'Laura Gómez',
    })
    .where(eq(accounts.id, accountId));
}
