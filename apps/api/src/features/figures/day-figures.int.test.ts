import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreClock, setClock } from '../../../test/clock.ts';
import { insertProvider, insertRegisteredPurchase } from '../../../test/commercial.ts';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import { appointmentBooker, cancelled } from '../../../test/figures-fixture.ts';
import { insertCustomer, insertIssuedSale } from '../../../test/sales-factory.ts';
import { expectRefusedAsClinic, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { appointments } from '../../db/schema/index.ts';
import { createJobWorker } from '../jobs/jobs.worker.ts';
import { foldDayFigureChanges } from './day-figures.repository.ts';

/**
 * The open amounts kept per due date (migration 0020) behind the clinic's aging totals: the
 * documents' trigger appends every change, the fold sums them in, and the figures equal the
 * documents' own open amounts at every moment, folded or not.
 */
describe.each(availableBackends())('the day figures on %s', (backend) => {
  const t = useTestClinic(backend);

  afterEach(async () => {
    restoreClock();
    expect(await dayFigureMismatches(t)).toEqual([]);
  });

  const changesCount = async () => {
    const { rows } = await t.db.orm.execute<{ n: number }>(sql`select count(*)::int as n from day_figure_changes`);
    return Number(rows[0]?.n);
  };
  const keptRows = async (accountId: string, side: 'sale' | 'purchase') => {
    const { rows } = await t.db.orm.execute<{ due: string; owed: string; credit: string }>(sql`
      select day::text as due,
        coalesce(sum(amount) filter (where figure = 'owed'), 0)::numeric(14, 2)::text as owed,
        coalesce(sum(amount) filter (where figure = 'credit'), 0)::numeric(14, 2)::text as credit
      from day_figures
      where account_id = ${accountId}::uuid and figure in ('owed', 'credit') and key = ${side}
      group by day order by day`);
    return rows;
  };
  const totalsOf = (response: { json<T>(): T }) => response.json<{ totals: Record<string, string> }>().totals;
  const collect = async (
    customerId: string,
    amount: string,
    allocations?: { documentId: string; amount: string }[],
  ) => {
    const response = await t.call('POST', '/api/collections', {
      body: {
        customerId,
        amount,
        date: '2026-11-02',
        currency: 'argentine_peso',
        method: 'cash_payment',
        ...(allocations ? { allocations } : {}),
      },
      headers: { 'idempotency-key': `test-${randomUUID()}` },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; version: number };
  };

  it('issues, collections, credit notes and reversals append changes; the fold sums them per due date and drops settled dates', async () => {
    const customerId = await insertCustomer(t, { name: 'Plegado Uno' });
    const first = await insertIssuedSale(t, { customerId, date: '2026-09-01', dueDate: '2026-09-30', net: '100' });
    const second = await insertIssuedSale(t, { customerId, date: '2026-10-01', dueDate: '2026-10-31', net: '200' });
    await insertIssuedSale(t, {
      customerId,
      documentType: 'credit_note',
      date: '2026-10-05',
      net: '10',
      relatedDocumentId: second.id,
    });
    expect(await changesCount()).toBeGreaterThanOrEqual(3);
    expect(await dayFigureMismatches(t)).toEqual([]);

    // Nothing folded yet: the list's totals already count every document.
    setClock('2026-11-15T15:00:00Z');
    const before = await t.call('GET', '/api/current-accounts/customers?pageSize=5');
    expect(before.statusCode, before.body).toBe(200);

    const folded = await foldDayFigureChanges(t.db);
    expect(folded).toBeGreaterThanOrEqual(3);
    expect(await changesCount()).toBe(0);
    expect(await keptRows(t.clinic.accountId, 'sale')).toEqual([
      { due: '2026-09-30', owed: '121.00', credit: '0.00' },
      { due: '2026-10-05', owed: '0.00', credit: '12.10' },
      { due: '2026-10-31', owed: '242.00', credit: '0.00' },
    ]);
    expect(await foldDayFigureChanges(t.db)).toBe(0);
    const after = await t.call('GET', '/api/current-accounts/customers?pageSize=5');
    expect(totalsOf(after)).toEqual(totalsOf(before));

    // The first invoice collected in full: its due date leaves the table at the next fold.
    const payment = await collect(customerId, '121.00', [{ documentId: first.id, amount: '121.00' }]);
    expect(await dayFigureMismatches(t)).toEqual([]);
    await foldDayFigureChanges(t.db);
    expect((await keptRows(t.clinic.accountId, 'sale')).map((row) => row.due)).toEqual(['2026-10-05', '2026-10-31']);

    // Reversed: open again, appended, exact before and after the fold.
    const reversal = await t.call('POST', `/api/collections/${payment.id}/reverse`, {
      body: { reason: 'Cargado dos veces', version: payment.version },
    });
    expect(reversal.statusCode, reversal.body).toBe(200);
    expect(await dayFigureMismatches(t)).toEqual([]);
    await foldDayFigureChanges(t.db);
    expect((await keptRows(t.clinic.accountId, 'sale'))[0]).toEqual({
      due: '2026-09-30',
      owed: '121.00',
      credit: '0.00',
    });
  });

  it("the unfiltered list's totals (kept figures) equal those of the statement that ages every account", async () => {
    for (const [index, name] of ['Totales Ana', 'Totales Bea', 'Totales Ciro'].entries()) {
      const customerId = await insertCustomer(t, { name });
      await insertIssuedSale(t, {
        customerId,
        date: '2026-07-01',
        dueDate: '2026-07-31',
        net: String(100 * (index + 1)),
      });
      await insertIssuedSale(t, { customerId, date: '2026-11-10', dueDate: '2026-12-10', net: '50' });
    }
    await foldDayFigureChanges(t.db);
    const customerId = await insertCustomer(t, { name: 'Totales Dario' });
    await insertIssuedSale(t, { customerId, date: '2026-10-20', dueDate: '2026-10-20', net: '70' });
    setClock('2026-11-15T15:00:00Z');
    const kept = await t.call('GET', '/api/current-accounts/customers?pageSize=2');
    const aged = await t.call('GET', '/api/current-accounts/customers?pageSize=2&sort=-overdue');
    expect(kept.statusCode, kept.body).toBe(200);
    expect(totalsOf(kept)).toEqual(totalsOf(aged));
    expect(Number(totalsOf(kept).overdue)).toBeGreaterThan(0);
  });

  it('every sort pages the accounts in the order of the export, which ages every account', async () => {
    // Ties and zeros on purpose: two with the same overdue amount, one with nothing owed.
    for (const [name, net, due] of [
      ['Orden Alba', '100', '2026-10-01'],
      ['Orden Bruno', '100', '2026-10-01'],
      ['Orden Carla', '300', '2026-12-20'],
      ['Orden Dora', '50', '2026-06-01'],
    ] as const) {
      const customerId = await insertCustomer(t, { name });
      await insertIssuedSale(t, { customerId, date: '2026-05-01', dueDate: due, net });
    }
    await insertCustomer(t, { name: 'Orden Elsa' });
    setClock('2026-11-15T15:00:00Z');
    for (const sort of ['name', '-name', 'balance', '-balance', 'overdue', '-overdue']) {
      const csv = await t.call('GET', `/api/current-accounts/customers/export.csv?sort=${sort}`);
      expect(csv.statusCode, csv.body).toBe(200);
      const exported = csv.body
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(1)
        .filter(Boolean)
        .map((line) => line.split(';')[0]);
      const paged: string[] = [];
      for (let page = 1; ; page += 1) {
        const response = await t.call('GET', `/api/current-accounts/customers?sort=${sort}&page=${page}&pageSize=3`);
        const rows = response.json<{ data: { name: string }[] }>().data;
        if (rows.length === 0) break;
        paged.push(...rows.map((row) => row.name));
      }
      expect(paged, sort).toEqual(exported);
    }
  });

  it("counts appointments by kind and professional, attendances and new patients on the clinic's day; a new time zone moves them", async () => {
    const patientId = await t.newPatient();
    const professional = t.clinic.userId;
    const book = appointmentBooker(t, patientId);
    // 02:00 UTC on the 10th is still the 9th in Buenos Aires (UTC−3).
    await book('2026-11-10T02:00:00Z');
    await book('2026-11-10T13:00:00Z', { status: 'completed' });
    await book('2026-11-10T14:00:00Z', cancelled('no_show', '2026-11-10T15:00:00Z'));
    await book('2026-11-10T15:00:00Z', cancelled('patient_request', '2026-11-10T09:00:00Z'));
    const early = await book('2026-11-10T16:00:00Z');
    await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx
        .update(appointments)
        .set({ status: 'cancelled', cancelReason: 'patient_request', cancelledAt: new Date('2026-11-01T12:00:00Z') })
        .where(and(eq(appointments.accountId, t.clinic.accountId), eq(appointments.id, early))),
    );
    const figures = async (figure: string) => {
      const { rows } = await t.db.orm.execute<{ key: string; day: string; count: number }>(sql`
        select key, day::text as day, sum(count)::int as count from (
          select key, day, count from day_figures where account_id = ${t.clinic.accountId}::uuid and figure = ${figure}
          union all
          select key, day, count from day_figure_changes where account_id = ${t.clinic.accountId}::uuid and figure = ${figure}
        ) k group by key, day having sum(count) <> 0 order by day, key`);
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    };
    expect(await figures('appointments')).toEqual([
      { key: `scheduled:${professional}`, day: '2026-11-09', count: 1 },
      { key: `cancelled:${professional}`, day: '2026-11-10', count: 1 },
      { key: `completed:${professional}`, day: '2026-11-10', count: 1 },
      { key: `late_cancelled:${professional}`, day: '2026-11-10', count: 1 },
      { key: `no_show:${professional}`, day: '2026-11-10', count: 1 },
    ]);
    expect((await figures('patients_new')).reduce((sum, row) => sum + row.count, 0)).toBeGreaterThanOrEqual(1);

    // Madrid (UTC+1): the appointment at 02:00 UTC is on the 10th; every figure rebuilt, exact.
    const settings = await t.call('GET', '/api/settings/clinic');
    const { uploadMaxMbLimit: _limit, updatedAt: _updated, ...editable } = settings.json().data;
    const saved = await t.call('PUT', '/api/settings/clinic', { body: { ...editable, timeZone: 'Europe/Madrid' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await dayFigureMismatches(t)).toEqual([]);
    expect((await figures('appointments')).filter((row) => row.key.startsWith('scheduled:'))).toEqual([
      { key: `scheduled:${professional}`, day: '2026-11-10', count: 1 },
    ]);
    // The rebuild is for the calling clinic only.
    const other = await t.newClinic();
    await expectRefusedAsClinic(t, sql`select odontia_rebuild_day_figures(${other.accountId}::uuid)`);
  });

  it('keeps the purchases side apart, and each clinic its own', async () => {
    const providerId = await insertProvider(t);
    await insertRegisteredPurchase(t, { providerId, date: '2026-10-01', dueDate: '2026-10-15', net: '400' });
    const other = await t.newClinic();
    const otherCustomer = await insertCustomer(t, { name: 'Otra Clínica Cliente' }, other);
    await insertIssuedSale(
      t,
      { customerId: otherCustomer, date: '2026-10-01', dueDate: '2026-10-15', net: '900' },
      other,
    );
    await foldDayFigureChanges(t.db);
    expect(await keptRows(t.clinic.accountId, 'purchase')).toEqual([
      { due: '2026-10-15', owed: '484.00', credit: '0.00' },
    ]);
    // The other clinic's sale, due the same day, is not in this clinic's rows.
    expect((await keptRows(t.clinic.accountId, 'sale')).map((row) => row.due)).not.toContain('2026-10-15');
    expect(await keptRows(other.accountId, 'sale')).toEqual([{ due: '2026-10-15', owed: '1089.00', credit: '0.00' }]);
    // The clinic's role sees only its own rows, and may not delete any.
    const seen = await t.db.withTenant(t.clinic.accountId, (tx) =>
      tx.execute<{ n: number }>(sql`select count(*)::int as n from day_figures`),
    );
    const { rows: own } = await t.db.orm.execute<{ n: number }>(
      sql`select count(*)::int as n from day_figures where account_id = ${t.clinic.accountId}::uuid`,
    );
    expect(Number(seen.rows[0]?.n)).toBe(Number(own[0]?.n));
    for (const table of ['day_figures', 'day_figure_changes'])
      await expectRefusedAsClinic(t, sql.raw(`delete from ${table}`));
  });

  it('folds taken at once never count a change twice; the worker folds on its own', async () => {
    const customerId = await insertCustomer(t, { name: 'Plegado Concurrente' });
    for (let day = 1; day <= 12; day += 1) {
      const date = `2026-10-${String(day).padStart(2, '0')}`;
      await insertIssuedSale(t, { customerId, date, dueDate: date, net: '10' });
    }
    const appended = await changesCount();
    expect(appended).toBeGreaterThanOrEqual(12);
    // One takes the turn, the other skips it or folds what is left: each change once.
    const counts = await Promise.all([foldDayFigureChanges(t.db), foldDayFigureChanges(t.db)]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(appended);
    await foldDayFigureChanges(t.db);
    expect(await changesCount()).toBe(0);
    expect(await dayFigureMismatches(t)).toEqual([]);

    await insertIssuedSale(t, { customerId, date: '2026-10-20', dueDate: '2026-10-20', net: '10' });
    const worker = createJobWorker({
      db: t.db,
      log: t.app.log,
      pollMs: 20,
      handlers: {},
      tasks: [{ name: 'fold', everyMs: 60_000, run: async () => void (await foldDayFigureChanges(t.db)) }],
    });
    worker.start();
    for (let tries = 0; tries < 100 && (await changesCount()) > 0; tries += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await worker.stop();
    expect(await changesCount()).toBe(0);
  });
});
