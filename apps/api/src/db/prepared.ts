import type { AppDatabase, SystemTx, TenantTx } from './tenancy.ts';

/**
 * Hot queries built once (issue 15). A Drizzle query costs more to build than PostgreSQL takes
 * to answer a primary-key look-up; `preparedQuery` builds it on first use, with
 * `sql.placeholder('name')` for its inputs, and then only fills the placeholders and sends it.
 * On node-postgres it is also a named prepared statement: each pool connection parses it once
 * and afterwards sends Bind/Execute only. PGlite runs the same text unnamed.
 *
 *   const findOne = preparedQuery('patients_find', (db) =>
 *     db.select().from(patients).where(eq(patients.id, sql.placeholder('id'))));
 *   const [row] = await findOne(tx, { id });
 *
 * The built query belongs to no transaction: each call runs it on the connection of the handle
 * it is given (a tenant or system transaction, or the database outside one), so row-level
 * security applies as for any other query of that transaction. A statement's text must not
 * depend on its inputs; a query whose shape varies (a list of words, a sort) keeps one prepared
 * query per shape (`preparedShape`).
 */

type QueryHandle = AppDatabase | TenantTx | SystemTx;

interface Prepared<TResult> {
  execute(values?: Record<string, unknown>): Promise<TResult>;
}

const names = new Set<string>();

/** The driver's client behind a handle: the pool, PGlite, or the transaction's connection. */
function clientOf(handle: QueryHandle): unknown {
  return (handle._.session as unknown as { client: unknown }).client;
}

export function preparedQuery<TValues extends Record<string, unknown>, TResult>(
  name: string,
  build: (db: QueryHandle) => { prepare(name: string): Prepared<TResult> },
): (handle: QueryHandle, values: TValues) => Promise<TResult> {
  // A statement name is per connection: two texts under one name would fail on node-postgres.
  if (names.has(name)) throw new Error(`prepared query "${name}" is defined twice`);
  names.add(name);
  let built: Prepared<TResult> | undefined;
  return (handle, values) => {
    built ??= build(handle).prepare(name);
    // Drizzle's prepared query with the client swapped for this call's connection.
    const bound = Object.create(built, { client: { value: clientOf(handle) } }) as Prepared<TResult>;
    return bound.execute(values);
  };
}

/**
 * One prepared query per shape of a query that varies: `shapeOf` names the shape (e.g. the
 * number of search words and the sort), `build` builds that shape once.
 */
export function preparedShape<TShape, TValues extends Record<string, unknown>, TResult>(
  name: string,
  shapeKey: (shape: TShape) => string,
  build: (db: QueryHandle, shape: TShape) => { prepare(name: string): Prepared<TResult> },
): (handle: QueryHandle, shape: TShape, values: TValues) => Promise<TResult> {
  const shapes = new Map<string, (handle: QueryHandle, values: TValues) => Promise<TResult>>();
  return (handle, shape, values) => {
    const key = shapeKey(shape);
    let query = shapes.get(key);
    if (!query) {
      query = preparedQuery<TValues, TResult>(`${name}:${key}`, (db) => build(db, shape));
      shapes.set(key, query);
    }
    return query(handle, values);
  };
}
