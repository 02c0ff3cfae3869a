import { sql } from 'drizzle-orm';
import type { Tenancy } from '../../db/tenancy.ts';
import type { RequestContext } from '../../plugins/routes.ts';

/**
 * A side's open amounts per due date, for the clinic's aging totals (the customers' and
 * providers' current accounts lists, the dashboard's receivables and payables): the folded rows
 * of `open_amounts_by_due` plus the changes the documents' trigger appended since the last fold
 * (migration 0020). A few hundred rows whatever the number of documents, and always exact: a
 * change is visible the moment its transaction commits, folded or not.
 */

type Ctx = Pick<RequestContext, 'tx' | 'accountId'>;

/** `select due, owed, credit` of the side's open documents, one row per due date. */
export const openAmountsByDue = (ctx: Pick<Ctx, 'accountId'>, side: 'sale' | 'purchase') => sql`
  select k.due_on as due, sum(k.owed) as owed, sum(k.credit) as credit
  from (
    select b.due_on, b.owed, b.credit from open_amounts_by_due b
    where b.account_id = ${ctx.accountId}::uuid and b.side = ${side}
    union all
    select c.due_on, c.owed, c.credit from open_amount_changes c
    where c.account_id = ${ctx.accountId}::uuid and c.side = ${side}
  ) k
  group by k.due_on`;

/** How often each instance folds the appended changes (they stay exact unfolded; folding keeps them few). */
export const foldEveryMs = 60_000;

/**
 * Folds every clinic's appended changes into `open_amounts_by_due` and drops the due dates left
 * at zero. In the system context (the app role may not delete these rows); instances that fold
 * at once take turns through an advisory lock, and one that finds it taken skips its turn.
 * Answers how many changes were folded.
 */
export async function foldOpenAmountChanges(db: Pick<Tenancy, 'withSystem'>): Promise<number> {
  return db.withSystem(async (tx) => {
    const { rows: lock } = await tx.execute<{ taken: boolean }>(
      sql`select pg_try_advisory_xact_lock(hashtext('odontia_fold_open_amounts')) as taken`,
    );
    if (!lock[0]?.taken) return 0;
    // A data-modifying CTE runs once whether or not it is read: the upsert needs no reader.
    const { rows } = await tx.execute<{ folded: number }>(sql`
      with moved as (
        delete from open_amount_changes returning account_id, side, due_on, owed, credit
      ), summed as (
        select account_id, side, due_on, sum(owed) as owed, sum(credit) as credit, count(*)::int as changes
        from moved group by account_id, side, due_on
      ), upserted as (
        insert into open_amounts_by_due (account_id, side, due_on, owed, credit)
        select account_id, side, due_on, owed, credit from summed order by account_id, side, due_on
        on conflict (account_id, side, due_on) do update
          set owed = open_amounts_by_due.owed + excluded.owed, credit = open_amounts_by_due.credit + excluded.credit
      )
      select coalesce(sum(changes), 0)::int as folded from summed`);
    const folded = Number(rows[0]?.folded ?? 0);
    // Due dates settled in full: the table stays as small as what is open.
    if (folded > 0) await tx.execute(sql`delete from open_amounts_by_due where owed = 0 and credit = 0`);
    return folded;
  });
}
