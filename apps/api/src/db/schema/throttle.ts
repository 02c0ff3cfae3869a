import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Failed password checks and mail requests, for the auth throttle (issue 14). Shared by every API
 * process (ARCHITECTURE §8), so a client cannot multiply its attempts by the number of processes.
 * Not a clinic's table: no `account_id`, no row-level security; only the system context uses it
 * (the migration revokes it from the clinic role). `key_hash` is the SHA-256 of a counter key
 * such as `pair:<e-mail>|<address>`, so the table holds no e-mail or address in clear.
 */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: uuid('id').primaryKey(),
    keyHash: text('key_hash').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('auth_failures_key_idx').on(table.keyHash, table.failedAt),
    index('auth_failures_failed_at_idx').on(table.failedAt),
  ],
);
