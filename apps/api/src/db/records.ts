import {
  type AnyColumn,
  and,
  count,
  eq,
  getTableColumns,
  getTableName,
  inArray,
  isNull,
  type SQL,
  sql,
} from 'drizzle-orm';
import { type AnyPgColumn, alias, type PgSelect, type PgTable, type SelectedFields } from 'drizzle-orm/pg-core';
import { users } from './schema/index.ts';
import type { TenantTx } from './tenancy.ts';

/**
 * The repository of a clinic's versioned, soft-deleted record (docs/adding-a-domain.md): one
 * page, find, find for update, insert, versioned update and soft delete, parameterised by the
 * table, its scope (the columns a row is reached by besides its id, e.g. `patientId`) and the
 * people whose names it shows. Every statement names the clinic first, as the indexes do
 * (`account_id` leads), and RLS checks it again. Deleted rows never come out.
 */

/**
 * A join on another row of the same clinic: `target`'s row whose id is `reference`, in the clinic
 * of `owner` (the clinic comes first, as the indexes' `account_id` does).
 */
export function sameClinicRow(
  target: { accountId: AnyColumn; id: AnyColumn },
  owner: { accountId: AnyColumn },
  reference: AnyColumn,
): SQL {
  return and(eq(target.accountId, owner.accountId), eq(target.id, reference)) as SQL;
}

/** A record's stamps as answered (recordStampsSchema): instants in ISO, the people's names, the version. */
export function presentStamps<CreatedBy, UpdatedBy>(row: {
  createdAt: Date;
  createdByName: CreatedBy;
  updatedAt: Date;
  updatedByName: UpdatedBy;
  version: number;
}) {
  return {
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
  };
}

/**
 * The clinic's live (not deleted) rows of `table` whose `column` is `value`: one value, a list,
 * or another table's column in a join ("the row's live patient").
 */
export function liveWhere(
  table: { accountId: AnyColumn; deletedAt: AnyColumn },
  accountId: string | AnyColumn,
  column: AnyColumn,
  value: string | string[] | AnyColumn,
): SQL {
  const match = Array.isArray(value) ? inArray(column, value) : eq(column, value);
  return and(eq(table.accountId, accountId), match, isNull(table.deletedAt)) as SQL;
}

/** What a repository call needs of the request context. */
export interface RecordScope {
  readonly tx: TenantTx;
  readonly accountId: string;
  readonly userId: string;
}

/** The columns every such record has (`recordStamps` in db/schema/records.ts). */
interface RecordColumns {
  accountId: AnyPgColumn;
  id: AnyPgColumn;
  createdBy: AnyPgColumn;
  updatedAt: AnyPgColumn;
  updatedBy: AnyPgColumn;
  deletedAt: AnyPgColumn;
  deletedBy: AnyPgColumn;
  version: AnyPgColumn;
}
type RecordTable = PgTable & RecordColumns;

type Row<TTable extends RecordTable> = TTable['$inferSelect'];
type Insert<TTable extends RecordTable> = TTable['$inferInsert'];
type Names<TPeople extends string> = { [Name in TPeople]: string };
/** A row with who created and last changed it, and the names of its people (the professional …). */
export type RowWithNames<TTable extends RecordTable, TPeople extends string = never> = Row<TTable> & {
  createdByName: string | null;
  updatedByName: string | null;
} & Names<TPeople>;

export interface PageRequest {
  page: number;
  pageSize: number;
}

export interface RecordRepositoryOptions<
  TTable extends RecordTable,
  TScope extends keyof Row<TTable> & string,
  TPeople extends string,
> {
  table: TTable;
  /** The columns that must match besides the id (a patient's diagnoses: `['patientId']`). */
  scope: readonly TScope[];
  /** Users whose names the record shows: `{ professionalName: diagnoses.professionalId }`. */
  people?: Record<TPeople, AnyColumn>;
  /** The list's order; give the same as the list's index so a page reads only its rows. */
  order: SQL[];
}

export function recordRepository<
  TTable extends RecordTable,
  TScope extends keyof Row<TTable> & string,
  TPeople extends string = never,
