import { createRequire } from 'node:module';
import path from 'node:path';
import { type Language, languages } from '@odontia/shared/enums';
import type { FastifyReply } from 'fastify';

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
