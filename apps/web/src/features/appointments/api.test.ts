import { describe, expect, it } from 'vitest';
import { calendarPath, startAttendancePath } from './api';

describe('the agenda links', () => {
  it('opens the calendar day view with the booking dialog for a patient and a professional', () => {
    expect(calendarPath({ date: '2026-11-25', patientId: 'p-1', professionalId: 'u 2' })).toBe(
      '/calendar?date=2026-11-25&view=day&book=1&patientId=p-1&professionalId=u+2',
    );
  });

  it('leaves out what is not given, and the dialog when not booking', () => {
    expect(calendarPath({ date: '2026-11-25', patientId: null })).toBe('/calendar?date=2026-11-25&view=day&book=1');
    expect(calendarPath({ date: '2026-11-25', book: false })).toBe('/calendar?date=2026-11-25&view=day');
  });

  it('starts the attendance of an appointment on the patient’s new attendance screen', () => {
    expect(startAttendancePath({ id: 'a/1', patientId: 'p 1' })).toBe(
      '/patients/p%201/mh/attendance/new?appointmentId=a%2F1',
    );
  });
});
