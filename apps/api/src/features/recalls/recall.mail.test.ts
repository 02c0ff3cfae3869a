import { describe, expect, it } from 'vitest';
import { formatRecallDay, recallMail } from './recall.mail.ts';

describe('the recall e-mail', () => {
  const input = {
    language: 'es' as const,
    to: 'lucia@example.com',
    firstName: 'Lucía',
    sex: 'female',
    clinicName: 'Clínica <Sonrisa>',
    clinicPhone: '11 4000-1000',
    dueOn: '2027-02-28',
    reason: 'Limpieza semestral',
  };

  it('addresses the patient as usted, in their language, with the day, the reason and the phone', () => {
    const mail = recallMail(input);
    expect(mail.subject).toBe('Clínica <Sonrisa>: es momento de su control');
    expect(mail.text).toContain('Estimada Lucía:');
    expect(mail.text).toContain('le corresponde un control hacia el 28 de febrero de 2027');
    expect(mail.text).toContain('Motivo: Limpieza semestral');
    expect(mail.text).toContain('Teléfono de la clínica: 11 4000-1000');
    expect(mail.html).toContain('Clínica &#60;Sonrisa&#62;');
    expect(mail.html).not.toContain('<Sonrisa>');
    const english = recallMail({ ...input, language: 'en', sex: null, clinicPhone: null });
    expect(english.text).toContain('Dear Lucía,');
    expect(english.text).not.toContain("The clinic's phone");
  });

  it('prints a calendar day whatever the machine zone', () => {
    expect(formatRecallDay('2026-03-29', 'fr')).toBe('29 mars 2026');
    expect(formatRecallDay('2026-03-29', 'pt')).toBe('29 de março de 2026');
  });
});
