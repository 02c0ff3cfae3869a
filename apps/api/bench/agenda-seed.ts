/**
 * The bench clinic's agenda (the `agenda` and `dashboard` benches): `professionals` professionals
 * (the administrator and users), opening hours Monday to Friday 09:00–20:00, and `appointments`
 * appointments of the clinic's patients from two and a half years ago to half a year ahead, as many
 * 25-minute slots a day per professional (from 09:00) as the count needs; past ones completed, 1 in
 * 20 cancelled as a no-show (generated in SQL; the day figures are left to the caller).
 */
import { addDays, clinicToday, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { newId } from '../src/lib/ids.ts';
import { type BenchClinic, clinicRows, createBenchClinic, keepDayFigures, seconds } from './bench-kit.ts';
import { insertPatients } from './patients-seed.ts';

export const slotMinutes = 25;

export interface AgendaSeedSizes {
  professionals: number;
  appointments: number;
  /** The clinic's IANA time zone. */
  zone: string;
  /** The clinic's today. */
  today: string;
}

/** Answers the first and last day of the generated appointments. */
export async function seedAgenda(
  db: Database,
  clinic: BenchClinic,
  sizes: AgendaSeedSizes,
): Promise<{ firstDay: string; lastDay: string }> {
  const { accountId, userId } = clinic;
  const { professionals: professionalCount, appointments: appointmentCount, zone, today } = sizes;
  for (let index = 1; index < professionalCount; index += 1) {
    const id = newId();
    const email = `pro${index}.${accountId}@odontia.bench`;
    await db.orm.execute(sql`insert into logins (id, email) values (${id}, ${email})`);
    await db.orm.execute(sql`
      insert into users (account_id, id, login_id, complete_name, email, level, system_language, date_format, system_currency, active)
      values (${accountId}, ${id}, ${id}, ${`Profesional ${index + 1}`}, ${email}, 'user', 'es', 'DD/MM/YYYY', 'euro', true)`);
  }
  const ranges = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((weekday) => ({
    weekday,
    opening: '09:00',
    closing: '20:00',
    recessStart: null,
    recessEnd: null,
  }));
  await db.orm.execute(sql`insert into schedules (account_id, id, professional_id, ranges)
    values (${accountId}, ${newId()}, null, ${JSON.stringify(ranges)}::jsonb)`);
  const firstDay = addDays(today, -912);
  const lastDay = addDays(today, 183);
  // The triggers (the day figures' changes, one per row) are off for the load: the caller rebuilds
  // the figures from the rows once.
  await db.orm.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
    with days as (
      select d::date as day from generate_series(${firstDay}::date, ${lastDay}::date, interval '1 day') as d
      where extract(isodow from d) < 6
    ), pros as (
      select id from users where account_id = ${accountId}::uuid
    ), pats as (
      select array_agg(id) as ids from patients where account_id = ${accountId}::uuid
    ), per_day as (
      select ceil(${appointmentCount}::numeric / ((select count(*) from days) * (select count(*) from pros)))::int as n
    ), wanted as (
      select pros.id as professional_id, days.day, slot,
        row_number() over (order by days.day, slot, pros.id) as g
      from days cross join pros cross join per_day cross join generate_series(0, per_day.n - 1) as slot
    ), timed as (
      select w.*, ((w.day + time '09:00') at time zone ${zone}) + make_interval(mins => w.slot * ${slotMinutes}) as starts_at
      from wanted w where w.g <= ${appointmentCount}
    )
    insert into appointments (account_id, id, patient_id, professional_id, starts_at, ends_at, time_zone, status,
      cancel_reason, cancelled_at, reason, created_by, updated_by)
    select ${accountId}::uuid, uuid_generate_v7_bench(t.g), pats.ids[1 + t.g % cardinality(pats.ids)], t.professional_id,
      t.starts_at, t.starts_at + make_interval(mins => ${slotMinutes}), ${zone},
      case when t.starts_at >= now() then 'scheduled' when t.g % 20 = 0 then 'cancelled' else 'completed' end,
      case when t.starts_at < now() and t.g % 20 = 0 then 'no_show' end,
      case when t.starts_at < now() and t.g % 20 = 0 then t.starts_at end,
      'Revisión', ${userId}::uuid, ${userId}::uuid
    from timed t cross join pats`);
  });
  return { firstDay, lastDay };
}

/**
 * The agenda bench's clinic (the `agenda` and `portal` benches): a new clinic in `zone` with
 * `patients` patients and the agenda above, its day figures kept. `started` is when the agenda's
 * part began (the caller prints it once it has analysed the tables).
 */
export async function seedAgendaClinic(
  db: Database,
  sizes: { professionals: number; appointments: number; patients: number },
  zone: string,
) {
  const clinic = await createBenchClinic(db);
  await db.orm.execute(sql`update accounts set time_zone = ${zone} where id = ${clinic.accountId}`);
  const patientsStarted = performance.now();
  await insertPatients(db.orm, clinicRows(clinic, sizes.patients));
  await db.orm.execute(sql`
    insert into account_counters (account_id, name, value) values (${clinic.accountId}, 'patient', ${sizes.patients})`);
  console.log(`  ${sizes.patients.toLocaleString('en')} patients in ${seconds(patientsStarted)}`);
  const started = performance.now();
  const today = clinicToday(zone);
  const { firstDay, lastDay } = await seedAgenda(db, clinic, { ...sizes, zone, today });
  await keepDayFigures(db.orm);
  return { clinic, today, firstDay, lastDay, started };
}

/**
 * Free 30-minute starts for a booking bench, one per run: the first weekday a week after the
 * generated half year (a Saturday or Sunday is closed), each professional in turn, 20 a day from
 * 09:30, then the next weekday.
 */
export function bookingSlots(lastDay: string, professionals: string[], zone: string) {
  const weekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());
  let bookingDay = addDays(lastDay, 7);
  while (weekend(bookingDay)) bookingDay = addDays(bookingDay, 1);
  let slot = 0;
  return (run: number) => {
    const professionalId = professionals[run % professionals.length] as string;
    if (run % professionals.length === 0) slot += 1;
    if (slot >= 20) {
      slot = 0;
      do bookingDay = addDays(bookingDay, 1);
      while (weekend(bookingDay));
    }
    const start = instantOfClinicWallTime(`${bookingDay}T09:00`, zone) as Date;
    return { professionalId, startsAt: new Date(start.getTime() + slot * 30 * 60_000) };
  };
}
