import { laboratoryStudies, languages } from '@odontia/shared/enums';
import { describe, expect, it } from 'vitest';
import { expectContent } from '../../../test/pdf-text.ts';
import { laboratoryOrderTexts } from './laboratory-order.labels.ts';
import { laboratoryOrderDocument } from './laboratory-order.pdf.ts';

describe('laboratory order document', () => {
  it('names every study in every language', () => {
    for (const language of languages) {
      for (const study of laboratoryStudies) expect(laboratoryOrderTexts[language].studyNames[study]).toBeTruthy();
    }
  });

  it('shows the clinic, the patient, the professional, the studies in the language and a signature line', () => {
    const document = laboratoryOrderDocument({
      language: 'es',
      clinicName: 'Clínica Sonrisas',
      clinicContact: '+54 11 4444-5555',
      patientName: 'Mónica Ibáñez',
      patientSsn: '28.111.222',
      patientAge: 41,
      professionalName: 'Dra. Ana Pérez',
      orderDate: '2026-03-10',
      laboratoryName: 'Laboratorio Central',
      studies: ['blood_count', 'x_ray'],
      instructions: 'Ayuno de 8 horas',
    });
    const _text = expectContent(document, [
      'Clínica Sonrisas',
      'Orden de laboratorio',
      'Mónica Ibáñez',
      '28.111.222',
      '41 años',
      '10 mar 2026',
      'Dra. Ana Pérez',
      'Hemograma completo',
      'Radiografía',
      'Ayuno de 8 horas',
      'Firma y sello del profesional',
    ]);
  });
});
