import { clinicDayRange, clinicToday } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { restoreClock, setClock } from '../../../test/clock.ts';
import { insertProvider, insertRegisteredPurchase } from '../../../test/commercial.ts';
import { dayFigureMismatches } from '../../../test/day-figures.ts';
import {
  appointmentBooker,
  cancelled,
  collectionsWithOneReversed,
  controlAttendance,
  controlAttendanceBody,
  creator,
  novemberSales,
  saleCatalogue,
  treatmentSale,
} from '../../../test/figures-fixture.ts';
import { expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { foldDayFigureChanges } from '../figures/day-figures.repository.ts';
import { patientsAttendedByAttendances, patientsAttendedByLatest } from './dashboard.repository.ts';
import { aYearBefore, periodsOf } from './dashboard.service.ts';

/**
 * The dashboard (issue 19) on a known data set, every figure computed by hand, in a Buenos Aires
 * clinic on 2026-11-15: the period is 1–15 November, the one before 17–31 October, a year before
 * 1–15 November 2025.
 */
describe.each(availableBackends())('the dashboard on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  let limpieza = '';
  let extraccion = '';

  afterEach(async () => {
    restoreClock();
    expect(await dayFigureMismatches(t)).toEqual([]);
  });

  const _created = creator(t);
  const invoice = treatmentSale(t);

  beforeAll(async () => {
    ({ limpieza, extraccion } = await saleCatalogue(t));

    setClock('2026-11-15T15:00:00Z');
    // Production: 100 + 50 (3 Nov) − 40 (credit note, 5 Nov) = 110 now; 80 the period before; 30 a year before.
    // Issued in date order: a point of sale's numbers follow its dates (issue 35).
    await invoice('2025-11-10', [{ treatmentId: limpieza, price: '30' }]);
    await invoice('2026-10-20', [{ treatmentId: extraccion, price: '80' }]);
    await novemberSales(invoice, { limpieza, extraccion });
    // Collections: 50 cash, 30 card, 20 cash reversed (does not count).
    await collectionsWithOneReversed(t);
    // Payables: 121 overdue (due 1 Nov), 242 due this week (due 18 Nov), 363 later (due 30 Nov).
    const providerId = await insertProvider(t);
    await insertRegisteredPurchase(t, { providerId, date: '2026-10-01', dueDate: '2026-11-01', net: '100' });
    await insertRegisteredPurchase(t, { providerId, date: '2026-10-01', dueDate: '2026-11-18', net: '200' });
    await insertRegisteredPurchase(t, { providerId, date: '2026-10-01', dueDate: '2026-11-30', net: '300' });
    // Attendances: two in the period (one by a patient new this month), one the period before.
    const attend = controlAttendance(t);
    await attend(t.patientId, '2026-11-10T10:00:00-03:00');
    await attend(t.patientId, '2026-10-25T10:00:00-03:00');
    const newcomer = await t.newPatient();
    await attend(newcomer, '2026-11-12T10:00:00-03:00');
    restoreClock();
  });

  it('sums the period, the one before and a year before by hand; receivables, payables and the top treatments', async () => {
    setClock('2026-11-15T15:00:00Z');
    const response = await t.call('GET', '/api/dashboard');
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    expect(data.period).toEqual({
      from: '2026-11-01',
      to: '2026-11-15',
      previousFrom: '2026-10-17',
      previousTo: '2026-10-31',
      lastYearFrom: '2025-11-01',
      lastYearTo: '2025-11-15',
      today: '2026-11-15',
    });
    expect(data.financial.production).toMatchObject({ current: '110.00', previous: '80.00', lastYear: '30.00' });
    expect(data.financial.production.byDay).toEqual([
      { day: '2026-11-03', amount: '150.00' },
      { day: '2026-11-05', amount: '-40.00' },
    ]);
    expect(data.financial.collections).toEqual({
      total: '80.00',
      byMethod: [
        { method: 'cash_payment', amount: '50.00', count: 1 },
        { method: 'credit_card', amount: '30.00', count: 1 },
      ],
    });
    // Invoiced with VAT: 181.50 (3 Nov) − 48.40 + 96.80 (20 Oct) + 36.30 (2025) = 266.20; collected 80.
    expect(data.financial.receivables).toMatchObject({ balance: '186.20', onAccount: '80.00' });
    // Issue 35: what the buckets owe, less what was collected on account, is the balance shown.
    const owed = Object.values(data.financial.receivables.aging as Record<string, string>).reduce(
      (sum, amount) => sum + Math.round(Number(amount) * 100),
      0,
    );
    expect(owed - Math.round(Number(data.financial.receivables.onAccount) * 100)).toBe(18620);
    expect(data.financial.receivables.debtors).toEqual([
      { customerId: expect.any(String), name: expect.any(String), balance: '186.20' },
    ]);
    // What the clinic owes its providers in all (121 + 242 + 363), beside what is overdue or due this week.
    expect(data.financial.payables).toEqual({
      balance: '726.00',
      onAccount: '0.00',
      overdue: '121.00',
      dueThisWeek: '242.00',
      weekEnds: '2026-11-21',
      settlementsPending: '0.00',
      settlementsPendingCount: 0,
    });
    expect(data.financial.topTreatments).toEqual(
      [
        { treatmentId: extraccion, code: 'EXTR', name: 'Extracción', count: 1, amount: '50.00' },
        { treatmentId: limpieza, code: 'LIMP', name: 'Limpieza', count: 0, amount: '60.00' },
      ].sort((a, b) => Number(b.amount) - Number(a.amount)),
    );
    expect(data.clinical.attendances).toEqual({ current: 2, previous: 1, lastYear: 0 });
    expect(data.clinical.returningPatients).toBe(1);

    // New patients: registered on the clinic's day (the rows take the database's clock: today's).
    restoreClock();
    const realToday = clinicToday('America/Argentina/Buenos_Aires');
    const { start, end } = clinicDayRange('America/Argentina/Buenos_Aires', realToday);
    const { rows: registered } = await t.db.orm.execute<{ n: number }>(sql`
      select count(*)::int as n from patients where account_id = ${t.clinic.accountId}::uuid and deleted_at is null
        and created_at >= ${start.toISOString()}::timestamptz and created_at < ${end.toISOString()}::timestamptz`);
    const todays = (await t.call('GET', `/api/dashboard?from=${realToday}&to=${realToday}`)).json().data;
    expect(todays.clinical.newPatients.current).toBe(Number(registered[0]?.n));
    setClock('2026-11-15T15:00:00Z');

    // Folded or not, the same answer.
    await foldDayFigureChanges(t.db);
    const folded = await t.call('GET', '/api/dashboard');
    expect(folded.json().data).toEqual(data);
  });

  it('counts a patient as returning once attended before the period, as new again when that attendance is deleted', async () => {
    setClock('2026-11-15T15:00:00Z');
    const returning = async () =>
      (await t.call('GET', '/api/dashboard')).json().data.clinical.returningPatients as number;
    expect(await returning()).toBe(1);
    const newcomer = await t.newPatient();
    const attend = (date: string) => controlAttendance(t)(newcomer, date);
    const inPeriod = await attend('2026-11-13T10:00:00-03:00');
    expect(await returning()).toBe(1);
    // A visit entered late, in September: the patient had been seen before the period.
    const backdated = await attend('2026-09-01T10:00:00-03:00');
    expect(await returning()).toBe(2);
    const removed = await t.call('DELETE', `/api/patients/${newcomer}/attendances/${backdated.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await returning()).toBe(1);
    // The data set of the other tests as it was.
    await t.call('DELETE', `/api/patients/${newcomer}/attendances/${inPeriod.id}`);
  });

  it("keeps each patient's first and latest attendance; both ways of counting the patients attended agree", async () => {
    setClock('2026-11-15T15:00:00Z');
    const attend = controlAttendance(t);
    const kept = async (patientId: string) => {
      const { rows } = await t.db.orm.execute<{ first: number | null; last: number | null }>(sql`
        select (extract(epoch from first_attended_at) * 1000)::float8 as first,
          (extract(epoch from last_attended_at) * 1000)::float8 as last
        from patients where account_id = ${t.clinic.accountId}::uuid and id = ${patientId}::uuid`);
      const iso = (value: number | null | undefined) => (value == null ? null : new Date(Number(value)).toISOString());
      return { first: iso(rows[0]?.first), last: iso(rows[0]?.last) };
    };
    // Buenos Aires days (UTC−3) as instants: [from, to) of the clinic's days.
    const day = (date: string) => new Date(`${date}T03:00:00Z`);
    const windows: [Date, Date][] = [
      [day('2026-11-01'), day('2026-11-16')], // the dashboard's period (this month so far)
      [day('2026-10-01'), day('2026-11-01')],
      [day('2026-09-01'), day('2026-11-16')],
      [day('2026-11-13'), day('2026-11-14')],
      [day('2026-11-14'), day('2026-11-21')],
      [day('2025-01-01'), day('2027-01-01')],
    ];
    /** The patients attended in each window, counted both ways (which must agree). */
    const attended = async () => {
      const counts = await t.db.withTenant(t.clinic.accountId, async (tx) => {
        const ctx = { tx, accountId: t.clinic.accountId };
        const answers: number[] = [];
        for (const [start, end] of windows) {
          const byLatest = await patientsAttendedByLatest(ctx, start, end);
          expect(byLatest, `${start.toISOString()}–${end.toISOString()}`).toBe(
            await patientsAttendedByAttendances(ctx, start, end),
          );
          answers.push(byLatest);
        }
        return answers;
      });
      return counts;
    };
    const returning = async (query = '') =>
      (await t.call('GET', `/api/dashboard${query}`)).json().data.clinical.returningPatients as number;
    const before = await attended();
    const returningBefore = await returning();
    const returningInOctober = await returning('?from=2026-10-01&to=2026-10-31');
    const added = async () => (await attended()).map((count, index) => count - (before[index] as number));

    const patient = await t.newPatient();
    expect(await kept(patient)).toEqual({ first: null, last: null });
    const inPeriod = await attend(patient, '2026-11-13T10:00:00-03:00');
    expect(await kept(patient)).toEqual({ first: '2026-11-13T13:00:00.000Z', last: '2026-11-13T13:00:00.000Z' });
    expect(await added()).toEqual([1, 0, 1, 1, 0, 1]);
    // Entered late: the first moves earlier, the latest stays.
    await attend(patient, '2026-09-01T10:00:00-03:00');
    expect(await kept(patient)).toEqual({ first: '2026-09-01T13:00:00.000Z', last: '2026-11-13T13:00:00.000Z' });
    expect(await returning()).toBe(returningBefore + 1);
    // Dated ahead (after the period's end): the patient's only attendance in the period is no
    // longer their latest, and is found through the attendances of the patients seen since.
    const ahead = await attend(patient, '2026-11-20T10:00:00-03:00');
    expect(await kept(patient)).toEqual({ first: '2026-09-01T13:00:00.000Z', last: '2026-11-20T13:00:00.000Z' });
    expect(await added()).toEqual([1, 0, 1, 1, 1, 1]);
    expect(await returning()).toBe(returningBefore + 1);
    expect(await returning('?from=2026-10-01&to=2026-10-31')).toBe(returningInOctober);
    // Moved back into the period.
    const moved = await t.call('PUT', `/api/patients/${patient}/attendances/${ahead.id}`, {
      body: { ...controlAttendanceBody(t), date: '2026-11-14T10:00:00-03:00', version: ahead.version },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await kept(patient)).toEqual({ first: '2026-09-01T13:00:00.000Z', last: '2026-11-14T13:00:00.000Z' });
    expect(await added()).toEqual([1, 0, 1, 1, 1, 1]);
    // Deleted (soft): the latest falls back to the one before.
    const removed = await t.call('DELETE', `/api/patients/${patient}/attendances/${ahead.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await kept(patient)).toEqual({ first: '2026-09-01T13:00:00.000Z', last: '2026-11-13T13:00:00.000Z' });
    expect(await added()).toEqual([1, 0, 1, 1, 0, 1]);
    // Restored (no route does it yet: as the superuser), then deleted for good.
    await t.db.orm.execute(
      sql`update attendances set deleted_at = null, deleted_by = null where account_id = ${t.clinic.accountId}::uuid and id = ${ahead.id}::uuid`,
    );
    expect(await kept(patient)).toEqual({ first: '2026-09-01T13:00:00.000Z', last: '2026-11-14T13:00:00.000Z' });
    expect(await added()).toEqual([1, 0, 1, 1, 1, 1]);
    await t.db.orm.execute(
      sql`delete from attendances where account_id = ${t.clinic.accountId}::uuid and id = ${ahead.id}::uuid`,
    );
    expect(await kept(patient)).toEqual({ first: '2026-09-01T13:00:00.000Z', last: '2026-11-13T13:00:00.000Z' });

    // A deleted patient's attendances still count (as they do in the attendances' figure).
    const gone = await t.newPatient();
    const goneVisit = await attend(gone, '2026-11-11T10:00:00-03:00');
    expect((await t.call('DELETE', `/api/patients/${gone}`)).statusCode).toBe(200);
    expect(await kept(gone)).toEqual({ first: '2026-11-11T13:00:00.000Z', last: '2026-11-11T13:00:00.000Z' });
    expect(await added()).toEqual([2, 0, 2, 1, 0, 2]);
    // A patient whose only attendance is deleted was not attended.
    const none = await t.newPatient();
    const noneVisit = await attend(none, '2026-11-12T10:00:00-03:00');
    expect((await t.call('DELETE', `/api/patients/${none}/attendances/${noneVisit.id}`)).statusCode).toBe(200);
    expect(await kept(none)).toEqual({ first: null, last: null });
    expect(await added()).toEqual([2, 0, 2, 1, 0, 2]);

    // The data set of the other tests as it was: no attendance of these in the period.
    await t.db.orm.execute(
      sql`delete from attendances where account_id = ${t.clinic.accountId}::uuid and id = ${goneVisit.id}::uuid`,
    );
    expect(await kept(gone)).toEqual({ first: null, last: null });
    await t.call('DELETE', `/api/patients/${patient}/attendances/${inPeriod.id}`);
    expect(await kept(patient)).toEqual({ first: '2026-09-01T13:00:00.000Z', last: '2026-09-01T13:00:00.000Z' });
    expect(await added()).toEqual([0, 0, 1, 0, 0, 1]);
  });

  it('counts appointments kept, cancelled late and missed; the agenda of today per professional', async () => {
    setClock('2026-11-15T12:00:00Z');
    const before = (await t.call('GET', '/api/dashboard')).json().data.clinical.appointments;
    const book = appointmentBooker(t);
    await book('2026-11-15T16:00:00Z');
    await book('2026-11-15T17:00:00Z', { confirmedAt: new Date('2026-11-14T10:00:00Z') });
    await book('2026-11-15T18:00:00Z', { arrivedAt: new Date('2026-11-15T17:55:00Z') });
    await book('2026-11-15T13:00:00Z', cancelled('no_show', '2026-11-15T13:30:00Z'));
    await book('2026-11-15T14:00:00Z', cancelled('patient_request', '2026-11-15T11:00:00Z'));
    await book('2026-11-15T19:00:00Z', { status: 'completed' });
    // Tomorrow's is neither today's agenda nor the period's (it ends today).
    await book('2026-11-16T16:00:00Z');

    const { data } = (await t.call('GET', '/api/dashboard')).json();
    expect(data.agenda).toEqual([
      {
        professionalId: t.clinic.userId,
        professionalName: expect.any(String),
        total: 6,
        notConfirmed: 1,
        confirmed: 1,
        arrived: 1,
        completed: 1,
        cancelled: 2,
      },
    ]);
    const now = data.clinical.appointments;
    expect(now.total - before.total).toBe(6);
    expect(now.noShow - before.noShow).toBe(1);
    expect(now.lateCancelled - before.lateCancelled).toBe(1);
    expect(now.completed - before.completed).toBe(1);
    expect(now.noShowRate).toBeCloseTo(now.noShow / now.total, 4);
    expect(now.lateCancelRate).toBeCloseTo(now.lateCancelled / now.total, 4);
  });

  it('gives a level without reports.read no money and only its own agenda; refuses a bad period', async () => {
    setClock('2026-11-15T15:00:00Z');
    const asUser = await t.asLevel('user', () => t.call('GET', '/api/dashboard'));
    expect(asUser.statusCode, asUser.body).toBe(200);
    expect(asUser.json().data.financial).toBeNull();
    expect(asUser.json().data.clinical.attendances.current).toBe(2);

    const backwards = await t.call('GET', '/api/dashboard?from=2026-11-10&to=2026-11-01');
    expectFieldErrors(backwards, [expect.objectContaining({ path: 'querystring.to', code: 'end_before_start' })]);
    const long = await t.call('GET', '/api/dashboard?from=2024-01-01&to=2026-01-01');
    expect(long.statusCode).toBe(400);
    const absurd = await t.call('GET', '/api/dashboard?from=0000-13-45');
    expect(absurd.statusCode).toBe(400);

    // Another clinic sees none of it.
    const other = await t.newClinic();
    const theirs = await t.call('GET', '/api/dashboard', { token: other.token });
    expect(theirs.json().data.financial.production.current).toBe('0.00');
    expect(theirs.json().data.clinical.attendances.current).toBe(0);
  });

  it('computes the periods: previous of the same length, a year before with 29 February', () => {
    expect(periodsOf({ from: '2024-02-01', to: '2024-02-29' }, '2026-11-15')).toMatchObject({
      previousFrom: '2024-01-03',
      previousTo: '2024-01-31',
      lastYearFrom: '2023-02-01',
      lastYearTo: '2023-02-28',
    });
    expect(aYearBefore('2024-02-29')).toBe('2023-02-28');
  });
});
