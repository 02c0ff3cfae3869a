import { type SQL, sql } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';
import type { Tenancy } from '../../db/tenancy.ts';

/**
 * The clinic's figures per day (migration 0020, `odontia_day_figures` lists them): the folded rows
 * of `day_figures` plus the changes the triggers appended since the last fold. A period's sum
 * reads a few rows per day whatever the number of documents, appointments or attendances, and is
 * always exact: a change counts the moment its transaction commits, folded or not.
 */

/** The figures the triggers keep (migrations 0020, 0023 and 0025). */
export type DayFigure =
  | 'owed'
  | 'credit'
  | 'sold'
  | 'sold_net'
  | 'bought'
  | 'bought_net'
  | 'collected'
  | 'paid_out'
  | 'appointments'
  | 'attendances'
  | 'patients_new'
  | 'patients_first_attended'
  | 'treatments_sold'
  | 'sales_vat_base'
  | 'sales_vat'
  | 'purchases_vat_base'
  | 'purchases_vat'
  | 'production_professional';

export interface DayFigureFilter {
  figures: DayFigure[];
  /** Only these keys (a side, a document type, a method…). */
  keys?: string[];
  /** Days from … to, both included. */
  from?: string;
  to?: string;
}

/**
 * `select figure, key, day, amount, count` of the clinic's kept figures, one row per figure, key
 * and day (through `day_figures`' key: clinic, figure, day).
 */
export function dayFigureRows(ctx: Pick<TxContext, 'accountId'>, { figures, keys, from, to }: DayFigureFilter): SQL {
  const where = (alias: string) => {
    const column = (name: string) => sql.raw(`${alias}.${name}`);
    return sql`${column('account_id')} = ${ctx.accountId}::uuid and ${column('figure')} in ${figures}
      ${keys ? sql`and ${column('key')} in ${keys}` : sql``}
      ${from ? sql`and ${column('day')} >= ${from}::date` : sql``}
      ${to ? sql`and ${column('day')} <= ${to}::date` : sql``}`;
  };
  return sql`
  select k.figure, k.key, k.day, sum(k.amount) as amount, sum(k.count)::int as count
  from (
    select f.figure, f.key, f.day, f.amount, f.count from day_figures f where ${where('f')}
    union all
    select c.figure, c.key, c.day, c.amount, c.count from day_figure_changes c where ${where('c')}
  ) k
  group by k.figure, k.key, k.day`;
}

/** `select due, owed, credit` of a side's open documents, one row per due date. */
export const openAmountsByDue = (ctx: Pick<TxContext, 'accountId'>, side: 'sale' | 'purchase') => sql`
  select o.day as due,
    coalesce(sum(o.amount) filter (where o.figure = 'owed'), 0) as owed,
    coalesce(sum(o.amount) filter (where o.figure = 'credit'), 0) as credit
  from (${dayFigureRows(ctx, { figures: ['owed', 'credit'], keys: [side] })}) o
  group by o.day`;

/** How often each instance folds the appended changes (they stay exact unfolded; folding keeps them few). */
export const foldEveryMs = 60_000;

/** How long a clinic whose fold failed waits before the next try: 1, 2, 4… minutes, at most an hour. */
export function foldRetryDelayMs(failures: number): number {
  return Math.min(foldEveryMs * 2 ** Math.max(0, failures - 1), 3_600_000);
}

/** Where a clinic's failed fold is told (the app's logger; the console without one). */
type FoldLog = { error: (object: object, message: string) => void };
const consoleLog: FoldLog = { error: (object, message) => console.error(message, object) };

/**
 * Folds the appended changes into `day_figures`, clinic by clinic (issue 35): each clinic in its
 * own transaction, so one clinic's failure (a figure its column cannot hold, a bad row) is logged,
 * written to `day_figure_folds` and retried with backoff (`foldRetryDelayMs`) while every other
 * clinic folds on. In the system context (the app role may not delete these rows); instances that
 * fold at once take turns through an advisory lock per clinic's transaction (the rebuild takes it
 * too), and one that finds it taken skips that clinic this turn. Answers how many changes were folded.
 */
