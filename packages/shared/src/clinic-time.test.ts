import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addDays,
  clinicDayRange,
  clinicToday,
  clinicWallTime,
  instantOfClinicWallTime,
  isTimeZone,
  latestDayOnEarth,
  yearsOld,
} from './clinic-time.ts';

/**
 * The clinic's "today" at instants on both sides of the hours where UTC's date and a far zone's
 * differ (00:30, 09:59, 10:01, 23:59 UTC), and around daylight-saving changes, for zones east and
 * west of UTC. Nothing here reads the real clock, so the answers do not depend on when CI runs;
 * and all of it runs again with the machine in other zones (the browser's zone is not the clinic's).
 */

const machineZones = ['UTC', 'Europe/Madrid', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];

const day = '2026-11-24';
const instants = {
  '00:30': new Date(`${day}T00:30:00Z`),
  '09:59': new Date(`${day}T09:59:00Z`),
  '10:01': new Date(`${day}T10:01:00Z`),
  '23:59': new Date(`${day}T23:59:00Z`),
};

/** The expected clinic date per zone at each instant (UTC+14, UTC−11, UTC+1, UTC−3). */
const expected: Record<string, Record<keyof typeof instants, string>> = {
  'Pacific/Kiritimati': { '00:30': '2026-11-24', '09:59': '2026-11-24', '10:01': '2026-11-25', '23:59': '2026-11-25' },
  'Pacific/Pago_Pago': { '00:30': '2026-11-23', '09:59': '2026-11-23', '10:01': '2026-11-23', '23:59': '2026-11-24' },
  'Europe/Madrid': { '00:30': '2026-11-24', '09:59': '2026-11-24', '10:01': '2026-11-24', '23:59': '2026-11-25' },
  'America/Argentina/Buenos_Aires': {
    '00:30': '2026-11-23',
    '09:59': '2026-11-24',
    '10:01': '2026-11-24',
    '23:59': '2026-11-24',
  },
};

