import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { availableBackends, useTestDatabase } from '../../test/test-database.ts';
import {
  globalLookups,
  indexesNotLedByClinic,
  installationTables,
  undeclaredInstallationTables,
  workQueues,
} from './clinic-indexes.ts';

/** The catalogue keeps every clinic's queries to its own data (issue 21): no index a future change adds may regress it. */
describe.each(availableBackends())('clinic-led indexes on %s', (backend) => {
  const t = useTestDatabase(backend);

  it('every index of a clinic-owned table leads with the clinic or is a declared global look-up', async () => {
    expect(await indexesNotLedByClinic(t.db)).toEqual([]);
  });

  it('every table without account_id is a declared installation table', async () => {
    expect(await undeclaredInstallationTables(t.db)).toEqual([]);
  });

  it('the declared global look-ups exist and are unique: one descent, however many clinics', async () => {
    const { rows } = await t.db.orm.execute<{ name: string; unique: boolean }>(sql`
      select i.relname as name, x.indisunique as unique from pg_index x join pg_class i on i.oid = x.indexrelid
      where i.relnamespace = 'public'::regnamespace`);
    const unique = new Map(rows.map((row) => [row.name, row.unique]));
    for (const name of Object.keys(globalLookups))
      expect({ name, unique: unique.get(name) }).toEqual({ name, unique: true });
    const { rows: tables } = await t.db.orm.execute<{ name: string }>(
      sql`select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'`,
    );
    expect(tables.map((row) => row.name)).toEqual(expect.arrayContaining(Object.keys(installationTables)));
  });

  it('the declared work queues exist and are partial: they hold waiting work only', async () => {
    const { rows } = await t.db.orm.execute<{ name: string; partial: boolean }>(sql`
      select i.relname as name, x.indpred is not null as partial from pg_index x join pg_class i on i.oid = x.indexrelid
      where i.relnamespace = 'public'::regnamespace`);
    const partial = new Map(rows.map((row) => [row.name, row.partial]));
    for (const name of Object.keys(workQueues))
      expect({ name, partial: partial.get(name) }).toEqual({ name, partial: true });
  });

  it('finds an index that does not lead with the clinic, and a table that names no clinic', async () => {
    await t.db.orm.execute(sql`create index patients_probe_by_name on patients (last_name, account_id)`);
    await t.db.orm.execute(sql`create index patients_probe_expression on patients (lower(email))`);
    await t.db.orm.execute(sql`create table installation_probe (id uuid primary key)`);
    try {
      expect((await indexesNotLedByClinic(t.db)).map((offence) => offence.index)).toEqual([
        'patients_probe_by_name',
        'patients_probe_expression',
      ]);
      expect(await undeclaredInstallationTables(t.db)).toEqual(['installation_probe']);
    } finally {
      await t.db.orm.execute(sql`drop index patients_probe_by_name`);
      await t.db.orm.execute(sql`drop index patients_probe_expression`);
      await t.db.orm.execute(sql`drop table installation_probe`);
    }
  });
});
