import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreClock, setClock } from './clock.ts';
import { expectAnswer, useTestClinic } from './test-clinic.ts';
import { availableBackends } from './test-database.ts';

/**
 * "Today" is the clinic's date in the clinic's time zone (issue 23), whatever the hour of the
 * run: each case sets the clock to an instant where UTC's date and a far zone's differ (00:30,
 * 09:59, 10:01 and 23:59 UTC) or around a daylight-saving change, for clinics east and west of
 * UTC, and checks every "today" the API has: a birthdate not in the future, the age, the
 * profile's zone and the dated file names.
 */

interface Case {
  at: string;
  zone: string;
  /** The clinic's date at that instant, written out by hand (not computed by the code under test). */
  today: string;
  tomorrow: string;
}

const cases: Case[] = [
  { at: '2026-11-24T00:30:00Z', zone: 'Pacific/Kiritimati', today: '2026-11-24', tomorrow: '2026-11-25' },
  { at: '2026-11-24T09:59:00Z', zone: 'Pacific/Kiritimati', today: '2026-11-24', tomorrow: '2026-11-25' },
  { at: '2026-11-24T10:01:00Z', zone: 'Pacific/Kiritimati', today: '2026-11-25', tomorrow: '2026-11-26' },
  { at: '2026-11-24T23:59:00Z', zone: 'Pacific/Kiritimati', today: '2026-11-25', tomorrow: '2026-11-26' },
  { at: '2026-11-24T00:30:00Z', zone: 'Pacific/Pago_Pago', today: '2026-11-23', tomorrow: '2026-11-24' },
  { at: '2026-11-24T10:01:00Z', zone: 'Pacific/Pago_Pago', today: '2026-11-23', tomorrow: '2026-11-24' },
  { at: '2026-11-24T23:59:00Z', zone: 'Pacific/Pago_Pago', today: '2026-11-24', tomorrow: '2026-11-25' },
  { at: '2026-11-24T09:59:00Z', zone: 'Europe/Madrid', today: '2026-11-24', tomorrow: '2026-11-25' },
  { at: '2026-11-24T23:59:00Z', zone: 'Europe/Madrid', today: '2026-11-25', tomorrow: '2026-11-26' },
  { at: '2026-11-24T00:30:00Z', zone: 'America/Argentina/Buenos_Aires', today: '2026-11-23', tomorrow: '2026-11-24' },
  { at: '2026-11-24T23:59:00Z', zone: 'America/Argentina/Buenos_Aires', today: '2026-11-24', tomorrow: '2026-11-25' },
  // Madrid's clocks go forward at 01:00 UTC on 28 March 2027: the 28th starts at 23:00 UTC on the
  // 27th (winter time), the 29th at 22:00 UTC on the 28th (summer time).
  { at: '2027-03-27T22:59:00Z', zone: 'Europe/Madrid', today: '2027-03-27', tomorrow: '2027-03-28' },
  { at: '2027-03-27T23:00:00Z', zone: 'Europe/Madrid', today: '2027-03-28', tomorrow: '2027-03-29' },
  { at: '2027-03-28T22:00:00Z', zone: 'Europe/Madrid', today: '2027-03-29', tomorrow: '2027-03-30' },
  // Santiago's clocks go forward at midnight (04:00 UTC) on 6 September 2026.
  { at: '2026-09-06T03:59:00Z', zone: 'America/Santiago', today: '2026-09-05', tomorrow: '2026-09-06' },
  { at: '2026-09-06T04:00:00Z', zone: 'America/Santiago', today: '2026-09-06', tomorrow: '2026-09-07' },
];

const yearsBefore = (day: string, years: number) => `${Number(day.slice(0, 4)) - years}${day.slice(4)}`;

describe.each(availableBackends())('the clinic’s today on %s', (backend) => {
  const t = useTestClinic(backend, { clinics: false });
  afterEach(() => restoreClock());

  it.each(cases)('at $at in $zone, today is $today', async ({ at, zone, today, tomorrow }) => {
    setClock(at);
    const clinic = await t.newClinic();
    await t.db.orm.execute(sql`update accounts set time_zone = ${zone} where id = ${clinic.accountId}`);
    const call = (method: 'GET' | 'POST', url: string, body?: object) =>
      t.call(method, url, { token: clinic.token, body });
    const patient = (birthdate: string) => ({ firstName: 'Bebé', lastName: 'Recién', sex: 'female', birthdate });

    const me = await call('GET', '/api/auth/system/me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().data.account.timeZone).toBe(zone);

    // Born today in the clinic: accepted, 0 years old. Born tomorrow: refused on the field.
    const newborn = await call('POST', '/api/patients', patient(today));
    expect(newborn.statusCode, newborn.body).toBe(201);
    expect(newborn.json().data.age).toBe(0);
    const unborn = await call('POST', '/api/patients', patient(tomorrow));
    expectAnswer(unborn, 400, {
      code: 'validation_error',
      details: { fields: [{ path: 'birthdate', code: 'date_in_future' }] },
    });
    // An edit to a birthdate after the clinic's today is refused too, and changes nothing.
    const edited = await call('GET', `/api/patients/${newborn.json().data.id}`);
    const put = await t.call('PUT', `/api/patients/${newborn.json().data.id}`, {
      token: clinic.token,
      body: { ...patient(tomorrow), version: edited.json().data.version },
    });
    expect(put.statusCode, put.body).toBe(400);

    // A birthday today counts; tomorrow's not yet (the list answers the same ages).
    const thirty = await call('POST', '/api/patients', patient(yearsBefore(today, 30)));
    const almost = await call('POST', '/api/patients', patient(yearsBefore(tomorrow, 30)));
    expect(thirty.json().data.age).toBe(30);
    expect(almost.json().data.age).toBe(29);
    const list = await call('GET', '/api/patients?pageSize=10&sort=birthdate');
    expect(list.json().data.map((row: { age: number }) => row.age)).toEqual([30, 29, 0]);

    // Files named with "today" carry the clinic's date.
    const exported = await call('GET', '/api/medications/export');
    expect(exported.headers['content-disposition']).toBe(`attachment; filename="farmacias-${today}.csv"`);
  });

  it('keeps a session usable at any instant: sessions and links follow the application’s clock', async () => {
    setClock('2031-01-01T09:00:00Z');
    const clinic = await t.newClinic();
    const me = await t.call('GET', '/api/auth/system/me', { token: clinic.token });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().data.locked).toBe(false);
  });
});