describe.each(machineZones)('on a machine in %s', (machineZone) => {
  // Node reads TZ again whenever it changes: the rest of the file runs with the machine in that zone.
  beforeAll(() => {
    vi.stubEnv('TZ', machineZone);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('runs with the machine in that zone', () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(machineZone);
  });

  describe('clinicToday', () => {
    for (const [zone, byInstant] of Object.entries(expected)) {
      for (const [label, at] of Object.entries(instants)) {
        it(`${zone} at ${label} UTC is ${byInstant[label as keyof typeof instants]}`, () => {
          expect(clinicToday(zone, at)).toBe(byInstant[label as keyof typeof instants]);
        });
      }
    }

    describe('with the clock set (the default instant is now)', () => {
      afterEach(() => vi.useRealTimers());
      it('reads the current instant', () => {
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(instants['10:01']);
        expect(clinicToday('Pacific/Kiritimati')).toBe('2026-11-25');
        expect(clinicToday('UTC')).toBe('2026-11-24');
        expect(latestDayOnEarth()).toBe('2026-11-25');
      });
    });

    it('changes day at the clinic midnight across a daylight-saving change (Madrid, 28 March 2027)', () => {
      // 27 March is still winter time (UTC+1): the 28th starts at 23:00 UTC.
      expect(clinicToday('Europe/Madrid', new Date('2027-03-27T22:59:00Z'))).toBe('2027-03-27');
      expect(clinicToday('Europe/Madrid', new Date('2027-03-27T23:00:00Z'))).toBe('2027-03-28');
      // The 29th starts at 22:00 UTC (summer time, UTC+2).
      expect(clinicToday('Europe/Madrid', new Date('2027-03-28T21:59:00Z'))).toBe('2027-03-28');
      expect(clinicToday('Europe/Madrid', new Date('2027-03-28T22:00:00Z'))).toBe('2027-03-29');
    });
  });

  describe('latestDayOnEarth', () => {
    it('is Kiritimati’s date: never behind any clinic', () => {
      for (const at of Object.values(instants)) {
        for (const zone of Object.keys(expected)) expect(latestDayOnEarth(at) >= clinicToday(zone, at)).toBe(true);
      }
    });
  });

  describe('clinicDayRange', () => {
    it('is 24 h on an ordinary day, from the clinic midnight', () => {
      const { start, end } = clinicDayRange('America/Argentina/Buenos_Aires', '2026-11-24');
      expect(start.toISOString()).toBe('2026-11-24T03:00:00.000Z');
      expect(end.toISOString()).toBe('2026-11-25T03:00:00.000Z');
    });

    it('is 23 h when the clocks go forward and 25 h when they go back (Madrid)', () => {
      const spring = clinicDayRange('Europe/Madrid', '2027-03-28');
      expect(spring.start.toISOString()).toBe('2027-03-27T23:00:00.000Z');
      expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * 3_600_000);
      const autumn = clinicDayRange('Europe/Madrid', '2026-10-25');
      expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * 3_600_000);
    });

    it('starts at 01:00 when midnight does not exist (Santiago, 6 September 2026)', () => {
      const { start, end } = clinicDayRange('America/Santiago', '2026-09-06');
      expect(clinicWallTime(start, 'America/Santiago')).toBe('2026-09-06T01:00');
      expect(end.getTime() - start.getTime()).toBe(23 * 3_600_000);
    });

    it('holds the instants on both sides of the zone’s date line (Kiritimati, Pago Pago)', () => {
      const at = instants['10:01'];
      for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        const { start, end } = clinicDayRange(zone, clinicToday(zone, at));
        expect(start.getTime() <= at.getTime() && at.getTime() < end.getTime()).toBe(true);
      }
    });
  });

  describe('clinic wall-clock times', () => {
    it('keeps 10:00 at 10:00 across a daylight-saving change (the UTC instant moves)', () => {
      const before = instantOfClinicWallTime('2027-03-27T10:00', 'Europe/Madrid');
      const after = instantOfClinicWallTime('2027-03-29T10:00', 'Europe/Madrid');
      expect(before?.toISOString()).toBe('2027-03-27T09:00:00.000Z');
      expect(after?.toISOString()).toBe('2027-03-29T08:00:00.000Z');
      expect(clinicWallTime(after as Date, 'Europe/Madrid')).toBe('2027-03-29T10:00');
    });

    it('moves a time the clocks skip forward by the gap, and reads a repeated one as its first occurrence', () => {
      expect(instantOfClinicWallTime('2027-03-28T02:30', 'Europe/Madrid')?.toISOString()).toBe(
        '2027-03-28T01:30:00.000Z',
      );
      expect(instantOfClinicWallTime('2026-10-25T02:30', 'Europe/Madrid')?.toISOString()).toBe(
        '2026-10-25T00:30:00.000Z',
      );
    });

    it('round-trips in zones on both sides of UTC', () => {
      for (const zone of Object.keys(expected)) {
        const instant = instantOfClinicWallTime('2026-11-24T09:45', zone) as Date;
        expect(clinicWallTime(instant, zone)).toBe('2026-11-24T09:45');
      }
    });

    it('refuses what is not a wall-clock time', () => {
      for (const text of [
        '',
        '2026-02-31T10:00',
        '2026-13-01T10:00',
        '2026-11-24T24:00',
        '2026-11-24 10:00',
        'mañana',
      ]) {
        expect(instantOfClinicWallTime(text, 'Europe/Madrid')).toBeNull();
      }
    });
  });

  describe('yearsOld', () => {
    it('counts a birthday on the day, not the day before', () => {
      expect(yearsOld('1996-11-25', '2026-11-25')).toBe(30);
      expect(yearsOld('1996-11-26', '2026-11-25')).toBe(29);
      expect(yearsOld('2026-11-25', '2026-11-25')).toBe(0);
    });

    it('makes one born on 29 February a year older on 1 March of a common year', () => {
      expect(yearsOld('2000-02-29', '2027-02-28')).toBe(26);
      expect(yearsOld('2000-02-29', '2027-03-01')).toBe(27);
      expect(yearsOld('2000-02-29', '2028-02-29')).toBe(28);
    });

    it('is null for a birthdate after the day or not a date', () => {
      expect(yearsOld('2026-11-26', '2026-11-25')).toBeNull();
      expect(yearsOld('26/11/2026', '2026-11-25')).toBeNull();
    });
  });

  describe('calendar helpers', () => {
    it('adds days across months and years', () => {
      expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
      expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    });

    it('knows an IANA zone from a made-up one', () => {
      expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
      expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    });
  });
});
