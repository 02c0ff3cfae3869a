import {
  appointmentStatuses,
  diagnosisStatuses,
  paymentMethods,
  toothStatuses,
  toothZones,
} from '@odontia/shared/enums';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/pdf-text.ts';
import { renderPdf } from '../../lib/pdf.ts';
import type { PatientRecord } from '../fhir/fhir.repository.ts';
import { moneyCsv, summaryDocument } from './access-summary.ts';

/**
 * The right of access's PDF summary and money CSV (issue 42) speak the clinic's language: no
 * state is printed as its code (`completed`, `cancelled`, `root_canal`, `credit_card`…). A record
 * with every appointment, diagnosis and tooth state, every zone and every payment method is
 * rendered in Spanish and read back with pdftotext.
 */

const at = (day: number) => new Date(Date.UTC(2026, 2, day, 13, 0));

function recordWithEveryState(): PatientRecord {
  const record = {
    patient: {
      firstName: 'Mónica',
      lastName: 'Ibáñez',
      ssn: '30111222',
      birthdate: '1985-04-12',
      skuPatient: 'P-0001',
      medicalHistory: null,
      email: 'monica@correo.test',
      phoneArea: null,
      phone: '1155550000',
      street: null,
      complement: null,
      zipCode: null,
      city: 'Rosario',
      state: null,
      country: null,
      allergies: null,
      chronicConditions: null,
      currentMedication: null,
    },
    diagnoses: diagnosisStatuses.map((status, index) => ({
      id: `d${index}`,
      date: '2026-03-01',
      icd10Code: 'K02.1',
      text: `Diagnóstico ${index}`,
      teeth: [16],
      status,
    })),
    odontogram: toothStatuses.map((status, index) => ({
      id: `o${index}`,
      chartedAt: at(2),
      status,
      tooth: 11 + (index % 8),
      zone: toothZones[index % toothZones.length] ?? null,
    })),
    attendanceLines: [],
    perioExams: [],
    prescriptions: [],
    prescriptionLines: [],
    authorizations: [],
    appointments: appointmentStatuses.map((status, index) => ({
      id: `a${index}`,
      startsAt: at(10 + index),
      reason: index % 2 ? 'Control' : null,
      status,
    })),
    invoices: [
      {
        id: 'i1',
        documentType: 'invoice',
        pointOfService: '0001',
        documentNumber: '00000042',
        date: '2026-03-05',
        total: '15000.00',
        currency: 'argentine_peso',
      },
    ],
    collections: paymentMethods.map((method, index) => ({
      id: `c${index}`,
      number: `R-${index}`,
      date: '2026-03-06',
      amount: '1000.00',
      currency: 'argentine_peso',
      method,
      reversedAt: index === 0 ? at(7) : null,
    })),
  };
  return record as unknown as PatientRecord;
}

const context = {
  language: 'es' as const,
  timeZone: 'America/Argentina/Buenos_Aires',
  currency: 'argentine_peso' as const,
  clinic: { clinicName: 'Clínica Dental Sonrisa', clinicContact: '+54 11 0000-0000' },
  now: at(20),
};

/** Every code a summary might print, but those spelled as the Spanish word itself ("Caries", "Mesial"). */
const sameInSpanish = new Set(['caries', 'mesial', 'distal', 'lingual']);
const rawCodes = [
  ...appointmentStatuses,
  ...diagnosisStatuses,
  ...toothStatuses,
  ...toothZones,
  ...paymentMethods,
].filter((code) => !sameInSpanish.has(code));

describe('the right of access summary', () => {
  it('prints every state in Spanish, none as its code', async () => {
    const text = pdfText(await renderPdf(summaryDocument(recordWithEveryState(), context)));
    expect(text).toContain('Resumen de la historia clínica');
    for (const word of ['atendido', 'cancelado', 'reprogramado', 'programado', 'activo', 'resuelto']) {
      expect(text).toContain(word);
    }
    for (const word of ['Tratamiento de conducto', 'Resto radicular', 'Obturación', 'oclusal', 'vestibular']) {
      expect(text).toContain(word);
    }
    const found = rawCodes.filter((code) => new RegExp(`(^|[^\\p{L}_])${code}($|[^\\p{L}_])`, 'iu').test(text));
    expect(found).toEqual([]);
  });

  it('names the payment methods in the money CSV', () => {
    const csv = moneyCsv(recordWithEveryState(), context);
    expect(csv).toContain('Tarjeta de crédito');
    expect(csv).toContain('Efectivo');
    const found = paymentMethods.filter((code) => csv.includes(code));
    expect(found).toEqual([]);
  });
});
