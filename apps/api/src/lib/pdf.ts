import { createRequire } from 'node:module';
import path from 'node:path';
import type { FiscalCondition } from '@odontia/shared/commercial';
import { calendarDateFormatter } from '@odontia/shared/date-format';
import { type Language, languages } from '@odontia/shared/enums';
import { formatTaxId, type TaxIdKind } from '@odontia/shared/tax-ids';
import type { FastifyReply } from 'fastify';
import { fiscalConditionLabels, taxIdKindLabels } from './fiscal-labels.ts';

/**
 * PDF documents with pdfmake on the server (ARCHITECTURE §1), with the Roboto fonts that ship
 * inside the pdfmake package: nothing is fetched, and pdfmake may read its font files only.
 */

const require = createRequire(import.meta.url);

interface PdfMake {
  setFonts(fonts: unknown): void;
  setUrlAccessPolicy(callback: (url: string) => boolean): void;
  setLocalAccessPolicy(callback: (file: string) => boolean): void;
  createPdf(document: object): { getBuffer(): Promise<Buffer> };
}

const fontsModule = require.resolve('pdfmake/fonts/Roboto.js');
const fontsDir = path.dirname(fontsModule);
let configured: PdfMake | undefined;

function pdfmake(): PdfMake {
  if (configured) return configured;
  const instance = require('pdfmake') as PdfMake;
  instance.setFonts(require(fontsModule));
  instance.setUrlAccessPolicy(() => false);
  instance.setLocalAccessPolicy((file) => path.resolve(file).startsWith(`${fontsDir}${path.sep}`));
  configured = instance;
  return instance;
}

/** A pdfmake document definition (content, styles, info…), kept loose on purpose. */
export type PdfDocument = Record<string, unknown> & { content: unknown };

/** Renders a document to a PDF buffer (Roboto, A4 unless the document says otherwise). */
export function renderPdf(document: PdfDocument): Promise<Buffer> {
  return pdfmake()
    .createPdf({ pageSize: 'A4', defaultStyle: { font: 'Roboto', fontSize: 10 }, ...document })
    .getBuffer();
}

/** A file name safe in a Content-Disposition header (ASCII letters, digits, dash, dot). */
export function safeFileName(name: string): string {
  return (
    name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9.-]+/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'document'
  );
}

/** A document rendered as a PDF file, with a file name safe to send (`sendPdf`) or attach. */
export async function pdfFile(document: PdfDocument, name: string): Promise<{ pdf: Buffer; fileName: string }> {
  return { pdf: await renderPdf(document), fileName: safeFileName(name) };
}

/** The language a document is printed in: the one asked for when the product has it, else Spanish. */
export function printLanguage(value: string | null | undefined): Language {
  return languages.includes(value as Language) ? (value as Language) : 'es';
}

