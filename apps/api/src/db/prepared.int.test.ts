import { sql } from 'drizzle-orm';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { createProbeTable } from '../../test/probe-table.ts';
import { availableBackends, useTestDatabase } from '../../test/test-database.ts';
import { newId } from '../lib/ids.ts';
import { preparedQuery } from './prepared.ts';

const probe = pgTable('prepared_probe', {
  accountId: uuid('account_id').notNull(),
  id: uuid('id').notNull(),
  name: text('name').notNull(),
});

/** One prepared query for every backend: the statement name lives per connection, not per database. */
const probeNames = preparedQuery<{ prefix: string }, { accountId: string; name: string }[]>('test_probe_names', (db) =>
  db
    .select({ accountId: probe.accountId, name: probe.name })
    .from(probe)
    .where(sql`${probe.name} like ${sql.placeholder('prefix')} || '%'`)
    .orderBy(probe.name),
);

describe.each(availableBackends())('prepared queries and transactions on %s', (backend) => {
  const clinicA = newId();
  const clinicB = newId();

  const t = useTestDatabase(backend, (db) => createProbeTable(db, 'prepared_probe', clinicA, clinicB));

  it('runs a query built once in whichever transaction it is given, under that context', async () => {
    // Many times, concurrently: every pooled connection prepares it and runs it for both clinics.
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, index) => {
        const clinic = index % 2 === 0 ? clinicA : clinicB;
        return t.db.withTenant(clinic, async (tx) => ({ clinic, rows: await probeNames(tx, { prefix: '' }) }));
      }),
    );
    for (const { clinic, rows } of results) {
      expect(rows.map((row) => row.name)).toEqual(clinic === clinicA ? ['a-1', 'a-2'] : ['b-1']);
    }
    const all = await t.db.withSystem((tx) => probeNames(tx, { prefix: '' }));
    expect(all.map((row) => row.name)).toEqual(['a-1', 'a-2', 'b-1']);
    expect(await t.db.withTenant(clinicA, (tx) => probeNames(tx, { prefix: 'a-2' }))).toEqual([
      { accountId: clinicA, name: 'a-2' },
    ]);
  });

  it('refuses to define two prepared queries under one name', () => {
    expect(() => preparedQuery('test_probe_names', (handle) => handle.select().from(probe))).toThrow(/defined twice/);
  });

  it('rolls a failed transaction back and leaves its connection clean', async () => {
    const failure = new Error('rolled back');
    await expect(
      t.db.withTenant(clinicA, async (tx) => {
        await tx.execute(sql`insert into prepared_probe values (${clinicA}, ${newId()}, 'a-rolled-back')`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    const rows = await t.db.withTenant(clinicA, (tx) => probeNames(tx, { prefix: 'a-rolled' }));
    expect(rows).toEqual([]);
    for (let round = 0; round < 12; round += 1) {
      const { rows: context } = await t.db.orm.execute<{ who: string; account: string | null }>(
        sql`select current_user as who, nullif(current_setting('app.account_id', true), '') as account`,
      );
      expect(context[0]?.who).not.toBe('odontia_app');
      expect(context[0]?.account).toBeNull();
    }
  });

  it('starts the tenant context with the transaction: role and clinic are set before the first query', async () => {
    const context = await t.db.withTenant(clinicB, async (tx) => {
      const { rows } = await tx.execute<{ who: string; account: string }>(
        sql`select current_user as who, current_setting('app.account_id') as account`,
      );
      return rows[0];
    });
    expect(context).toEqual({ who: 'odontia_app', account: clinicB });
  });

  it("runs one statement in the clinic's context, committed (PostgreSQL: in one write); a failed one leaves nothing and a clean connection", async () => {
    // Under the clinic's row-level security: an update of every row touches clinic A's only.
    await t.db.tenantStatement(clinicA, sql`update prepared_probe set name = name || '-seen'`);
    const all = await t.db.withSystem((tx) => probeNames(tx, { prefix: '' }));
    expect(all.map((row) => row.name)).toEqual(['a-1-seen', 'a-2-seen', 'b-1']);
    // Another clinic's row is refused by the database, whatever the statement says.
    await expect(
      t.db.tenantStatement(clinicB, sql`insert into prepared_probe values (${clinicA}, ${newId()}, 'a-forged')`),
    ).rejects.toThrow();
    await expect(
      t.db.tenantStatement(clinicA, sql`insert into prepared_probe values (${clinicA}, 'not a uuid', 'a-bad')`),
    ).rejects.toThrow();
    const after = await t.db.withSystem((tx) => probeNames(tx, { prefix: 'a-' }));
    expect(after.map((row) => row.name)).toEqual(['a-1-seen', 'a-2-seen']);
    for (let round = 0; round < 12; round += 1) {
      const { rows: context } = await t.db.orm.execute<{ who: string; account: string | null }>(
        sql`select current_user as who, nullif(current_setting('app.account_id', true), '') as account`,
      );
      expect(context[0]?.who).not.toBe('odontia_app');
      expect(context[0]?.account).toBeNull();
    }
    await t.db.tenantStatement(clinicA, sql`update prepared_probe set name = replace(name, '-seen', '')`);
  });
});
