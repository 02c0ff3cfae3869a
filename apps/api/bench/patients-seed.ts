/**
 * The bench clinic's patients and their history (the `patients` and `http` benches): patients
 * with Argentine names, attendances spread over them with a few heavy patients first, and a long
 * list of diagnoses and laboratory orders for the heavy ones. Written in bulk (superuser
 * connection), then vacuumed and analysed as a running server's autovacuum would.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import { type BenchClinic, keepDayFigures, type SqlRunner, seconds, sqlArray, vacuumAnalyze } from './bench-kit.ts';

export interface PatientSeedSizes {
  patients: number;
  attendances: number;
  /** Attendances of each heavy patient. */
  heavy: number;
  /** How many heavy patients (P-000001…). */
  heavyPatients: number;
  /** The attendances spread evenly over these many days up to now (default: one an hour back). */
  spanDays?: number;
}

const firstNames = [
  'María',
  'José',
  'Lucía',
  'Juan',
  'Sofía',
  'Martín',
  'Valentina',
  'Mateo',
  'Camila',
  'Santiago',
  'Florencia',
  'Agustín',
  'Julieta',
  'Tomás',
  'Micaela',
  'Nicolás',
  'Carolina',
  'Facundo',
  'Ana',
  'Diego',
  'Paula',
  'Joaquín',
  'Victoria',
  'Ignacio',
  'Martina',
  'Gonzalo',
  'Rocío',
  'Federico',
  'Agustina',
  'Ramiro',
];
const lastNames = [
  'González',
  'Rodríguez',
  'Fernández',
  'López',
  'Martínez',
  'García',
  'Pérez',
  'Gómez',
  'Sánchez',
  'Romero',
  'Díaz',
  'Álvarez',
  'Torres',
  'Ruiz',
  'Ramírez',
  'Flores',
  'Acosta',
  'Benítez',
  'Medina',
  'Suárez',
  'Herrera',
  'Aguirre',
  'Giménez',
  'Gutiérrez',
  'Pereyra',
  'Molina',
  'Castro',
  'Ortiz',
  'Silva',
  'Núñez',
  'Luna',
  'Juárez',
  'Cabrera',
  'Ríos',
  'Ferreyra',
  'Godoy',
  'Morales',
  'Domínguez',
  'Moreno',
  'Peralta',
];
/** Search terms of the clinic's patients: 3-letter prefixes, fragments and two words, ID numbers. */
export const patientPrefixes = ['gon', 'rod', 'fer', 'mar', 'gar', 'per', 'alv', 'nun', 'sua', 'god'];
export const patientFragments = ['nzal', 'drigu', 'rnand', 'artin', 'errey', 'utier'];
export const patientTwoWords = ['gonz mar', 'perez luc', 'rod sofia', 'garcia juan'];
export const patientIdNumbers = ['20012345', '20054321', '20099999', '20000777', '2003456'];

const titles = ['Control', 'Limpieza', 'Extracción', 'Obturación', 'Endodoncia', 'Consulta', 'Urgencia', 'Radiografía'];
const types = ['checkup_control', 'dentistry', 'dental_surgery', 'medical_attendance', 'emergency_attendance'];
const groups = ['medical_attendance', 'specializations', 'surgery', 'medical_attendance', 'medical_attendance'];

/**
 * Patients from `source`, a FROM item with the columns `account_id`, `user_id` and `i` (the
 * patient's number in its clinic): Argentine names (a third with two last names), an e-mail, a
 * phone, an ID number 20000000 + i and P-00000i.
 */
export async function insertPatients(db: SqlRunner, source: SQL): Promise<void> {
  await db.execute(sql`
    insert into patients (account_id, id, sku_patient, first_name, last_name, email, phone_area, phone, sex, birthdate,
      ssn, active, city, created_by, updated_by)
    select account_id, uuid_generate_v7_bench(i), 'P-' || lpad(i::text, 6, '0'),
      (${sqlArray(firstNames)})[1 + i % ${firstNames.length}],
      (${sqlArray(lastNames)})[1 + (i / ${firstNames.length}) % ${lastNames.length}]
        || case when i % 3 = 0 then ' ' || (${sqlArray(lastNames)})[1 + (i / 7) % ${lastNames.length}] else '' end,
      'paciente' || i || '@correo.test', '+54', '11 4' || lpad((i % 1000)::text, 3, '0') || '-' || lpad((i % 10000)::text, 4, '0'),
      case when i % 2 = 0 then 'female' else 'male' end,
      date '1940-01-01' + (i % 30000),
      (20000000 + i)::text, i % 20 <> 0, 'Buenos Aires', user_id, user_id
    from ${source}`);
}

