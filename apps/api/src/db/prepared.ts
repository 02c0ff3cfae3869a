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
 * depend on its inputs (a list goes in as one array parameter: `= any(${placeholder}::uuid[])`);
 * queries whose shape varies with the request (search words, sort) are built per request.
 */

type QueryHandle = AppDatabase | TenantTx | SystemTx;

interface Prepared<TResult> {
  execute(values?: Record<string, unknown>): Promise<TResult>;
}

const names = new Set<string>();

/** The driver's session behind a handle; its `client` is the pool, PGlite, or the transaction's connection. */
function sessionOf(handle: QueryHandle): { client: unknown } {
  return handle._.session as unknown as { client: unknown };
}

export function preparedQuery<TValues extends Record<string, unknown>, TResult>(
  name: string,
  build: (db: QueryHandle) => { prepare(name: string): Prepared<TResult> },
): (handle: QueryHandle, values: TValues) => Promise<TResult> {
  // A statement name is per connection: two texts under one name would fail on node-postgres.
  if (names.has(name)) throw new Error(`prepared query "${name}" is defined twice`);
  names.add(name);
  // Built once per driver (tests run PGlite and PostgreSQL in one process).
  const built = new Map<object, Prepared<TResult>>();
  return (handle, values) => {
    const session = sessionOf(handle);
    const driver = Object.getPrototypeOf(session) as object;
    let query = built.get(driver);
    if (!query) {
      query = build(handle).prepare(name);
      built.set(driver, query);
    }
    // Drizzle's prepared query with the client swapped for this call's connection.
    const bound = Object.create(query, { client: { value: session.client } }) as Prepared<TResult>;
    return bound.execute(values);
  };
}
