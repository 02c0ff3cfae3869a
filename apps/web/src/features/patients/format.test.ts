import { describe, expect, it } from 'vitest';
import { ageFrom, hasClinicalAlerts, patientName, patientPhone } from './format';

describe('patient formatting', () => {
  it('computes whole years to the clinic’s today, the birthday counting from its own day', () => {
    const today = '2026-11-22';
    expect(ageFrom('1990-11-22', today)).toBe(36);
    expect(ageFrom('1990-11-23', today)).toBe(35);
    expect(ageFrom('2026-11-22', today)).toBe(0);
  });

  it('has no age for an incomplete, impossible or future date', () => {
    const today = '2026-11-22';
    expect(ageFrom('', today)).toBeNull();
    expect(ageFrom('1990-02-30', today)).toBeNull();
    expect(ageFrom('2027-01-01', today)).toBeNull();
  });

  it('writes the name surname first and the phone with its calling code', () => {
    expect(patientName({ firstName: 'María', lastName: 'González' })).toBe('González, María');
    expect(patientPhone({ phoneArea: '54', phone: '11 5555-1234' })).toBe('+54 11 5555-1234');
    expect(patientPhone({ phoneArea: '+54', phone: '11 5555-1234' })).toBe('+54 11 5555-1234');
    expect(patientPhone({ phoneArea: null, phone: '5555' })).toBe('5555');
    expect(patientPhone({ phoneArea: '+54', phone: null })).toBeNull();
  });

  it('sees clinical alerts only when one has text', () => {
    expect(hasClinicalAlerts({ allergies: ' ', chronicConditions: null, currentMedication: '' })).toBe(false);
    expect(hasClinicalAlerts({ allergies: null, chronicConditions: null, currentMedication: 'Enalapril' })).toBe(true);
  });
});
