import { instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { newId } from '../src/lib/ids.ts';
import type { TestClinicContext } from './test-clinic.ts';

/** A Madrid clinic open Mon–Fri 09:00–14:00 for online booking's tests (issue 37). */
export const bookingZone = 'Europe/Madrid';
export const wall = (text: string) => instantOfClinicWallTime(text, bookingZone) as Date;

export async function addStaff(t: TestClinicContext, completeName: string): Promise<string> {
  const id = newId();
  await t.db.orm.execute(sql`insert into logins (id, email) values (${id}, ${`${id}@correo.test`})`);
  await t.db.orm.execute(sql`
    insert into users (account_id, id, login_id, complete_name, email, level, system_language, date_format,
      system_currency, active)
    values (${t.clinic.accountId}, ${id}, ${id}, ${completeName}, ${`${id}@correo.test`}, 'user', 'es', 'DD/MM/YYYY', 'euro', true)`);
  return id;
}

export async function addTreatment(t: TestClinicContext, name: string, minutes: number): Promise<string> {
  const id = newId();
  await t.db.orm.execute(
    sql`insert into treatments (account_id, id, name, duration_minutes) values (${t.clinic.accountId}, ${id}, ${name}, ${minutes})`,
  );
  return id;
}

/** The clinic in Madrid with its opening hours (its kept day figures moved to the new zone). */
export async function openBookingClinic(t: TestClinicContext): Promise<void> {
  const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
  const openingHours = weekdays.map((weekday) => ({ weekday, opening: '09:00', closing: '14:00' }));
  await t.db.orm.execute(sql`update accounts set time_zone = ${bookingZone} where id = ${t.clinic.accountId}`);
  await t.db.orm.execute(sql`select odontia_rebuild_day_figures(${t.clinic.accountId}::uuid)`);
  await t.db.orm.execute(sql`delete from schedules where account_id = ${t.clinic.accountId}`);
  await t.db.orm.execute(sql`insert into schedules (account_id, id, professional_id, ranges)
    values (${t.clinic.accountId}, ${newId()}, null, ${JSON.stringify(openingHours)}::jsonb)`);
}

/** Saves online booking's rules through the settings route, over the current ones. */
export async function saveBookingRules(t: TestClinicContext, changes: Record<string, unknown>) {
  const current = (await t.call('GET', '/api/settings/online-booking')).json().data;
  const { treatments: _treatments, professionals: _professionals, ...rules } = current;
  const response = await t.call('PUT', '/api/settings/online-booking', { body: { ...rules, ...changes } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
