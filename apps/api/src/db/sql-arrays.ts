import { sql } from 'drizzle-orm';

/**
 * A list as one array expression of parameters, `array[$1, $2, …]::text[]` (a null stays NULL):
 * the same on PostgreSQL and PGlite, to `unnest` rows of values into one UPDATE instead of one per row.
 */
export const textArray = (values: readonly (string | null)[]) =>
  sql`array[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;
