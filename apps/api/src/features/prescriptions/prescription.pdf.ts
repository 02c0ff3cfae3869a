import { type PdfDocument, type VerifiablePaperData, verifiablePaperDocument } from '../../lib/pdf.ts';
import { prescriptionTexts } from './prescription.labels.ts';

/** What the printed prescription shows (issue 6). */
export interface PrescriptionPrintData extends VerifiablePaperData {
  diagnosis: string | null;
  lines: {
    medicine: string;
    dose: string | null;
    frequency: string | null;
    duration: string | null;
    quantity: string | null;
    instructions: string | null;
  }[];
}

/** 'YYYY-MM-DD' as the clinic writes it: DD/MM/YYYY. */

/**
 * The prescription as a pdfmake document: clinic header, patient, date, diagnosis, the numbered
 * medicines with dose, frequency, duration, quantity and instructions, the professional with
 * licence and specialty, a signature line and the verification code.
 */
export function prescriptionDocument(data: PrescriptionPrintData): PdfDocument {
  const texts = prescriptionTexts[data.language] ?? prescriptionTexts.es;
  const detail = (label: string, value: string | null) => (value ? `${label}: ${value}` : null);
  return verifiablePaperDocument(data, texts, {
    title: texts.title,
    subject: data.lines.map((line) => line.medicine).join(', '),
    body: [
      ...(data.diagnosis ? [{ text: texts.diagnosis, style: 'section' }, { text: data.diagnosis }] : []),
      { text: texts.medicines, style: 'section' },
      {
        ol: data.lines.map((line) => ({
          stack: [
            { text: line.medicine, bold: true },
            {
              text: [
                detail(texts.dose, line.dose),
                detail(texts.frequency, line.frequency),
                detail(texts.duration, line.duration),
                detail(texts.quantity, line.quantity),
              ]
                .filter(Boolean)
                .join(' · '),
            },
            ...(line.instructions ? [{ text: `${texts.instructions}: ${line.instructions}`, italics: true }] : []),
          ],
          margin: [0, 0, 0, 6],
        })),
        margin: [8, 0, 0, 0],
      },
    ],
    signatureTop: 64,
  });
}
