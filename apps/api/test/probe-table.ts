import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { newId } from '../src/lib/ids.ts';

/**
 * A test-only clinic table `(account_id, id, name)`, put under RLS by the same helper the real
 * tables use, holding `a-1` and `a-2` of clinic A and `b-1` of clinic B.
 */
export async function createProbeTable(db: Database, table: string, clinicA: string, clinicB: string): Promise<void> {
  await db.orm.execute(
    sql.raw(`create table ${table} (account_id uuid not null, id uuid not null, name text not null,
      primary key (account_id, id))`),
  );
  await db.orm.execute(sql.raw(`select enable_tenant_rls('${table}')`));
  await db.withSystem(async (tx) => {
    for (const [account, name] of [
      [clinicA, 'a-1'],
      [clinicA, 'a-2'],
      [clinicB, 'b-1'],
    ] as const) {
      await tx.execute(sql`insert into ${sql.identifier(table)} values (${account}, ${newId()}, ${name})`);
    }
  });
}
