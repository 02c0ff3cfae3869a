import type { Language } from '@odontia/shared/enums';
import {
  type ClinicalPrintHeading,
  documentStyles,
  type PdfDocument,
  patientPaperTop,
  pdfField,
} from '../../lib/pdf.ts';

/** The printed treatment authorization (issue 6), its labels in the patient's language. */

interface Texts {
  document: string;
  patient: string;
  idNumber: string;
  date: string;
  professional: string;
  unsigned: string;
  signedBy: string;
  signerId: string;
  signedAt: string;
  collectedBy: string;
  hash: string;
  hashHow: string;
  revoked: string;
  revokedReason: string;
  /** The banner of a consent whose signature was revoked: not one never signed, nor a valid one. */
  revokedBanner: string;
  previous: string;
}

const texts: Record<Language, Texts> = {
  es: {
    document: 'Autorización de tratamiento',
    patient: 'Paciente',
    idNumber: 'DNI',
    date: 'Fecha',
    professional: 'Profesional',
    unsigned: 'SIN FIRMAR — borrador para leer con el paciente',
    signedBy: 'Firmado por',
    signerId: 'DNI del firmante',
    signedAt: 'Fecha y hora de la firma',
    collectedBy: 'Firma tomada por',
    hash: 'SHA-256',
    hashHow: 'Huella SHA-256 del texto firmado (UTF-8), un byte 0x00 y la imagen PNG de la firma.',
    revoked: 'FIRMA REVOCADA',
    revokedBanner: 'REVOCADA — la firma ya no vale como consentimiento',
    revokedReason: 'Motivo',
    previous: 'Firmas anteriores revocadas',
  },
  en: {
    document: 'Treatment authorization',
    patient: 'Patient',
    idNumber: 'ID number',
    date: 'Date',
    professional: 'Professional',
    unsigned: 'NOT SIGNED — draft to read with the patient',
    signedBy: 'Signed by',
    signerId: "Signer's ID number",
    signedAt: 'Signed at',
    collectedBy: 'Signature collected by',
    hash: 'SHA-256',
    hashHow: 'SHA-256 fingerprint of the signed text (UTF-8), one 0x00 byte and the PNG image of the signature.',
    revoked: 'SIGNATURE REVOKED',
    revokedBanner: 'REVOKED — the signature no longer stands as consent',
    revokedReason: 'Reason',
    previous: 'Earlier revoked signatures',
  },
  fr: {
    document: 'Autorisation de traitement',
    patient: 'Patient',
    idNumber: "N° d'identité",
    date: 'Date',
    professional: 'Praticien',
    unsigned: 'NON SIGNÉ — brouillon à lire avec le patient',
    signedBy: 'Signé par',
    signerId: "N° d'identité du signataire",
    signedAt: 'Date et heure de la signature',
    collectedBy: 'Signature recueillie par',
    hash: 'SHA-256',
    hashHow: "Empreinte SHA-256 du texte signé (UTF-8), d'un octet 0x00 et de l'image PNG de la signature.",
    revoked: 'SIGNATURE RÉVOQUÉE',
    revokedBanner: 'RÉVOQUÉE — la signature ne vaut plus consentement',
    revokedReason: 'Motif',
    previous: 'Signatures antérieures révoquées',
  },
  pt: {
    document: 'Autorização de tratamento',
    patient: 'Paciente',
    idNumber: 'Documento',
    date: 'Data',
    professional: 'Profissional',
    unsigned: 'NÃO ASSINADO — rascunho para ler com o paciente',
    signedBy: 'Assinado por',
    signerId: 'Documento do signatário',
    signedAt: 'Data e hora da assinatura',
    collectedBy: 'Assinatura coletada por',
    hash: 'SHA-256',
    hashHow: 'Impressão SHA-256 do texto assinado (UTF-8), um byte 0x00 e a imagem PNG da assinatura.',
    revoked: 'ASSINATURA REVOGADA',
    revokedBanner: 'REVOGADA — a assinatura já não vale como consentimento',
    revokedReason: 'Motivo',
    previous: 'Assinaturas anteriores revogadas',
  },
};

