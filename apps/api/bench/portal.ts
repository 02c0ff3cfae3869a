/**
 * `npm run bench -- portal [--pglite] [--professionals N] [--appointments N] [--patients N] [--runs N] [--keep]`
 *
 * Online booking (issue 37) on the agenda bench's clinic (agenda-seed.ts: Europe/Madrid, open
 * Monday to Friday 09:00–20:00, 10 professionals, 200,000 appointments over three years, 5,000
 * patients), every professional and a 30-minute treatment offered online. Prints the p50/p95 of:
 *   - the free slots of the next 30 days for all professionals, through the public route
 *     (GET /api/public/clinics/:slug/free-slots: the clinic by its address, the rules, the pending
 *     holds, the agenda's own slot search, validation and the JSON answer);
 *   - the booking write (`bookOnline` in the clinic's transaction, as the portal's POST runs it:
 *     every rule re-checked, the slot still offered, the agenda's insert under its exclusion
 *     constraint, audit, reminder plan and the confirmation mail queued).
 * Goal on PostgreSQL: free slots p95 ≤ 50 ms, booking p95 ≤ 30 ms.
 */
import { addDays, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import { onlineBookingService } from '../src/features/online-booking/online-booking.service.ts';
import { newId } from '../src/lib/ids.ts';
import { bookingSlots, seedAgendaClinic } from './agenda-seed.ts';
import * as kit from './bench-kit.ts';

const { benchCaller, benchTimer, measureConditions, report, seconds, vacuumAnalyze, withBenchApp } = kit;

const { options, sizes, runs } = kit.benchOptions(200, { professionals: 10, appointments: 200_000, patients: 5_000 });
const zone = 'Europe/Madrid';

async function main() {
  await kit.withBenchDatabase(
    options,
    (backend) =>
      `portal bench on ${backend}: ${sizes.professionals} professionals, ${sizes.appointments.toLocaleString('en')} appointments over three years, ${sizes.patients.toLocaleString('en')} patients`,
    async (db) => {
      const seeded = await seedAgendaClinic(db, sizes, zone);
      const { clinic, today, lastDay } = seeded;
      const { accountId } = clinic;
      console.log(`  the agenda in ${seconds(seeded.started)}`);

      const started = performance.now();
      const treatmentId = newId();
      await db.orm.execute(sql`insert into treatments (account_id, id, name, duration_minutes, bookable_online)
        values (${accountId}, ${treatmentId}, 'Revisión', 30, true)`);
      const professionals = (
        await db.orm.execute<{ id: string }>(
          sql`select id from users where account_id = ${accountId} and level <> 'customer' order by id`,
        )
      ).rows.map((row) => row.id);
      // Every professional offered; no lead time, a horizon past the seeded half year, no pending limit to meet.
      await db.orm.execute(sql`update accounts set online_booking_enabled = true,
          online_booking_professional_ids = ${`{${professionals.join(',')}}`}::uuid[],
          online_booking_lead_hours = 0, online_booking_horizon_days = 365, online_booking_max_pending = 20
        where id = ${accountId}`);
      const [{ slug } = { slug: '' }] = (
        await db.orm.execute<{ slug: string }>(sql`select public_slug as slug from accounts where id = ${accountId}`)
      ).rows;
      await vacuumAnalyze(db, ['appointments', 'patients', 'users', 'schedules', 'treatments', 'accounts']);
      console.log(`  online booking's rules in ${seconds(started)}`);

      await withBenchApp(db, clinic, async (app, headers) => {
        const call = benchCaller(app, headers, { idempotencyKeys: false });
        const time = benchTimer(runs);
        const conditions = await measureConditions(db, ['appointments', 'online_booking_holds', 'jobs']);

        // Any day of the seeded half year ahead, for 30 days.
        const slots = await time(async (run) => {
          const day = addDays(today, 1 + (run % 120));
          const from = (instantOfClinicWallTime(`${day}T00:00`, zone) as Date).toISOString();
          await call(
            'GET',
            `/api/public/clinics/${slug}/free-slots?treatmentId=${treatmentId}&from=${encodeURIComponent(from)}&days=30&limit=50`,
          );
        });
        report(
          `free slots, all ${sizes.professionals} professionals, 30 days (GET /api/public/clinics/:slug/free-slots)`,
          slots,
          'requests',
          50,
        );

        // Booking: a free slot each time, after the generated half year, within opening hours.
        const patients = (
          await db.orm.execute<{ id: string }>(sql`select id from patients where account_id = ${accountId} limit 500`)
        ).rows.map((row) => row.id);
        const nextSlot = bookingSlots(lastDay, professionals, zone);
        const booking = await time(async (run) => {
          const { professionalId, startsAt } = nextSlot(run);
          await db.withTenant(accountId, (tx) =>
            onlineBookingService.bookOnline({
              ctx: { tx, accountId, userId: clinic.userId, ip: '127.0.0.1', timeZone: zone },
              patientId: patients[run % patients.length] as string,
              treatmentId,
              professionalId,
              start: startsAt,
            }),
          );
        });
        report(
          "booking write (bookOnline in the clinic's transaction, as POST /api/portal/bookings)",
          booking,
          'requests',
          30,
        );
        await conditions.print();
      });
    },
  );
}

kit.runBench(main);
