import { describe, expect, it } from 'vitest';
import { backoffAfter } from '../jobs/jobs.worker.ts';
import { formatAppointmentTime, reminderMail } from './reminder.mail.ts';

const input = {
  to: 'marta@correo.test',
  firstName: 'Marta <b>',
  clinicName: 'Clínica "Río" & Co',
  clinicColor: null,
  clinicAddress: 'Calle Mayor 1, Madrid',
  clinicPhone: null,
  professionalName: 'Dra. Laura Gómez',
  // 09:30 UTC on 30 March 2026: 11:30 in Madrid (summer time since the 29th), 06:30 in Buenos Aires.
  startsAt: new Date('2026-03-30T09:30:00Z'),
  timeZone: 'Europe/Madrid',
  confirmLink: 'https://odontia.example.com/appointment/confirm/abc',
  cancelLink: 'https://odontia.example.com/appointment/cancel/def',
};

describe('the reminder mail', () => {
  it.each([
    ['es', 'Recordatorio de su cita', 'lunes, 30 de marzo de 2026', 'Confirmar mi cita'],
    ['en', 'Reminder of your appointment', '30 March 2026', 'Confirm my appointment'],
    ['fr', 'Rappel de votre rendez-vous', 'lundi 30 mars 2026', 'Confirmer mon rendez-vous'],
    ['pt', 'Lembrete da sua consulta', 'segunda-feira, 30 de março de 2026', 'Confirmar a minha consulta'],
  ] as const)('in %s: subject, the time in the clinic zone, both links', (language, subject, when, confirm) => {
    const mail = reminderMail({ ...input, language });
    expect(mail.subject).toContain(subject);
    expect(mail.text).toContain(when);
    expect(mail.text).toContain('11:30'); // Madrid, summer time (the ICU's joining words vary by version)
    expect(mail.text).toContain(`${confirm}: ${input.confirmLink}`);
    expect(mail.text).toContain(input.cancelLink);
    expect(mail.text).toContain('Calle Mayor 1, Madrid');
    expect(mail.html).toContain(`lang="${language}"`);
  });

  it('escapes the HTML and leaves out a missing phone', () => {
    const mail = reminderMail({ ...input, language: 'es' });
    expect(mail.html).toContain('Marta &#60;b&#62;');
    expect(mail.html).toContain('Clínica &#34;Río&#34; &#38; Co');
    expect(mail.html).not.toContain('<b>');
    expect(mail.text).not.toContain('Teléfono');
  });

  it("shows the clinic's band and its two links as buttons in the clinic's colour", () => {
    const mail = reminderMail({ ...input, language: 'es', clinicColor: '#0f766e' });
    expect(mail.html).toContain('background:#0f766e;color:#ffffff;padding:16px 24px');
    expect(mail.html).toContain(`<a href="${input.confirmLink}" style="`);
    expect(mail.html).toMatch(/href="[^"]+confirm\/abc"[^>]+background:#0f766e;color:#ffffff/);
    // The second one outlined, in the colour as text on white.
    expect(mail.html).toMatch(/href="[^"]+cancel\/def"[^>]+color:#0f766e;border:2px solid #0f766e/);
  });

  it('formats in the given zone, not the server one', () => {
    expect(formatAppointmentTime(input.startsAt, 'America/Argentina/Buenos_Aires', 'es')).toContain('6:30');
  });
});

describe('the backoff', () => {
  it('waits 1 min, 5 min, 30 min, 2 h, then 2 h', () => {
    expect([1, 2, 3, 4, 5, 9].map(backoffAfter)).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 7_200_000, 7_200_000]);
  });
});