export interface PrintedSignature {
  signerName: string;
  signerIdNumber: string;
  /** Already written in the clinic's time zone. */
  signedAt: string;
  collectedByName: string | null;
  sha256: string;
  png: Buffer;
  revoked: { at: string; byName: string | null; reason: string } | null;
}

export interface AuthorizationDocumentData extends ClinicalPrintHeading {
  date: string;
  professionalName: string;
  title: string;
  /** The text to print: the text as signed when a signature stands, else the current body. */
  text: string;
  /** The standing signature, or the latest revoked one when none stands. */
  signature: PrintedSignature | null;
  /** Other revoked signatures, newest first. */
  earlier: PrintedSignature[];
}

function signatureBlock(t: Texts, signature: PrintedSignature) {
  return {
    unbreakable: true,
    margin: [0, 18, 0, 0],
    stack: [
      ...(signature.revoked
        ? [
            {
              text: `${t.revoked} — ${signature.revoked.at}${signature.revoked.byName ? ` (${signature.revoked.byName})` : ''}`,
              color: '#b02a37',
              bold: true,
            },
            { text: `${t.revokedReason}: ${signature.revoked.reason}`, color: '#b02a37', margin: [0, 0, 0, 6] },
          ]
        : []),
      {
        columns: [
          { image: `data:image/png;base64,${signature.png.toString('base64')}`, fit: [220, 90], width: 230 },
          [
            pdfField(t.signedBy, signature.signerName),
            pdfField(t.signerId, signature.signerIdNumber),
            pdfField(t.signedAt, signature.signedAt),
            ...(signature.collectedByName ? [pdfField(t.collectedBy, signature.collectedByName)] : []),
          ],
        ],
        columnGap: 16,
      },
      { canvas: [{ type: 'line', x1: 0, y1: 4, x2: 220, y2: 4, lineWidth: 0.8 }] },
      {
        text: [
          { text: `${t.hash}: `, bold: true },
          { text: signature.sha256, font: 'Roboto' },
        ],
        margin: [0, 8, 0, 0],
        fontSize: 8,
      },
      { text: t.hashHow, fontSize: 7, color: '#555555' },
    ],
  };
}

/** Clinic header, patient, the text, and the signature with its hash (or "not signed"; revoked says so). */
export function authorizationDocument(data: AuthorizationDocumentData): PdfDocument {
  const t = texts[data.language] ?? texts.es;
  // No standing signature but one was made: revoked, neither a draft never signed nor a valid consent.
  const revoked = data.signature?.revoked
    ? data.signature.revoked
    : data.signature
      ? null
      : (data.earlier.find((signature) => signature.revoked)?.revoked ?? null);
  return {
    info: {
      title: `${data.title} — ${data.patientName}`,
      // The standing signature's hash in the metadata too, for a reader that searches it (a revoked
      // one's is no consent: the subject says revoked).
      subject: revoked
        ? `${t.document} · ${t.revoked}`
        : data.signature
          ? `${t.document} · SHA-256 ${data.signature.sha256}`
          : t.document,
      creator: 'Odontia',
    },
    pageMargins: [48, 48, 48, 56],
    content: [
      ...patientPaperTop(
        data,
        data.title,
        t,
        [pdfField(t.date, data.date), pdfField(t.professional, data.professionalName)],
        12,
      ),
      ...(data.signature || revoked ? [] : [{ text: t.unsigned, bold: true, color: '#b02a37', margin: [0, 0, 0, 8] }]),
      ...(revoked
        ? [
            {
              text: `${t.revokedBanner} (${revoked.at}${revoked.byName ? `, ${revoked.byName}` : ''})`,
              bold: true,
              color: '#b02a37',
              margin: [0, 0, 0, 8],
            },
          ]
        : []),
      { text: data.text, alignment: 'justify', lineHeight: 1.25 },
      ...(data.signature ? [signatureBlock(t, data.signature)] : []),
      ...(data.earlier.length > 0
        ? [{ text: t.previous, style: 'section' }, ...data.earlier.map((signature) => signatureBlock(t, signature))]
        : []),
    ],
    styles: {
      ...documentStyles(),
      section: { fontSize: 11, bold: true, margin: [0, 18, 0, 0] },
    },
  };
}