/** Answers a rendered PDF, shown in the browser, never cached (it holds clinical data). */
export function sendPdf(reply: FastifyReply, { pdf, fileName }: { pdf: Buffer; fileName: string }): FastifyReply {
  return reply
    .type('application/pdf')
    .header('content-disposition', `inline; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(pdf);
}

/*
 * The pieces the clinical documents share (prescription, laboratory order, consent, chart): the
 * clinic's header over a rule, "Label: value" fields in two columns, the professional's signature
 * line and the styles they name.
 */

/** A bold "Label:" and its value. */
export function pdfField(label: string, value: string) {
  return { text: [{ text: `${label}: `, bold: true }, value] };
}

/**
 * The full-width grey rule under the clinic's header: a new node for every document, because
 * pdfmake rewrites the nodes it lays out (a shared one breaks the next document).
 */
export function headerRule() {
  return { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 499, y2: 0, lineWidth: 1, lineColor: '#999999' }] };
}

/**
 * The clinic as every printed document shows it (issue 17): its logo, trade name (or the clinic's
 * name), legal name, tax id with its kind and fiscal condition, address, phone and e-mail, read
 * by `loadPrintHeader` (db/clinic-print-header.ts) in the request's transaction.
 */
export interface ClinicPrintHeader {
  /** The trade name, else the clinic's name. */
  name: string;
  legalName: string | null;
  taxIdKind: string | null;
  taxId: string | null;
  fiscalCondition: string | null;
  address: string | null;
  city: string | null;
  phone: string | null;
  email: string | null;
  /** The phone given at sign-up: printed when the fiscal data have no phone. */
  contact: string;
  /** The logo as a `data:image/png;base64,…` URL, or null. */
  logo: string | null;
}

/** The clinic as a paper's header prints it: its fiscal header, else the name and contact. */
export interface PrintingClinic {
  clinicName: string;
  clinicContact: string;
  /** The clinic's fiscal header (logo, legal name, tax id…); without it the name and contact. */
  clinic?: ClinicPrintHeader;
}

/** What every clinical paper prints at its top: the clinic and the patient, in the clinic's language. */
export interface ClinicalPrintHeading extends PrintingClinic {
  language: Language;
  patientName: string;
  patientSsn: string | null;
}

/** The header's lines under the name: legal name, "CUIT 20-12345678-6 · condition", address, phone · e-mail. */
export function clinicHeaderLines(clinic: ClinicPrintHeader, language: Language): string[] {
  const kind = clinic.taxIdKind as TaxIdKind | null;
  const taxId = clinic.taxId
    ? `${taxIdKindLabels[language][kind ?? 'other'] ?? kind} ${formatTaxId(kind, clinic.taxId)}`
    : null;
  const condition = clinic.fiscalCondition
    ? (fiscalConditionLabels[language][clinic.fiscalCondition as FiscalCondition] ?? clinic.fiscalCondition)
    : null;
  const joined = (parts: (string | null)[], separator: string) => parts.filter(Boolean).join(separator) || null;
  return [
    clinic.legalName && clinic.legalName !== clinic.name ? clinic.legalName : null,
    joined([taxId, condition], ' · '),
    joined([clinic.address, clinic.city], ', '),
    joined([clinic.phone ?? clinic.contact, clinic.email], ' · '),
  ].filter((line): line is string => Boolean(line));
}

/**
 * The clinic's header over the rule: the logo at the left when there is one, the name and the
 * lines of `clinicHeaderLines`, and `aside` at the right (a verification code). A document built
 * without the fiscal header (`clinic` absent: unit tests, old callers) prints the name and contact.
 */
export function clinicHeader(data: PrintingClinic & { language?: Language }, aside?: object) {
  const clinic = data.clinic;
  const lines = clinic ? clinicHeaderLines(clinic, data.language ?? 'es') : [data.clinicContact];
  const text = [
    { text: clinic?.name ?? data.clinicName, style: 'clinic' },
    ...lines.map((line) => ({ text: line, color: '#555555', fontSize: 9 })),
  ];
  const columns: unknown[] = [];
  if (clinic?.logo) columns.push({ image: clinic.logo, fit: [110, 60], width: 'auto', margin: [0, 0, 12, 0] });
  columns.push({ stack: text, width: '*' });
  if (aside) columns.push({ width: 'auto', ...aside });
  return [{ columns, margin: [0, 0, 0, 8] }, headerRule()];
}

/** A table's header row: bold, the columns from `rightFrom` on (amounts) aligned right. */
export function headerRow(texts: string[], rightFrom: number) {
  return texts.map((text, index) => ({ text, bold: true, alignment: index >= rightFrom ? 'right' : 'left' }));
}

/** The fields under the title, in two columns. */
export function fieldColumns(left: unknown[], right: unknown[]) {
  return { columns: [left, right], columnGap: 16 };
}

/**
 * The top of a patient's paper: the clinic's header, the title, then the patient (name and ID
 * number) beside the paper's own fields; `gap` is the space under the fields.
 */
export function patientPaperTop(
  data: PrintingClinic & { language?: Language; patientName: string; patientSsn: string | null },
  title: string,
  texts: { patient: string; idNumber: string },
  own: unknown[],
  gap: number,
) {
  return [
    ...clinicHeader(data),
    { text: title, style: 'title' },
    {
      ...fieldColumns(
        [pdfField(texts.patient, data.patientName), pdfField(texts.idNumber, data.patientSsn ?? '—')],
        own,
      ),
      margin: [0, 0, 0, gap],
    },
  ];
}

/** The patient's name, ID number and age, labelled in the document's language. */
export function patientFields(
  texts: { patient: string; idNumber: string; age: string; years: string },
  data: { patientName: string; patientSsn: string | null; patientAge: number },
) {
  return [
    pdfField(texts.patient, data.patientName),
    pdfField(texts.idNumber, data.patientSsn ?? '—'),
    pdfField(texts.age, `${data.patientAge} ${texts.years}`),
  ];
}

/** The line the professional signs on, at the right, with who signs and the caption under it. */
export function signatureLine(top: number, signer: unknown[], caption: string) {
  return {
    margin: [260, top, 0, 0],
    stack: [
      { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 220, y2: 0, lineWidth: 0.8 }] },
      ...signer,
      { text: caption, alignment: 'center', fontSize: 8, color: '#555555' },
    ],
  };
}

/** The professional's signature: the name (bold), then licence and specialty, centred under the line. */
export function professionalSignature(top: number, professionalLines: string[], caption: string) {
  return signatureLine(
    top,
    professionalLines.map((text, index) => ({
      text,
      alignment: 'center',
      margin: [0, index === 0 ? 4 : 0, 0, 0],
      bold: index === 0,
    })),
    caption,
  );
}

/**
 * A professional's signature with the lines known of them: name, specialty and licence number
 * (after `texts.license`), as prescriptions and certificates print it.
 */
export function licensedProfessionalSignature(
  top: number,
  professional: { professionalName: string; professionalSpecialty: string | null; professionalLicense: string | null },
  texts: { license: string; signature: string },
) {
  const lines = [
    professional.professionalName,
    professional.professionalSpecialty,
    professional.professionalLicense ? `${texts.license} ${professional.professionalLicense}` : null,
  ].filter((line): line is string => Boolean(line));
  return professionalSignature(top, lines, texts.signature);
}

/** The clinic's header of a verifiable document: its verification code at the right. */
export function verifiableClinicHeader(
  data: PrintingClinic & { language?: Language },
  texts: { verificationCode: string },
  code: string,
) {
  return clinicHeader(data, {
    stack: [
      { text: texts.verificationCode, fontSize: 8, color: '#555555', alignment: 'right' },
      { text: code, bold: true, fontSize: 12, alignment: 'right' },
    ],
  });
}

/** The foot of a verifiable document: its code and how whoever receives it can check it. */
export function verificationFooter(texts: { verificationCode: string; verificationHint: string }, code: string) {
  return {
    margin: [0, 32, 0, 0],
    text: [
      { text: `${texts.verificationCode}: `, bold: true },
      { text: code, bold: true },
      { text: ` — ${texts.verificationHint}`, color: '#555555' },
    ],
    fontSize: 8,
  };
}

/** What a verifiable clinical paper (a prescription, a certificate) prints around its own part. */
export interface VerifiablePaperData extends ClinicalPrintHeading {
  patientAge: number;
  date: string;
  professionalName: string;
  professionalLicense: string | null;
  professionalSpecialty: string | null;
  verificationCode: string;
}

type VerifiablePaperTexts = Parameters<typeof patientFields>[0] &
  Parameters<typeof verificationFooter>[0] &
  Parameters<typeof licensedProfessionalSignature>[2] & { date: string; professional: string };

/**
 * A verifiable clinical paper as a pdfmake document: the clinic's header with the verification
 * code, the title, `banner` (a voided paper's reason), the patient beside the date and the
 * professional, the paper's own `body`, the professional's signature line `signatureTop` below
 * it, and the code again at the foot.
 */
export function verifiablePaperDocument(
  data: VerifiablePaperData,
  texts: VerifiablePaperTexts,
  paper: {
    title: string;
    subject: string;
    banner?: unknown[];
    body: unknown[];
    signatureTop: number;
    watermark?: object;
  },
): PdfDocument {
  return {
    info: {
      title: `${paper.title} — ${data.patientName}`,
      subject: `${paper.subject} · ${data.verificationCode}`,
      keywords: data.verificationCode,
      creator: 'Odontia',
    },
    pageMargins: [48, 48, 48, 64],
    ...(paper.watermark ? { watermark: paper.watermark } : {}),
    content: [
      ...verifiableClinicHeader(data, texts, data.verificationCode),
      { text: paper.title, style: 'title' },
      ...(paper.banner ?? []),
      fieldColumns(patientFields(texts, data), [
        pdfField(texts.date, calendarDateFormatter(data.language)(data.date)),
        pdfField(texts.professional, data.professionalName),
      ]),
      ...paper.body,
      licensedProfessionalSignature(paper.signatureTop, data, texts),
      verificationFooter(texts, data.verificationCode),
    ],
    styles: documentStyles(),
  };
}

/** The styles the documents' content names: `clinic`, `title`, `section`. */
export function documentStyles() {
  return {
    clinic: { fontSize: 16, bold: true },
    title: { fontSize: 14, bold: true, alignment: 'center', margin: [0, 16, 0, 12] },
    section: { fontSize: 11, bold: true, margin: [0, 14, 0, 4] },
  };
}
