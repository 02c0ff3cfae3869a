import { languages } from '@odontia/shared/enums';
import { verificationCodePattern } from '@odontia/shared/schemas/prescriptions';
import { describe, expect, it } from 'vitest';
import { prescriptionTexts } from './prescription.labels.ts';
import { prescriptionDocument } from './prescription.pdf.ts';
import { newVerificationCode } from './prescriptions.service.ts';

const data = {
  clinicName: 'Clínica Sonrisas',
  clinicContact: '+54 11 4444-5555',
  patientName: 'Mónica Ibáñez',
  patientSsn: '28.111.222',
  patientAge: 41,
  date: '2026-03-10',
  diagnosis: 'Pulpitis irreversible 36',
  professionalName: 'Dra. Ana Pérez',
  professionalLicense: 'MN 12345',
  professionalSpecialty: 'Endodoncista',
  verificationCode: 'RX-7KQ2-M9PD',
  lines: [
    {
      medicine: 'Amoxicilina 500 mg',
      dose: '1 comprimido',
      frequency: 'cada 8 horas',
      duration: '7 días',
      quantity: '21',
      instructions: 'Con comida',
    },
  ],
};

describe('prescription document', () => {
  it('has every text in every language', () => {
    for (const language of languages) {
      for (const value of Object.values(prescriptionTexts[language])) expect(value).toBeTruthy();
    }
  });

  it('shows the clinic, patient, diagnosis, medicines, professional with licence and specialty, signature and code', () => {
    const text = JSON.stringify(prescriptionDocument({ language: 'es', ...data }).content);
    for (const expected of [
      'Clínica Sonrisas',
      'Receta',
      'Mónica Ibáñez',
      '28.111.222',
      '41 años',
      '10 mar 2026',
      'Pulpitis irreversible 36',
      'Amoxicilina 500 mg',
      'Dosis: 1 comprimido · Frecuencia: cada 8 horas · Duración: 7 días · Cantidad: 21',
      'Indicaciones: Con comida',
      'Dra. Ana Pérez',
      'Matrícula MN 12345',
      'Endodoncista',
      'Firma y sello del profesional',
      'RX-7KQ2-M9PD',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("uses the patient's language", () => {
    const text = JSON.stringify(prescriptionDocument({ language: 'fr', ...data }).content);
    expect(text).toContain('Ordonnance');
    expect(text).toContain('Code de vérification');
    expect(text).not.toContain('Matrícula');
  });

  it('makes short unambiguous codes', () => {
    const codes = new Set(Array.from({ length: 500 }, newVerificationCode));
    expect(codes.size).toBe(500);
    for (const code of codes) expect(code).toMatch(verificationCodePattern);
  });
});