export async function foldDayFigureChanges(db: Pick<Tenancy, 'withSystem'>, log?: FoldLog): Promise<number> {
  const clinics = await db.withSystem(async (tx) => {
    const { rows } = await tx.execute<{ account_id: string }>(sql`
      select c.account_id from (select distinct account_id from day_figure_changes) c
      where not exists (select 1 from day_figure_folds f where f.account_id = c.account_id and f.retry_at > now())
      order by c.account_id`);
    return rows.map((row) => row.account_id);
  });
  let folded = 0;
  for (const accountId of clinics) {
    try {
      folded += await foldClinic(db, accountId);
    } catch (error) {
      const failures = await recordFoldFailure(db, accountId, error);
      (log ?? consoleLog).error(
        { err: error, accountId, failures, retryInMs: foldRetryDelayMs(failures) },
        "a clinic's day figures could not be folded; the others go on",
      );
    }
  }
  return folded;
}

async function foldClinic(db: Pick<Tenancy, 'withSystem'>, accountId: string): Promise<number> {
  return db.withSystem(async (tx) => {
    const { rows: lock } = await tx.execute<{ taken: boolean }>(
      sql`select pg_try_advisory_xact_lock(hashtext('odontia_fold_day_figures')) as taken`,
    );
    if (!lock[0]?.taken) return 0;
    // One statement: the clinic's changes moved out, summed per figure, key and day; a row they
    // bring back to zero is deleted (the table keeps what is there), the others added to.
    // Data-modifying CTEs run once whether or not they are read, and see the same snapshot: the
    // delete and the upsert touch different rows by construction.
    const { rows } = await tx.execute<{ folded: number }>(sql`
      with moved as (
        delete from day_figure_changes where account_id = ${accountId}::uuid
        returning account_id, figure, key, day, amount, count
      ), summed as (
        select account_id, figure, key, day, sum(amount) as amount, sum(count)::int as count, count(*)::int as changes
        from moved group by account_id, figure, key, day
      ), zeroed as (
        delete from day_figures f using summed s
        where f.account_id = s.account_id and f.figure = s.figure and f.day = s.day and f.key = s.key
          and f.amount + s.amount = 0 and f.count + s.count = 0
        returning f.account_id, f.figure, f.day, f.key
      ), upserted as (
        insert into day_figures (account_id, figure, key, day, amount, count)
        select s.account_id, s.figure, s.key, s.day, s.amount, s.count from summed s
        where (s.amount <> 0 or s.count <> 0)
          and not exists (select 1 from zeroed z
            where z.account_id = s.account_id and z.figure = s.figure and z.day = s.day and z.key = s.key)
        order by s.account_id, s.figure, s.day, s.key
        on conflict (account_id, figure, day, key) do update
          set amount = day_figures.amount + excluded.amount, count = day_figures.count + excluded.count
      )
      select coalesce(sum(changes), 0)::int as folded from summed`);
    await tx.execute(sql`delete from day_figure_folds where account_id = ${accountId}::uuid`);
    return Number(rows[0]?.folded ?? 0);
  });
}

/** Writes the clinic's failed fold (one more in a row) and when to try again; answers the failures so far. */
async function recordFoldFailure(db: Pick<Tenancy, 'withSystem'>, accountId: string, error: unknown): Promise<number> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  return db.withSystem(async (tx) => {
    const { rows } = await tx.execute<{ failures: number }>(sql`
      insert into day_figure_folds (account_id, failures, retry_at, last_error, failed_at)
      values (${accountId}::uuid, 1, now() + make_interval(secs => ${foldRetryDelayMs(1) / 1000}), ${message}, now())
      on conflict (account_id) do update set failures = day_figure_folds.failures + 1, last_error = excluded.last_error,
        failed_at = now(),
        retry_at = now() + make_interval(secs => least(${foldEveryMs / 1000} * power(2, day_figure_folds.failures), 3600))
      returning failures`);
    return Number(rows[0]?.failures ?? 1);
  });
}

/** Recomputes the clinic's figures from its rows (its time zone changed: the days moved). */
export async function rebuildDayFigures(ctx: TxContext): Promise<void> {
  await ctx.tx.execute(sql`select odontia_rebuild_day_figures(${ctx.accountId}::uuid)`);
}
