import { languages, toothStatuses, toothZones } from '@odontia/shared/enums';
import { describe, expect, it } from 'vitest';
import { expectContent } from '../../../test/pdf-text.ts';
import { odontogramTexts } from './odontogram.labels.ts';
import { odontogramDocument } from './odontogram.pdf.ts';

const data = {
  language: 'es' as const,
  clinicName: 'Clínica Sonrisas',
  clinicContact: '+54 11 4444-5555',
  patientName: 'Mónica Ibáñez',
  patientSsn: '28.111.222',
  skuPatient: 'P-000042',
  chartAtText: '10/3/26, 09:00',
  printedAtText: '11/3/26, 10:00',
  teeth: [
    { tooth: 11, piece: { status: 'crown' as const, entryId: 'a', chartedAt: '' }, zones: {} },
    { tooth: 36, piece: null, zones: { occlusal: { status: 'caries' as const, entryId: 'b', chartedAt: '' } } },
  ],
  primary: true,
};

describe('odontogram document', () => {
  it('names every status and zone in every language', () => {
    for (const language of languages) {
      for (const status of toothStatuses) expect(odontogramTexts[language].statusNames[status]).toBeTruthy();
      for (const zone of toothZones) expect(odontogramTexts[language].zoneNames[zone]).toBeTruthy();
    }
  });

  it('shows the clinic, the patient, the date, the state by tooth and the legend', () => {
    const document = odontogramDocument(data);
    const text = expectContent(document, [
      'Clínica Sonrisas',
      'Odontograma',
      'Mónica Ibáñez',
      '28.111.222',
      'P-000042',
      '10/3/26, 09:00',
      'Pieza completa: Corona',
      'Oclusal: Caries',
      'Referencias',
      'Tratamiento de conducto',
      'Rojo: a tratar',
    ]);
    // Both arches, the primary rows too: 52 teeth drawn.
    expect(text.match(/<svg/g)?.length).toBe(52 + toothStatuses.length);
  });
});
