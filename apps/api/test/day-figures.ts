import { sql } from 'drizzle-orm';
import type { TestClinicContext } from './test-clinic.ts';

/**
 * The kept day figures (migration 0020) of every clinic: the folded rows plus the appended changes
 * = what `odontia_day_figures` computes from the rows themselves; and each patient's kept first
 * and latest attendance = the earliest and the latest of their attendances (not deleted).
 * Answers where it does not hold (an empty list when all is well).
 */
export async function dayFigureMismatches(t: TestClinicContext) {
  const { rows } = await t.db.orm.execute<{
    account_id: string;
    figure: string;
    key: string;
    day: string;
    kept: string;
    rows: string;
  }>(sql`
    with kept as (
      select account_id, figure, key, day, sum(amount) as amount, sum(count) as count
      from (select account_id, figure, key, day, amount, count from day_figures
            union all select account_id, figure, key, day, amount, count from day_figure_changes) k
      group by 1, 2, 3, 4
    ), computed as (
      select a.id as account_id, f.figure, f.key, f.day, f.amount, f.count
      from accounts a, odontia_day_figures(a.id) f
    )
    select coalesce(k.account_id, c.account_id) as account_id, coalesce(k.figure, c.figure) as figure,
      coalesce(k.key, c.key) as key, coalesce(k.day, c.day)::text as day,
      coalesce(k.amount, 0)::text || ' × ' || coalesce(k.count, 0)::text as kept,
      coalesce(c.amount, 0)::text || ' × ' || coalesce(c.count, 0)::text as rows
    from kept k full join computed c
      on c.account_id = k.account_id and c.figure = k.figure and c.key = k.key and c.day = k.day
    where coalesce(k.amount, 0) <> coalesce(c.amount, 0) or coalesce(k.count, 0) <> coalesce(c.count, 0)
    union all
    -- The kept first attendance (migration 0023) the figures read: each patient's, from the rows.
    select p.account_id, 'first_attended_at', p.id::text, null,
      coalesce(p.first_attended_at::text, 'none'), coalesce(odontia_first_attendance(p.account_id, p.id)::text, 'none')
    from patients p
    where p.first_attended_at is distinct from odontia_first_attendance(p.account_id, p.id)
    union all
    -- The kept latest attendance (migration 0026) the dashboard counts from.
    select p.account_id, 'last_attended_at', p.id::text, null,
      coalesce(p.last_attended_at::text, 'none'), coalesce(odontia_last_attendance(p.account_id, p.id)::text, 'none')
    from patients p
    where p.last_attended_at is distinct from odontia_last_attendance(p.account_id, p.id)`);
  return rows;
}
