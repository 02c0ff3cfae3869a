import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSupply } from '../../test/supplies.ts';
import { useAppPerTest } from '../../test/test-app.ts';
import { useTestClinic } from '../../test/test-clinic.ts';

/*
 * The database going away under requests (issue 20), on PostgreSQL: a backend terminated in the
 * middle of a transaction — what a fast restart or a failover does to every connection — answers
 * 503 service_unavailable (never a 500 with internals, never a hang), keeps nothing of the
 * request, and the pool serves the next request on a new connection without a restart. Then
 * invoices with stock lines issued while connections are terminated again and again: the
 * numbering has no gap, the hash chain holds, the stock equals its movements, and the customer's
 * ledger and kept balance hold exactly the issued invoices.
 */
describe.runIf(process.env.DATABASE_URL)('the database dropping connections (PostgreSQL)', () => {
  const startApp = useAppPerTest();

  it('a transaction cut in the middle answers 503 with Retry-After, keeps nothing, and the next request is served', async () => {
    let backendOf: (pid: number) => void = () => {};
    const backend = new Promise<number>((resolve) => {
      backendOf = resolve;
    });
    const testApp = await startApp({
      backend: 'postgres',
      async configure(app) {
        await app.db.orm.execute(sql`create table fault_probe (id int primary key)`);
        app.post('/api/test/slow-write', { config: { permission: 'public' } }, async () => {
          await app.db.orm.transaction(async (tx) => {
            await tx.execute(sql`insert into fault_probe values (1)`);
            const { rows } = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
            backendOf(Number(rows[0]?.pid));
            await tx.execute(sql`select pg_sleep(5)`);
          });
          return { data: 'written' };
        });
      },
    });
    const { app, db } = testApp;
    const writing = app.inject({ method: 'POST', url: '/api/test/slow-write' });
    const pid = await backend;
    await db.orm.execute(sql`select pg_terminate_backend(${pid})`);
    const response = await writing;
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.json()).toMatchObject({ code: 'service_unavailable', details: { reason: 'database_unreachable' } });
    expect(response.body).not.toMatch(/terminat|pg_|sql|fault_probe/i);
    const { rows } = await db.orm.execute<{ n: number }>(sql`select count(*)::int as n from fault_probe`);
    expect(rows[0]?.n).toBe(0);
    // Every idle connection of the pool is gone too: the next requests still answer.
    await db.orm.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    );
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });
});

describe.runIf(process.env.DATABASE_URL)('issuing while connections are terminated (PostgreSQL)', () => {
  const t = useTestClinic('postgres', { patient: true });

  it('no gap in the numbering, the chain holds, the stock equals its movements', async () => {
    expect((await t.call('POST', '/api/points-of-sale', { body: { code: '0007', name: 'Caja' } })).statusCode).toBe(
      201,
    );
    const itemId = await createSupply(t, {
      name: 'Cepillo interdental',
      costPrice: '2',
      basePrice: '5',
      totalStock: 500,
    });

    // Another connection terminates every busy backend of the database every few milliseconds.
    let terminating = true;
    const terminator = (async () => {
      while (terminating) {
        await t.db.orm
          .execute(
            sql`select pg_terminate_backend(pid) from pg_stat_activity
                where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`,
          )
          .catch(() => undefined);
        // Now and then, so some issues go through whole and others are cut at any statement.
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 100));
      }
    })();
    const statuses: number[] = [];
    try {
      const count = (status: number) => statuses.filter((s) => s === status).length;
      for (let attempt = 0; attempt < 400 && (count(503) < 3 || count(201) < 3 || statuses.length < 20); attempt++) {
        const response = await t.call('POST', '/api/sales', {
          body: {
            documentType: 'invoice',
            patientId: t.patientId,
            pointOfService: '0007',
            date: '2026-11-20',
            currency: 'argentine_peso',
            conditionSale: 'current_account',
            issue: true,
            lines: [
              { itemId, description: 'Cepillo interdental', quantity: '2', unitPrice: '5', vatRate: '21' },
              { description: 'Limpieza', quantity: '1', unitPrice: '100', vatRate: '21' },
            ],
          },
        });
        statuses.push(response.statusCode);
      }
    } finally {
      terminating = false;
      await terminator;
    }
    // The fault happened, and it never answered anything but a sale or a 503.
    expect(statuses.filter((status) => status === 503).length, statuses.join(' ')).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThan(0);
    expect(
      statuses.every((status) => status === 201 || status === 503),
      statuses.join(' '),
    ).toBe(true);

    const integrity = (await t.call('GET', '/api/sales/integrity')).json().data;
    expect(integrity.ok).toBe(true);
    const pos = integrity.pointsOfSale.find((entry: { pointOfService: string }) => entry.pointOfService === '0007');
    expect(pos.gaps).toEqual([]);
    expect(pos.problems).toEqual([]);
    // Every issued invoice took 2 from the stock, and only those: the item's stock is its movements'.
    const { rows } = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ stock: number; moved: number; issued: number }>(sql`
        select i.total_stock::int as stock,
          (select coalesce(sum(m.quantity), 0)::int from stock_movements m where m.account_id = i.account_id and m.item_id = i.id) as moved,
          (select count(*)::int from commercial_documents d
            where d.account_id = i.account_id and d.side = 'sale' and d.status = 'issued' and d.point_of_service = '0007') as issued
        from inventory_items i where i.account_id = ${t.clinic.accountId}::uuid and i.id = ${itemId}::uuid`),
    );
    const [item] = rows;
    expect(item?.stock).toBe(item?.moved);
    expect(item?.stock).toBe(500 - 2 * Number(item?.issued));
    expect(Number(item?.issued)).toBeGreaterThanOrEqual(statuses.filter((status) => status === 201).length);
    expect(pos.lastNumbers).toContainEqual({ documentType: 'invoice', lastNumber: Number(item?.issued) });
    // The customer's ledger holds exactly the issued invoices (on current account), and its kept
    // balance is the ledger's sum.
    const { rows: ledger } = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ invoiced: string; ledger: string; kept: string }>(sql`
        select
          (select coalesce(sum(d.total), 0)::text from commercial_documents d
            where d.account_id = c.account_id and d.customer_id = c.id and d.status = 'issued') as invoiced,
          (select coalesce(sum(e.debit - e.credit), 0)::text from ledger_entries e
            where e.account_id = c.account_id and e.party_kind = 'customer' and e.party_id = c.id) as ledger,
          (select coalesce(b.debits - b.credits, 0)::text from party_balances b
            where b.account_id = c.account_id and b.party_kind = 'customer' and b.party_id = c.id) as kept
        from customers c where c.account_id = ${t.clinic.accountId}::uuid and c.patient_id = ${t.patientId}::uuid`),
    );
    expect(ledger[0]?.ledger).toBe(ledger[0]?.invoiced);
    expect(ledger[0]?.kept).toBe(ledger[0]?.ledger);
    expect(Number(ledger[0]?.invoiced)).toBeGreaterThan(0);
  }, 120_000);
});
