import { contrastRatio, defaultBrandColor, nearBlack } from '@odontia/shared/brand-color';
import { describe, expect, it } from 'vitest';
import { authMail } from '../features/auth/auth.mail.ts';
import { bookedMail, heldMail } from '../features/online-booking/online-booking.mail.ts';
import { signingMail } from '../features/signing/signing.mail.ts';
import { escapeHtml, patientMailHtml, templateFiller } from './patient-mail.ts';

/** The band's and the main button's colours in a mail's HTML. */
function colours(html: string) {
  const band = /<td style="background:(#[0-9a-f]{6});color:(#[0-9a-f]{6});padding:16px 24px/.exec(html);
  const button = /<a href="[^"]*" style="[^"]*background:(#[0-9a-f]{6});color:(#[0-9a-f]{6});border/.exec(html);
  return { band: band?.slice(1), button: button?.slice(1) };
}

const booking = {
  language: 'es' as const,
  to: 'ana@correo.test',
  firstName: 'Ana',
  sex: 'female',
  clinicName: 'Clínica Sonrisa',
  clinicAddress: null,
  clinicPhone: null,
  treatmentName: 'Limpieza',
  professionalName: 'Dra. Gómez',
  startsAt: new Date('2026-12-01T13:30:00Z'),
  endsAt: new Date('2026-12-01T14:00:00Z'),
  timeZone: 'Europe/Madrid',
};

describe("the patients' mail frame", () => {
  it("puts the clinic's name on its colour, with white text where white reads", () => {
    const html = patientMailHtml({ language: 'es', clinicName: 'Clínica <Sonrisa>', clinicColor: '#0f766e' }, [
      { html: 'Hola' },
      { actions: [{ label: 'Entrar', url: 'https://x.test/a?b=1&c=2' }] },
    ]);
    expect(colours(html)).toEqual({ band: ['#0f766e', '#ffffff'], button: ['#0f766e', '#ffffff'] });
    expect(html).toContain('Clínica &#60;Sonrisa&#62;');
    expect(html).toContain('href="https://x.test/a?b=1&#38;c=2"');
    expect(html).toContain('<html lang="es">');
  });

  it('writes near-black on a light colour, and links on white in a darker shade of it', () => {
    const html = patientMailHtml({ language: 'en', clinicName: 'Clinic', clinicColor: '#ffd400' }, [
      {
        actions: [
          { label: 'Main', url: 'https://x.test/1' },
          { label: 'Other', url: 'https://x.test/2', secondary: true },
        ],
      },
    ]);
    expect(colours(html).band).toEqual(['#ffd400', nearBlack]);
    const outlined =
      /href="https:\/\/x.test\/2" style="[^"]*color:(#[0-9a-f]{6});border:2px solid/.exec(html)?.[1] ?? '';
    expect(outlined).not.toBe('#ffd400');
    expect(contrastRatio(outlined, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it("uses the product's blue for a clinic without a colour", () => {
    const html = patientMailHtml({ language: 'es', clinicName: 'C', clinicColor: null }, []);
    expect(colours(html).band).toEqual([defaultBrandColor, '#ffffff']);
  });

  it('fills placeholders escaped for HTML and says the inclusive words for the patient', () => {
    const fill = templateFiller({ name: 'Ana <b>' }, 'female');
    expect(fill('Estimado/a {name}:', true)).toBe('Estimada Ana &#60;b&#62;:');
    expect(fill('Estimado/a {name}:', false)).toBe('Estimada Ana <b>:');
    expect(escapeHtml(`"'&`)).toBe('&#34;&#39;&#38;');
  });

  it("frames every mail to a patient in the clinic's colour: booking, booking link, portal links, signing", () => {
    const mails = [
      bookedMail({ ...booking, clinicColor: '#0f766e', appointmentId: 'a', version: 1 }),
      heldMail({ ...booking, clinicColor: '#0f766e', link: 'https://x.test/booking', expiresAt: booking.startsAt }),
      signingMail({
        ...booking,
        clinicColor: '#0f766e',
        title: 'Presupuesto',
        expiresAt: booking.startsAt,
        link: 'https://x.test/sign',
      }),
      ...(['portal_invitation', 'portal_link'] as const).map((kind) =>
        authMail({
          kind,
          language: 'es',
          to: 'ana@correo.test',
          name: 'Ana',
          clinicName: 'Clínica Sonrisa',
          clinicColor: '#0f766e',
          link: 'https://x.test/p',
        }),
      ),
    ];
    for (const mail of mails) {
      expect(colours(mail.html).band, mail.subject).toEqual(['#0f766e', '#ffffff']);
      expect(mail.html, mail.subject).toContain('— Clínica Sonrisa');
    }
    // The booking link and the others have their button; the confirmation has none.
    for (const mail of mails.slice(1)) expect(colours(mail.html).button, mail.subject).toEqual(['#0f766e', '#ffffff']);
    expect(colours(mails[0]?.html ?? '').button).toBeUndefined();
  });

  it("leaves the staff's session mails as Odontia's", () => {
    const mail = authMail({
      kind: 'reset',
      language: 'es',
      to: 'staff@correo.test',
      name: 'Laura',
      clinicName: 'Clínica Sonrisa',
      link: 'https://x.test/r',
    });
    expect(mail.html).toContain('— Odontia');
    expect(colours(mail.html).band).toBeUndefined();
  });
});
