import Big from 'big.js';
import { sql } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';

/**
 * The dashboard's cash figure (issue 40): today's closings of the clinic (its day), what was
 * counted at them and their differences, through `cash_sessions_closed_idx`; the sessions open
 * now through `cash_sessions_one_open`. Two index reads in one statement.
 */
export async function cashToday(ctx: TxContext, today: string) {
  const { rows } = await ctx.tx.execute<{ closings: number; counted: string; difference: string; open: number }>(sql`
    select
      (select count(*)::int from cash_sessions s
        where s.account_id = ${ctx.accountId}::uuid and s.status = 'closed' and s.closed_on = ${today}::date) as closings,
      (select coalesce(sum(s.counted_total), 0)::text from cash_sessions s
        where s.account_id = ${ctx.accountId}::uuid and s.status = 'closed' and s.closed_on = ${today}::date) as counted,
      (select coalesce(sum(s.difference_total), 0)::text from cash_sessions s
        where s.account_id = ${ctx.accountId}::uuid and s.status = 'closed' and s.closed_on = ${today}::date) as difference,
      (select count(*)::int from cash_sessions s
        where s.account_id = ${ctx.accountId}::uuid and s.status = 'open') as open`);
  const row = rows[0];
  return {
    closings: row?.closings ?? 0,
    counted: new Big(row?.counted ?? 0).toFixed(2),
    difference: new Big(row?.difference ?? 0).toFixed(2),
    openSessions: row?.open ?? 0,
  };
}
