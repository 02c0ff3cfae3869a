import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createProbeTable } from '../../test/probe-table.ts';
import { availableBackends, useTestDatabase } from '../../test/test-database.ts';
import { newId } from '../lib/ids.ts';
import type { SystemTx, TenantTx } from './tenancy.ts';

/**
 * Row-level security isolates clinics in the database itself, not in WHERE clauses.
 * A test-only tenant table (test/probe-table.ts).
 */
describe.each(availableBackends())('tenancy on %s', (backend) => {
  const clinicA = newId();
  const clinicB = newId();

  type ProbeRow = { account_id: string; name: string };
  const names = async (tx: TenantTx | SystemTx) =>
    (await tx.execute<ProbeRow>(sql`select account_id, name from tenancy_probe order by name`)).rows;

  const t = useTestDatabase(backend, (db) => createProbeTable(db, 'tenancy_probe', clinicA, clinicB));

  it('shows a clinic only its own rows', async () => {
    expect(await t.db.withTenant(clinicA, names)).toEqual([
      { account_id: clinicA, name: 'a-1' },
      { account_id: clinicA, name: 'a-2' },
    ]);
    expect(await t.db.withTenant(clinicB, names)).toEqual([{ account_id: clinicB, name: 'b-1' }]);
  });

  it('shows nothing to the app role without a clinic context', async () => {
    const rows = await t.db.orm.transaction(async (tx) => {
      await tx.execute(sql`select set_config('role', 'odontia_app', true)`);
      return (await tx.execute(sql`select * from tenancy_probe`)).rows;
    });
    expect(rows).toEqual([]);
  });

  it('shows nothing to an unknown clinic', async () => {
    expect(await t.db.withTenant(newId(), names)).toEqual([]);
  });

  it("refuses to write a row for another clinic and cannot touch another clinic's rows", async () => {
    await expect(
      t.db.withTenant(clinicA, (tx) => tx.execute(sql`insert into tenancy_probe values (${clinicB}, ${newId()}, 'x')`)),
    ).rejects.toThrow();
    const updated = await t.db.withTenant(clinicA, async (tx) => {
      const result = await tx.execute(
        sql`update tenancy_probe set name = 'changed' where account_id = ${clinicB} returning id`,
      );
      return result.rows;
    });
    expect(updated).toEqual([]);
    expect(await t.db.withTenant(clinicB, names)).toEqual([{ account_id: clinicB, name: 'b-1' }]);
  });

  it('lets the system context see every clinic', async () => {
    expect((await t.db.withSystem(names)).map((row) => row.name)).toEqual(['a-1', 'a-2', 'b-1']);
  });

  it('runs as a role that owns nothing and cannot bypass RLS', async () => {
    const [role] = (
      await t.db.orm.execute<{ rolsuper: boolean; rolbypassrls: boolean; owned: number }>(sql`
        select r.rolsuper, r.rolbypassrls,
               (select count(*)::int from pg_class c where c.relowner = r.oid) as owned
        from pg_roles r where r.rolname = 'odontia_app'`)
    ).rows;
    expect(role).toEqual({ rolsuper: false, rolbypassrls: false, owned: 0 });
    const current = await t.db.withTenant(
      clinicA,
      async (tx) => (await tx.execute<{ who: string }>(sql`select current_user as who`)).rows[0]?.who,
    );
    expect(current).toBe('odontia_app');
  });

  it('leaves the connection clean after the transaction', async () => {
    await t.db.withTenant(clinicA, names);
    const { rows } = await t.db.orm.execute<{ who: string; account: string | null }>(
      sql`select current_user as who, nullif(current_setting('app.account_id', true), '') as account`,
    );
    expect(rows[0]?.who).not.toBe('odontia_app');
    expect(rows[0]?.account).toBeNull();
  });

  it('keeps concurrent clinics apart', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) => {
        const clinic = index % 2 === 0 ? clinicA : clinicB;
        return t.db.withTenant(clinic, async (tx) => ({ clinic, rows: await names(tx) }));
      }),
    );
    for (const { clinic, rows } of results) {
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.account_id === clinic)).toBe(true);
    }
  });

  it('rejects a clinic id that is not a UUID', async () => {
    await expect(t.db.withTenant("x' or true --", names)).rejects.toThrow(TypeError);
  });
});
