import { readdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { availableBackends, useTestDatabase } from '../../test/test-database.ts';
import { migrationsFolder } from './client.ts';

/** The same migrations and extensions on the embedded database and on a PostgreSQL server. */
describe.each(availableBackends())('database on %s', (backend) => {
  const t = useTestDatabase(backend);

  it('has applied every committed migration', async () => {
    const committed = readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql')).length;
    const { rows } = await t.db.orm.execute<{ applied: number }>(
      sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
    );
    expect(rows[0]?.applied).toBe(committed);
  });

  it('loads pg_trgm, unaccent and btree_gist', async () => {
    const { rows } = await t.db.orm.execute<{ extname: string }>(
      sql`select extname from pg_extension where extname in ('pg_trgm', 'unaccent', 'btree_gist') order by extname`,
    );
    expect(rows.map((row) => row.extname)).toEqual(['btree_gist', 'pg_trgm', 'unaccent']);
    const probe = await t.db.orm.execute<{ plain: string; similar: number }>(
      sql`select lower(unaccent('Anestésico ÑANDÚ')) as plain, similarity('gonzalez', 'gonzales') as similar`,
    );
    expect(probe.rows[0]?.plain).toBe('anestesico nandu');
    expect(probe.rows[0]?.similar).toBeGreaterThan(0.5);
  });

  it('runs tenant queries that use the extensions', async () => {
    const result = await t.db.withTenant('0190a0b0-0000-7000-8000-000000000001', (tx) =>
      tx.execute<{ plain: string }>(sql`select unaccent('Pérez') as plain`),
    );
    expect(result.rows[0]?.plain).toBe('Perez');
  });
});