>(options: RecordRepositoryOptions<TTable, TScope, TPeople>) {
  const { table, order } = options;
  const columns = table as unknown as RecordColumns & Record<string, AnyColumn>;
  const people = Object.entries(options.people ?? {}) as [TPeople, AnyColumn][];
  const tableName = getTableName(table);
  const creator = alias(users, `${tableName}_creator`);
  const updater = alias(users, `${tableName}_updater`);
  const named = people.map(([name, column]) => ({ name, column, user: alias(users, `${tableName}_${name}`) }));

  type Scope = Pick<Row<TTable>, TScope>;

  function live(ctx: RecordScope, scope: Scope): SQL {
    const conditions: (SQL | undefined)[] = [eq(columns.accountId, ctx.accountId), isNull(columns.deletedAt)];
    for (const key of options.scope)
      conditions.push(eq(columns[key] as AnyColumn, (scope as Record<string, unknown>)[key]));
    return and(...conditions) as SQL;
  }

  /** The row with its people's names; typed by the callers below (drizzle cannot infer a generic table's join). */
  function selectWithNames(ctx: RecordScope) {
    const selection: SelectedFields = {
      ...getTableColumns(table),
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    };
    for (const person of named) selection[person.name] = person.user.completeName;
    let query: PgSelect = ctx.tx
      .select(selection)
      .from(table as PgTable)
      .$dynamic();
    query = query.leftJoin(creator, sameClinicRow(creator, columns, columns.createdBy));
    query = query.leftJoin(updater, sameClinicRow(updater, columns, columns.updatedBy));
    for (const person of named) {
      // A record's people are required foreign keys: an inner join loses nothing.
      query = query.innerJoin(person.user, sameClinicRow(person.user, columns, person.column));
    }
    return query;
  }

  return {
    /** One page in the list's order, and the count of the scope's live rows (those matching `filter`, if any). */
    async page(
      ctx: RecordScope,
      scope: Scope,
      page: PageRequest,
      filter?: SQL,
    ): Promise<{ rows: RowWithNames<TTable, TPeople>[]; total: number }> {
      const where = filter ? (and(live(ctx, scope), filter) as SQL) : live(ctx, scope);
      const rows = await selectWithNames(ctx)
        .where(where)
        .orderBy(...order)
        .limit(page.pageSize)
        .offset((page.page - 1) * page.pageSize);
      const [total] = await ctx.tx
        .select({ n: count() })
        .from(table as PgTable)
        .where(where);
      return { rows: rows as unknown as RowWithNames<TTable, TPeople>[], total: total?.n ?? 0 };
    },

    async find(ctx: RecordScope, scope: Scope, id: string): Promise<RowWithNames<TTable, TPeople> | undefined> {
      const [row] = await selectWithNames(ctx).where(and(live(ctx, scope), eq(columns.id, id)));
      return row as unknown as RowWithNames<TTable, TPeople> | undefined;
    },

    /** The live row, locked until the transaction ends (an edit or delete reads it first). */
    async findForUpdate(ctx: RecordScope, scope: Scope, id: string): Promise<Row<TTable> | undefined> {
      const [row] = await ctx.tx
        .select()
        .from(table as PgTable)
        .where(and(live(ctx, scope), eq(columns.id, id)))
        .for('no key update');
      return row as Row<TTable> | undefined;
    },

    /** Inserts the row for the clinic, created and updated by the actor. */
    async insert(ctx: RecordScope, row: Omit<Insert<TTable>, 'accountId' | 'createdBy' | 'updatedBy'>): Promise<void> {
      await ctx.tx
        .insert(table as PgTable)
        .values({ ...row, accountId: ctx.accountId, createdBy: ctx.userId, updatedBy: ctx.userId });
    },

    /** Writes the change as a new version by the actor (the caller checked the version under lock). */
    async update(ctx: RecordScope, id: string, change: Partial<Insert<TTable>>): Promise<void> {
      await ctx.tx
        .update(table as PgTable)
        .set({ ...change, updatedAt: new Date(), updatedBy: ctx.userId, version: sql`${columns.version} + 1` })
        .where(and(eq(columns.accountId, ctx.accountId), eq(columns.id, id)));
    },

    /** Soft delete: hidden everywhere from now on; the row and its audit stay. */
    async softDelete(ctx: RecordScope, id: string): Promise<void> {
      const now = new Date();
      await ctx.tx
        .update(table as PgTable)
        .set({
          deletedAt: now,
          deletedBy: ctx.userId,
          updatedAt: now,
          updatedBy: ctx.userId,
          version: sql`${columns.version} + 1`,
        })
        .where(and(eq(columns.accountId, ctx.accountId), eq(columns.id, id)));
    },
  };
}

export type RecordRepository<
  TTable extends RecordTable,
  TScope extends keyof Row<TTable> & string,
  TPeople extends string = never,
> = ReturnType<typeof recordRepository<TTable, TScope, TPeople>>;
