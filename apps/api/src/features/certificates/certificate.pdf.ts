import type { Language } from '@odontia/shared/enums';
import type { HealthCertificateKind } from '@odontia/shared/schemas/health-certificates';
import { type PdfDocument, type VerifiablePaperData, verifiablePaperDocument } from '../../lib/pdf.ts';

/** What the printed certificate shows (issue 24). */
export interface CertificatePrintData extends VerifiablePaperData {
  kind: HealthCertificateKind;
  text: string;
  voidedAt: string | null;
  voidReason: string | null;
}

interface CertificateTexts {
  titles: Record<HealthCertificateKind, string>;
  patient: string;
  idNumber: string;
  age: string;
  years: string;
  date: string;
  professional: string;
  license: string;
  signature: string;
  verificationCode: string;
  verificationHint: string;
  voided: string;
}

/** The printed certificate's texts, in the patient's language (Spanish first). */
export const certificateTexts: Record<Language, CertificateTexts> = {
  es: {
    titles: {
      attendance: 'Certificado de asistencia',
      rest: 'Certificado de reposo',
      fitness: 'Certificado de aptitud',
      free: 'Certificado',
    },
    patient: 'Paciente',
    idNumber: 'DNI',
    age: 'Edad',
    years: 'años',
    date: 'Fecha',
    professional: 'Profesional',
    license: 'Matrícula',
    signature: 'Firma y sello del profesional',
    verificationCode: 'Código de verificación',
    verificationHint: 'Quien reciba este certificado puede verificarlo con la clínica citando este código.',
    voided: 'ANULADO',
  },
  en: {
    titles: {
      attendance: 'Certificate of attendance',
      rest: 'Medical certificate of rest',
      fitness: 'Certificate of fitness',
      free: 'Certificate',
    },
    patient: 'Patient',
    idNumber: 'ID number',
    age: 'Age',
    years: 'years',
    date: 'Date',
    professional: 'Professional',
    license: 'Licence no.',
    signature: "Professional's signature and stamp",
    verificationCode: 'Verification code',
    verificationHint: 'Whoever receives this certificate can verify it with the clinic by quoting this code.',
    voided: 'VOID',
  },
  fr: {
    titles: {
      attendance: 'Certificat de présence',
      rest: 'Certificat de repos',
      fitness: "Certificat d'aptitude",
      free: 'Certificat',
    },
    patient: 'Patient',
    idNumber: "N° d'identité",
    age: 'Âge',
    years: 'ans',
    date: 'Date',
    professional: 'Praticien',
    license: "N° d'inscription",
    signature: 'Signature et cachet du praticien',
    verificationCode: 'Code de vérification',
    verificationHint: 'Le destinataire peut vérifier ce certificat auprès de la clinique en citant ce code.',
    voided: 'ANNULÉ',
  },
  pt: {
    titles: {
      attendance: 'Atestado de comparecimento',
      rest: 'Atestado de repouso',
      fitness: 'Atestado de aptidão',
      free: 'Atestado',
    },
    patient: 'Paciente',
    idNumber: 'Documento',
    age: 'Idade',
    years: 'anos',
    date: 'Data',
    professional: 'Profissional',
    license: 'Registro profissional',
    signature: 'Assinatura e carimbo do profissional',
    verificationCode: 'Código de verificação',
    verificationHint: 'Quem receber este atestado pode verificá-lo com a clínica citando este código.',
    voided: 'ANULADO',
  },
};

/**
 * The certificate as a pdfmake document: clinic header with the verification code, the title of
 * its kind, the patient and the date, the text, the professional's signature line (name,
 * specialty, licence) and the code again. A voided certificate prints marked, with its reason.
 * The clinic stores no signature image of its professionals yet: the line is signed by hand.
 */
export function certificateDocument(data: CertificatePrintData): PdfDocument {
  const texts = certificateTexts[data.language] ?? certificateTexts.es;
  const title = texts.titles[data.kind];
  return verifiablePaperDocument(data, texts, {
    title,
    subject: title,
    ...(data.voidedAt ? { watermark: { text: texts.voided, color: '#b00020', opacity: 0.15, bold: true } } : {}),
    banner: data.voidedAt
      ? [{ text: `${texts.voided}: ${data.voidReason ?? ''}`, bold: true, color: '#b00020', margin: [0, 0, 0, 8] }]
      : [],
    body: [{ text: data.text, margin: [0, 24, 0, 0], lineHeight: 1.4 }],
    signatureTop: 72,
  });
}