export async function seedPatients(db: Database, clinic: BenchClinic, sizes: PatientSeedSizes): Promise<void> {
  const { accountId, userId } = clinic;
  const { patients: patientCount, attendances: attendanceCount, heavy: heavyCount, heavyPatients } = sizes;
  let started = performance.now();
  // The triggers (the day figures' changes, one per row; each patient's first and latest
  // attendance) are off for the load: `keepDayFigures` sets them from the rows once at the end.
  await db.orm.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await insertPatients(
      tx,
      sql`(select ${accountId}::uuid as account_id, ${userId}::uuid as user_id, i from generate_series(1, ${patientCount}) as i) as source`,
    );
  });
  await db.orm.execute(sql`
    insert into account_counters (account_id, name, value) values (${accountId}, 'patient', ${patientCount})`);
  console.log(`  ${patientCount.toLocaleString('en')} patients in ${seconds(started)}`);

  started = performance.now();
  // The first patients (P-000001…) are the heavy ones; the rest share what is left evenly.
  const spread = attendanceCount - heavyPatients * heavyCount;
  const secondsApart = sizes.spanDays ? (sizes.spanDays * 86_400) / attendanceCount : 3600;
  await db.orm.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
    with numbered as (
      select id, row_number() over (order by sku_patient) as n from patients where account_id = ${accountId}::uuid
    ), wanted as (
      select g, case when g <= ${heavyPatients * heavyCount}::int then 1 + (g - 1) / ${heavyCount}::int
                     else ${heavyPatients + 1}::int + g % ${patientCount - heavyPatients}::int end as n
      from generate_series(1, ${heavyPatients * heavyCount + spread}::int) as g
    )
    insert into attendances (account_id, id, patient_id, date, attendance_type, attendance_group, professional_id,
      title_resume, resume, finished, billable, attendance_fee, total_billable, created_by, updated_by, created_at, updated_at)
    select ${accountId}::uuid, uuid_generate_v7_bench(w.g), p.id, now() - make_interval(secs => w.g * ${secondsApart}::double precision),
      (${sqlArray(types)})[1 + w.g % ${types.length}], (${sqlArray(groups)})[1 + w.g % ${groups.length}],
      ${userId}::uuid, (${sqlArray(titles)})[1 + w.g % ${titles.length}], 'Atención de rutina.',
      w.g % 3 <> 0, w.g % 2 = 0, 15000, 15000, ${userId}::uuid, ${userId}::uuid, now(), now()
    from wanted w join numbered p on p.n = w.n`);
  });
  console.log(`  ${attendanceCount.toLocaleString('en')} attendances in ${seconds(started)}`);

  started = performance.now();
  // The heavy patients also have a long list of diagnoses and laboratory orders.
  await db.orm.execute(sql`
    insert into diagnoses (account_id, id, patient_id, date, professional_id, text, status, created_by, updated_by)
    select ${accountId}::uuid, uuid_generate_v7_bench(10000000 + g * 10 + p.n), p.id, current_date - g, ${userId}::uuid,
      'Caries en pieza ' || (11 + g % 8), case when g % 4 = 0 then 'active' else 'resolved' end, ${userId}::uuid, ${userId}::uuid
    from generate_series(1, 300) as g
    cross join (select id, row_number() over (order by sku_patient) as n from patients
      where account_id = ${accountId}::uuid order by sku_patient limit ${heavyPatients}::int) p`);
  await db.orm.execute(sql`
    insert into laboratories (account_id, id, patient_id, order_date, professional_id, laboratory_name, studies, status,
      created_by, updated_by)
    select ${accountId}::uuid, uuid_generate_v7_bench(20000000 + g * 10 + p.n), p.id, current_date - g, ${userId}::uuid,
      'Laboratorio Central', array['hematology', 'blood_chemistry'], 'ordered', ${userId}::uuid, ${userId}::uuid
    from generate_series(1, 200) as g
    cross join (select id, row_number() over (order by sku_patient) as n from patients
      where account_id = ${accountId}::uuid order by sku_patient limit ${heavyPatients}::int) p`);
  // The rebuild reads each patient's attendances: without statistics of the fresh rows the planner
  // takes the clinic's whole attendance index per patient (minutes instead of a second).
  await db.orm.execute(sql`analyze patients, attendances`);
  await keepDayFigures(db.orm);
  await vacuumAnalyze(db, ['patients', 'attendances', 'diagnoses', 'laboratories']);
  console.log(`  diagnoses and laboratory orders of the heavy patients, vacuum analyze: ${seconds(started)}`);
}
