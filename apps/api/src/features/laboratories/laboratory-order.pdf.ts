import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { LaboratoryStudy } from '@odontia/shared/enums';
import {
  type ClinicalPrintHeading,
  clinicHeader,
  documentStyles,
  fieldColumns,
  type PdfDocument,
  patientFields,
  pdfField,
  signatureLine,
} from '../../lib/pdf.ts';
import { laboratoryOrderTexts } from './laboratory-order.labels.ts';

/** What the printed laboratory order shows (issue 5). */
export interface LaboratoryOrderData extends ClinicalPrintHeading {
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
  return {
    info: { title: `${texts.title} — ${order.patientName}`, subject: studies.join(', '), creator: 'Odontia' },
    pageMargins: [48, 48, 48, 64],
    content: [
      ...clinicHeader(order),
      { text: texts.title, style: 'title' },
      fieldColumns(patientFields(texts, order), [
        pdfField(texts.orderDate, calendarDateFormatter(order.language)(order.orderDate)),
        pdfField(texts.professional, order.professionalName),
        pdfField(texts.laboratory, order.laboratoryName),
      ]),
      { text: texts.studies, style: 'section' },
      { ul: studies, margin: [8, 0, 0, 0] },
      ...(order.instructions ? [{ text: texts.instructions, style: 'section' }, { text: order.instructions }] : []),
      signatureLine(72, [{ text: order.professionalName, alignment: 'center', margin: [0, 4, 0, 0] }], texts.signature),
    ],
    styles: documentStyles(),
  };
}
