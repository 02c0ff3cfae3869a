import { languages } from '@odontia/shared/enums';
import {
  certificateCodePattern,
  certificateTemplates,
  fillCertificate,
  healthCertificateKinds,
  restDays,
} from '@odontia/shared/schemas/health-certificates';
import { describe, expect, it } from 'vitest';
import { renderPdf } from '../../lib/pdf.ts';
import { newVerificationCode } from '../prescriptions/prescriptions.service.ts';
import { certificateDocument, certificateTexts } from './certificate.pdf.ts';

const sampleCertificate = {
  clinicName: 'Clínica Sonrisas',
  clinicContact: '+54 11 4444-5555',
  patientName: 'Mónica Ibáñez',
  patientSsn: '28.111.222',
  patientAge: 41,
  kind: 'rest' as const,
  date: '2026-03-10',
  text: 'To whom it may concern:\n\nI certify that Mónica Ibáñez … must rest for 2 days.',
  professionalName: 'Dra. Ana Pérez',
  professionalLicense: 'MN 12345',
  professionalSpecialty: 'Endodoncista',
  verificationCode: 'CE-7KQ2-M9PD',
  voidedAt: null,
  voidReason: null,
};

describe('health certificate document', () => {
  it('has every text and every kind’s template in every language', () => {
    for (const language of languages) {
      for (const kind of healthCertificateKinds) {
        expect(certificateTexts[language].titles[kind]).toBeTruthy();
        expect(certificateTemplates[language][kind]).toContain('{{patient}}');
      }
    }
    expect(restDays('es', 1)).toBe('1 día');
    expect(restDays('pt', 3)).toBe('3 dias');
  });

  it('leaves unknown placeholders as written', () => {
    const values = Object.fromEntries(
      [
        'patient',
        'idNumber',
        'date',
        'time',
        'addressee',
        'from',
        'to',
        'days',
        'diagnosis',
        'activity',
        'professional',
        'clinic',
      ].map((name) => [name, name.toUpperCase()]),
    ) as Parameters<typeof fillCertificate>[1];
    expect(fillCertificate('{{ patient }} {{nope}}', values)).toBe('PATIENT {{nope}}');
  });

  it('prints the title of its kind, the text, the professional and the code; a voided one marked', async () => {
    const text = JSON.stringify(certificateDocument({ language: 'en', ...sampleCertificate }).content);
    for (const part of [
      'Medical certificate of rest',
      'must rest for 2 days',
      'Licence no. MN 12345',
      'CE-7KQ2-M9PD',
    ]) {
      expect(text).toContain(part);
    }
    const voided = certificateDocument({
      language: 'en',
      ...sampleCertificate,
      voidedAt: '2026-03-11T10:00:00Z',
      voidReason: 'Wrong dates',
    });
    expect(JSON.stringify(voided)).toContain('VOID: Wrong dates');
    expect((await renderPdf(voided)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('makes CE- codes of the prescriptions’ alphabet', () => {
    for (let index = 0; index < 200; index += 1) expect(newVerificationCode('CE')).toMatch(certificateCodePattern);
  });
});
