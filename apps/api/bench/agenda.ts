/**
 * `npm run bench -- agenda [--pglite] [--professionals N] [--appointments N] [--patients N] [--runs N] [--keep]`
 *
 * Seeds one clinic (Europe/Madrid, opening hours Monday to Friday 09:00–20:00) with 10
 * professionals, 5,000 patients and 200,000 appointments over three years (two and a half
 * past, half a year ahead; generated in SQL), then prints the server-side p50/p95 (the real
 * routes through app.inject: authentication, the transaction, validation, the answer) of:
 *   - loading a week view for all professionals (GET /api/appointments/calendar, any week);
 *   - the free-slots search (one professional, and all of them) over the next 14 days;
 *   - booking (POST /api/appointments: references, schedule check, exclusion constraints, audit,
 *     reminder plan).
 * Goal on PostgreSQL: week p95 < 30 ms, booking p95 < 20 ms.
 */
import { addDays, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import { appointmentsService } from '../src/features/appointments/appointments.service.ts';
import { inTransaction } from '../src/plugins/routes.ts';
import { bookingSlots, seedAgendaClinic } from './agenda-seed.ts';
import {
  benchCaller,
  benchOptions,
  benchTimer,
  report,
  runBench,
  seconds,
  vacuumAnalyze,
  withBenchApp,
  withBenchDatabase,
} from './bench-kit.ts';

const { options, sizes, runs } = benchOptions(200, { professionals: 10, appointments: 200_000, patients: 5_000 });
const zone = 'Europe/Madrid';

async function main() {
  await withBenchDatabase(
    options,
    (backend) =>
      `agenda bench on ${backend}: ${sizes.professionals} professionals, ${sizes.appointments.toLocaleString('en')} appointments over three years, ${sizes.patients.toLocaleString('en')} patients`,
    async (db) => {
      const { clinic, today, firstDay, lastDay, started } = await seedAgendaClinic(db, sizes, zone);
      const { accountId, userId } = clinic;
      await vacuumAnalyze(db, ['appointments', 'patients', 'users', 'schedules']);
      const [{ n } = { n: 0 }] = (
        await db.orm.execute<{ n: number }>(
          sql`select count(*)::int as n from appointments where account_id = ${accountId}`,
        )
      ).rows;
      console.log(
        `  ${sizes.professionals} professionals, opening hours and ${Number(n).toLocaleString('en')} appointments in ${seconds(started)}`,
      );

      await withBenchApp(db, clinic, async (app, headers) => {
        const call = benchCaller(app, headers, { idempotencyKeys: false });
        const time = benchTimer(runs);

        // A week view (Monday to Monday, wall-clock) for all professionals, any week of the three years.
        const weekOf = (run: number) => {
          const shift = (new Date(`${firstDay}T00:00:00Z`).getUTCDay() + 6) % 7;
          const monday = addDays(firstDay, 7 * ((run * 37) % 150) + 7 - shift);
          return {
            from: (instantOfClinicWallTime(`${monday}T00:00`, zone) as Date).toISOString(),
            to: (instantOfClinicWallTime(`${addDays(monday, 7)}T00:00`, zone) as Date).toISOString(),
          };
        };
        let rowsSeen = 0;
        let calls = 0;
        const actor = { accountId, userId, level: 'administrator' as const, timeZone: zone, ip: '127.0.0.1' };
        const weekService = await time(async (run) => {
          const rows = await inTransaction(db, actor, (ctx) =>
            appointmentsService.calendar({ ctx, query: weekOf(run) }),
          );
          rowsSeen += rows.length;
          calls += 1;
        });
        report(
          `week view, all ${sizes.professionals} professionals, the service call (~${Math.round(rowsSeen / calls)} appointments a week)`,
          weekService,
        );
        const week = await time(async (run) => {
          const { from, to } = weekOf(run);
          await call('GET', `/api/appointments/calendar?from=${from}&to=${to}`);
        });
        report(`week view, the whole request (answer validated and serialised as JSON)`, week);

        const professionals = (
          await db.orm.execute<{ id: string }>(sql`select id from users where account_id = ${accountId} order by id`)
        ).rows.map((row) => row.id);
        const nextWeek = (instantOfClinicWallTime(`${addDays(today, 1)}T00:00`, zone) as Date).toISOString();
        const oneSlots = await time(async (run) => {
          const professional = professionals[run % professionals.length];
          await call(
            'GET',
            `/api/appointments/free-slots?professionalId=${professional}&durationMinutes=30&from=${nextWeek}&days=14&limit=10`,
          );
        });
        report('free slots, one professional, next 14 days', oneSlots);
        const allSlots = await time(async () => {
          await call('GET', `/api/appointments/free-slots?durationMinutes=45&from=${nextWeek}&days=14&limit=10`);
        });
        report(`free slots, all ${sizes.professionals} professionals, next 14 days`, allSlots);

        // Booking: a free slot each time, after the generated half year, within opening hours.
        const patients = (
          await db.orm.execute<{ id: string }>(sql`select id from patients where account_id = ${accountId} limit 100`)
        ).rows.map((row) => row.id);
        const nextSlot = bookingSlots(lastDay, professionals, zone);
        const booking = await time(async (run) => {
          const { professionalId: professional, startsAt } = nextSlot(run);
          await call(
            'POST',
            '/api/appointments',
            {
              patientId: patients[run % patients.length],
              professionalId: professional,
              startsAt: startsAt.toISOString(),
              endsAt: new Date(startsAt.getTime() + 30 * 60_000).toISOString(),
              reason: 'Revisión',
            },
            201,
          );
        });
        report('booking (POST /api/appointments)', booking);
      });
    },
  );
}

runBench(main);
