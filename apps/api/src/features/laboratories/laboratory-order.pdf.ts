import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { LaboratoryStudy, Language } from '@odontia/shared/enums';
import type { PdfDocument } from '../../lib/pdf.ts';
import { laboratoryOrderTexts } from './laboratory-order.labels.ts';

/** What the printed laboratory order shows (issue 5). */
export interface LaboratoryOrderData {
  language: Language;
  clinicName: string;
  clinicContact: string;
  patientName: string;
  patientSsn: string | null;
  patientAge: number;
  professionalName: string;
  orderDate: string;
  laboratoryName: string;
  studies: LaboratoryStudy[];
  instructions: string | null;
}

/** 'YYYY-MM-DD' as the clinic writes it: DD/MM/YYYY. */

/** The order as a pdfmake document: clinic header, patient, professional, studies, instructions, signature line. */
export function laboratoryOrderDocument(order: LaboratoryOrderData): PdfDocument {
  const texts = laboratoryOrderTexts[order.language] ?? laboratoryOrderTexts.es;
  const studies = order.studies.map((study) => texts.studyNames[study]);
  const field = (label: string, value: string) => ({ text: [{ text: `${label}: `, bold: true }, value] });
  return {
    info: { title: `${texts.title} — ${order.patientName}`, subject: studies.join(', '), creator: 'Odontia' },
    pageMargins: [48, 48, 48, 64],
    content: [
      { text: order.clinicName, style: 'clinic' },
      { text: order.clinicContact, color: '#555555', margin: [0, 0, 0, 8] },
      { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 499, y2: 0, lineWidth: 1, lineColor: '#999999' }] },
      { text: texts.title, style: 'title' },
      {
        columns: [
          [
            field(texts.patient, order.patientName),
            field(texts.idNumber, order.patientSsn ?? '—'),
            field(texts.age, `${order.patientAge} ${texts.years}`),
          ],
          [
            field(texts.orderDate, calendarDateFormatter(order.language)(order.orderDate)),
            field(texts.professional, order.professionalName),
            field(texts.laboratory, order.laboratoryName),
          ],
        ],
        columnGap: 16,
      },
      { text: texts.studies, style: 'section' },
      { ul: studies, margin: [8, 0, 0, 0] },
      ...(order.instructions ? [{ text: texts.instructions, style: 'section' }, { text: order.instructions }] : []),
      {
        margin: [260, 72, 0, 0],
        stack: [
          { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 220, y2: 0, lineWidth: 0.8 }] },
          { text: order.professionalName, alignment: 'center', margin: [0, 4, 0, 0] },
          { text: texts.signature, alignment: 'center', fontSize: 8, color: '#555555' },
        ],
      },
    ],
    styles: {
      clinic: { fontSize: 16, bold: true },
      title: { fontSize: 14, bold: true, alignment: 'center', margin: [0, 16, 0, 12] },
      section: { fontSize: 11, bold: true, margin: [0, 14, 0, 4] },
    },
  };
}
