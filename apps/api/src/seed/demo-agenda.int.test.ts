import { addDays, clinicDayRange, clinicToday } from '@odontia/shared/clinic-time';
import { describe, expect, it } from 'vitest';
import { useDemoClinic } from '../../test/demo-clinic.ts';
import { demoTimeZone } from './demo-time.ts';

describe('demo clinic agenda', () => {
  const { get } = useDemoClinic();

  it('has a week of appointments around today for three professionals, through the service (audited)', async () => {
    const today = clinicToday(demoTimeZone);
    const from = clinicDayRange(demoTimeZone, addDays(today, -7)).start.toISOString();
    const to = clinicDayRange(demoTimeZone, addDays(today, 7)).end.toISOString();
    const calendar = await get(`/api/appointments/calendar?from=${from}&to=${to}&inactive=true`);
    expect(calendar.statusCode, calendar.body).toBe(200);
    const rows = calendar.json().data as {
      id: string;
      status: string;
      professionalName: string;
      treatmentName: string | null;
      chairName: string | null;
      startsAt: string;
      cancelReason: string | null;
    }[];
    expect(rows.length).toBeGreaterThan(40);
    expect(new Set(rows.map((row) => row.professionalName))).toEqual(
      new Set(['Laura Gómez', 'Martín Sosa', 'Carla Díaz']),
    );
    const statuses = new Set(rows.map((row) => row.status));
    expect(statuses.has('scheduled')).toBe(true);
    expect(rows.some((row) => row.treatmentName === 'Endodoncia' && row.chairName)).toBe(true);
    const past = rows.filter((row) => Date.parse(row.startsAt) < clinicDayRange(demoTimeZone, today).start.getTime());
    if (past.length > 0) {
      expect(past.every((row) => row.status === 'completed' || row.cancelReason === 'no_show')).toBe(true);
      expect(past.some((row) => row.cancelReason === 'no_show')).toBe(true);
    }
    const changes = await get(`/api/appointments/${rows[0]?.id}/changes`);
    expect(changes.json().data.at(-1).action).toBe('appointment_created');
    const slots = await get('/api/appointments/free-slots?durationMinutes=45&limit=5');
    expect(slots.statusCode, slots.body).toBe(200);
    expect(slots.json().data.length).toBe(5);
  });
});
