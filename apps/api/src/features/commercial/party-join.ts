import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * The side's party (a provider, a customer) joined (`on`) to a commercial row for its `fields`
 * (its name…). `TParty` is the type of those fields as read, which the caller states: drizzle
 * cannot infer a select spread from a generic.
 */
export interface PartyJoin<TParty> {
  table: PgTable;
  on: SQL | undefined;
  fields: Record<keyof TParty & string, SQL | AnyPgColumn>;
}
