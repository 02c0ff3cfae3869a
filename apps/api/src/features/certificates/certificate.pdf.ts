import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Language } from '@odontia/shared/enums';
import type { HealthCertificateKind } from '@odontia/shared/schemas/health-certificates';
import {
  type ClinicalPrintHeading,
  documentStyles,
  fieldColumns,
  licensedProfessionalSignature,
  type PdfDocument,
  patientFields,
  pdfField,
  verifiableClinicHeader,
  verificationFooter,
} from '../../lib/pdf.ts';

/** What the printed certificate shows (issue 24). */
export interface CertificatePrintData extends ClinicalPrintHeading {
  patientAge: number;
  kind: HealthCertificateKind;
  date: string;
  text: string;
  professionalName: string;
  professionalLicense: string | null;
  professionalSpecialty: string | null;
  verificationCode: string;
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
  return {
    info: {
      title: `${title} — ${data.patientName}`,
      subject: `${title} · ${data.verificationCode}`,
      keywords: data.verificationCode,
      creator: 'Odontia',
    },
    pageMargins: [48, 48, 48, 64],
    ...(data.voidedAt ? { watermark: { text: texts.voided, color: '#b00020', opacity: 0.15, bold: true } } : {}),
    content: [
      ...verifiableClinicHeader(data, texts, data.verificationCode),
      { text: title, style: 'title' },
      ...(data.voidedAt
        ? [{ text: `${texts.voided}: ${data.voidReason ?? ''}`, bold: true, color: '#b00020', margin: [0, 0, 0, 8] }]
        : []),
      fieldColumns(patientFields(texts, data), [
        pdfField(texts.date, calendarDateFormatter(data.language)(data.date)),
        pdfField(texts.professional, data.professionalName),
      ]),
      { text: data.text, margin: [0, 24, 0, 0], lineHeight: 1.4 },
      licensedProfessionalSignature(72, data, texts),
      verificationFooter(texts, data.verificationCode),
    ],
    styles: documentStyles(),
  };
}
