import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { prescriptionDocument } from '../features/prescriptions/prescription.pdf.ts';
import { type ClinicPrintHeader, clinicHeader, clinicHeaderLines, renderPdf } from './pdf.ts';

const clinic: ClinicPrintHeader = {
  name: 'Clínica Sonrisas',
  legalName: 'Sonrisas del Sur S.R.L.',
  taxIdKind: 'cuit',
  taxId: '20123456786',
  fiscalCondition: 'ar_responsable_inscripto',
  address: 'Av. Corrientes 1234',
  city: 'Buenos Aires',
  phone: '+54 11 4444-5555',
  email: 'admin@sonrisas.test',
  contact: '+54 11 0000-0000',
  logo: null,
};

describe("the clinic's printed header", () => {
  it('shows the legal name, the formatted tax id with its kind and the condition in the language, address and contact', () => {
    expect(clinicHeaderLines(clinic, 'es')).toEqual([
      'Sonrisas del Sur S.R.L.',
      'CUIT 20-12345678-6 · IVA Responsable Inscripto',
      'Av. Corrientes 1234, Buenos Aires',
      '+54 11 4444-5555 · admin@sonrisas.test',
    ]);
    expect(clinicHeaderLines(clinic, 'en')[1]).toBe('CUIT 20-12345678-6 · VAT registered (Responsable Inscripto)');
    expect(
      clinicHeaderLines({ ...clinic, taxIdKind: 'nif', taxId: '12345678Z', fiscalCondition: 'es_exento' }, 'fr')[1],
    ).toBe('NIF 12345678Z · Exonéré de TVA (soins de santé)');
  });

  it('without fiscal data prints the name and the sign-up contact; the legal name once when it is the name', () => {
    const bare = {
      ...clinic,
      legalName: 'Clínica Sonrisas',
      taxId: null,
      fiscalCondition: null,
      address: null,
      city: null,
      phone: null,
      email: null,
    };
    expect(clinicHeaderLines(bare, 'es')).toEqual(['+54 11 0000-0000']);
    expect(JSON.stringify(clinicHeader({ clinicName: 'Otra', clinicContact: '123' }))).toContain('Otra');
  });

  it('renders a document with the logo as an image', async () => {
    const png = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#1d4ed8' } })
      .png()
      .toBuffer();
    const pdf = await renderPdf(
      prescriptionDocument({
        language: 'es',
        clinicName: 'Clínica',
        clinicContact: '',
        clinic: { ...clinic, logo: `data:image/png;base64,${png.toString('base64')}` },
        patientName: 'Mónica Ibáñez',
        patientSsn: null,
        patientAge: 41,
        date: '2026-03-10',
        diagnosis: null,
        professionalName: 'Dra. Ana Pérez',
        professionalLicense: null,
        professionalSpecialty: null,
        verificationCode: 'RX-7KQ2-M9PD',
        lines: [
          { medicine: 'Ibuprofeno', dose: null, frequency: null, duration: null, quantity: null, instructions: null },
        ],
      }),
    );
    expect(pdf.includes(Buffer.from('/Subtype /Image'))).toBe(true);
    if (process.env.PDF_OUT) (await import('node:fs')).writeFileSync(process.env.PDF_OUT, pdf);
  });
});
