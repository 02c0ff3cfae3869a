import { uuid } from 'drizzle-orm/pg-core';

/**
 * The first columns of a clinic-owned table (ARCHITECTURE §4). Kept apart from records.ts, which
 * imports accounts.ts, so that accounts.ts may use them too without an import cycle.
 */

/** The clinic a row belongs to: the tenant key of row-level security. */
export const clinicColumn = {
  accountId: uuid('account_id').notNull(),
};

/** The clinic and the row's id: the primary key `(account_id, id)`. */
export const clinicRowColumns = {
  ...clinicColumn,
  id: uuid('id').notNull(),
};
