import { type Currency, currencyIsoCodes } from '@odontia/shared/currencies';
import { decimalSeparatorOf } from '@odontia/shared/decimal-input';
import type { Language } from '@odontia/shared/languages';
import type { FastifyReply } from 'fastify';
import Papa from 'papaparse';

/*
 * One convention for every CSV the product exports (issue 35; docs/decisions.md "Exports: one
 * convention"): UTF-8 with a BOM (Excel reads the accents), `;` between fields (what Excel opens
 * in columns in Spanish, French and Portuguese), CRLF lines, RFC 4180 quoting, cells that start
 * like a formula escaped; numbers with the reader's decimal separator and no thousands groups
 * ("1234,50"; "1234.50" in English); days as ISO 8601 ("2026-11-28", which every spreadsheet
 * reads as a date), instants in ISO 8601 with their offset; enumerations and yes/no in the
 * file's language, currencies as their ISO code. The catalogues (price list, supplies and
 * medicines, providers) are also the import templates: Spanish headers and Spanish numbers.
 */

export type CsvCell = string | number | null | undefined;

/** A number as the reader's spreadsheet parses it: "1234,50" (es, fr, pt), "1234.50" (en). */
export function csvNumber(language: Language, value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const text = String(value);
  return decimalSeparatorOf(language) === ',' ? text.replace('.', ',') : text;
}

/** A currency as its ISO 4217 code ("ARS"), as spreadsheets and accountants write it. */
export function csvCurrency(currency: string | null | undefined): string {
  if (!currency) return '';
  return currencyIsoCodes[currency as Currency] ?? currency;
}

/** The whole file: BOM, header, rows, the convention above. */
export function csvFile(header: readonly string[], rows: readonly CsvCell[][]): string {
  const csv = Papa.unparse(
    {
      fields: [...header],
      data: rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : cell))),
    },
    { delimiter: ';', newline: '\r\n', escapeFormulae: true },
  );
  return `\uFEFF${csv}\r\n`;
}

/** Answers a CSV export as a download, never cached (it holds the clinic's data). */
export function sendCsv(reply: FastifyReply, { csv, fileName }: { csv: string; fileName: string }): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}
