import { isFieldCode } from '@odontia/shared/validation';
import Papa from 'papaparse';
import { AppError } from './app-error.ts';
import { csvFile, csvNumber } from './csv.ts';

/*
 * The catalogues' CSV (price list, supplies and medicines): one file is both the export and the
 * import template. Export: the Spanish labels as header, yes/no as `sí`/`no`, the decimal columns
 * with the Spanish comma. Import: `,` or `;`, headers by label or field name (any case, with or
 * without accents), a column named twice read once, each row then checked by its side's contract.
 */

/** A catalogue's columns: the field and its Spanish label. */
export type CatalogueColumns = readonly (readonly [field: string, label: string])[];

function catalogueCell(decimalFields: ReadonlySet<string>, field: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  return decimalFields.has(field) ? csvNumber('es', String(value)) : String(value);
}

export function catalogueCsv<T extends object>(
  columns: CatalogueColumns,
  rows: readonly T[],
  decimalFields: ReadonlySet<string>,
): string {
  return csvFile(
    columns.map(([, label]) => label),
    rows.map((row) => columns.map(([field]) => catalogueCell(decimalFields, field, row[field as keyof T]))),
  );
}

/** Lower case without accents or surrounding spaces: how headers are matched. */
export function headerKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

function detectDelimiter(content: string): ',' | ';' {
  const firstLine = content.split(/\r?\n/, 1)[0] ?? '';
  const count = (char: string) => firstLine.split(char).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

export interface CsvImportError {
  line: number;
  field: string;
  code: string;
}

export interface CsvImportRecord {
  /** The file's line (the header is line 1). */
  line: number;
  /** The record's non-blank cells, trimmed, by field. */
  cells: Record<string, string>;
}

/** Reads an import file into its records; more than `maxRows` records is a validation error. */
export function readCsvImport(
  raw: string,
  columns: CatalogueColumns,
  maxRows: number,
): { records: CsvImportRecord[]; ignoredColumns: string[] } {
  const content = raw.replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(content, { delimiter: detectDelimiter(content), skipEmptyLines: 'greedy' });
  const [header = [], ...rows] = parsed.data;
  if (rows.length > maxRows) {
    throw new AppError('validation_error', { fields: [{ path: 'content', code: 'too_big' }], maxRows });
  }
  const known = new Map<string, string>();
  for (const [field, label] of columns) {
    known.set(headerKey(field), field);
    known.set(headerKey(label), field);
  }
  const ignoredColumns: string[] = [];
  const fieldAt: (string | null)[] = [];
  const taken = new Set<string>();
  for (const name of header) {
    const field = known.get(headerKey(name));
    if (!field || taken.has(field)) {
      if (name.trim()) ignoredColumns.push(name.trim());
      fieldAt.push(null);
    } else {
      taken.add(field);
      fieldAt.push(field);
    }
  }
  const records = rows.map((row, index) => {
    const cells: Record<string, string> = {};
    fieldAt.forEach((field, column) => {
      const text = (row[column] ?? '').trim();
      if (field && text !== '') cells[field] = text;
    });
    return { line: index + 2, cells };
  });
  return { records, ignoredColumns };
}

/** A yes/no cell: true or false when a known word, else the text (the contract then rejects it). */
export function yesNoCell(
  text: string,
  words: { yes: ReadonlySet<string>; no: ReadonlySet<string> },
): boolean | string {
  const word = text.toLowerCase();
  return words.yes.has(word) ? true : words.no.has(word) ? false : text;
}

/** A rejected row's errors: the first issue of each field. */
export function rowIssues(
  line: number,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): CsvImportError[] {
  const errors: CsvImportError[] = [];
  const fields = new Set<string>();
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'content');
    if (fields.has(field)) continue;
    fields.add(field);
    errors.push({ line, field, code: isFieldCode(issue.message) ? issue.message : 'invalid_value' });
  }
  return errors;
}

/** Notes a key met twice in the file (a code, a SKU, a bar code) as `duplicate_in_file`. */
export function duplicateChecker(field: string, errors: CsvImportError[]) {
  const seen = new Set<string>();
  return (line: number, key: string | null | undefined) => {
    if (!key) return;
    if (seen.has(key)) errors.push({ line, field, code: 'duplicate_in_file' });
    seen.add(key);
  };
}
