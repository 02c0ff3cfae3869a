import {
  maxTreatmentImportRows,
  type Treatment,
  treatmentContracts,
  treatmentCsvColumns,
} from '@odontia/shared/schemas/schedules';
import { isFieldCode } from '@odontia/shared/validation';
import Papa from 'papaparse';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { csvFile, csvNumber } from '../../lib/csv.ts';
import { headerKey } from '../inventory/inventory.csv.ts';

/**
 * CSV of the price list (issue 18). Export: the convention of every CSV (lib/csv.ts: BOM, `;`,
 * numbers with a decimal comma), the Spanish labels as header, active as `sí`/`no`. Import: `,` or `;`, headers by label or field name
 * (any case, with or without accents); each row checked with the create contract; a code
 * appears once per file.
 */

export type TreatmentInput = z.output<typeof treatmentContracts.create>;

function csvValue(field: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  return field === 'price' || field === 'vatRate' ? csvNumber('es', String(value)) : String(value);
}

export function buildTreatmentsCsv(rows: Treatment[]): string {
  return csvFile(
    treatmentCsvColumns.map(([, label]) => label),
    rows.map((row) => treatmentCsvColumns.map(([field]) => csvValue(field, row[field]))),
  );
}

const trueWords = new Set(['si', 'sí', 'true', '1', 'yes', 's', 'x', 'oui', 'sim']);
const falseWords = new Set(['no', 'false', '0', 'n', 'non', 'nao', 'não']);

export interface ParsedTreatmentRow {
  line: number;
  /** The row as the create contract reads it; `durationMinutes` null when blank (kept or 30). */
  value: (Omit<TreatmentInput, 'durationMinutes'> & { durationMinutes: number | null }) | null;
}

export function parseTreatmentsCsv(raw: string) {
  const content = raw.replace(/^\uFEFF/, '');
  const firstLine = content.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  const parsed = Papa.parse<string[]>(content, { delimiter, skipEmptyLines: 'greedy' });
  const [header = [], ...records] = parsed.data;
  if (records.length > maxTreatmentImportRows) {
    throw new AppError('validation_error', {
      fields: [{ path: 'content', code: 'too_big' }],
      maxRows: maxTreatmentImportRows,
    });
  }
  const known = new Map<string, string>();
  for (const [field, label] of treatmentCsvColumns) {
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
  const errors: { line: number; field: string; code: string }[] = [];
  const rows: ParsedTreatmentRow[] = [];
  const seenCodes = new Set<string>();
  records.forEach((record, index) => {
    const line = index + 2;
    const input: Record<string, unknown> = {};
    fieldAt.forEach((field, column) => {
      if (!field) return;
      const text = (record[column] ?? '').trim();
      if (text === '') return;
      if (field === 'active') {
        const word = text.toLowerCase();
        input[field] = trueWords.has(word) ? true : falseWords.has(word) ? false : text;
        return;
      }
      input[field] = text;
    });
    const blankDuration = input.durationMinutes === undefined;
    const result = treatmentContracts.create.safeParse(blankDuration ? { ...input, durationMinutes: 30 } : input);
    if (!result.success) {
      const fields = new Set<string>();
      for (const issue of result.error.issues) {
        const field = String(issue.path[0] ?? 'content');
        if (fields.has(field)) continue;
        fields.add(field);
        errors.push({ line, field, code: isFieldCode(issue.message) ? issue.message : 'invalid_value' });
      }
      rows.push({ line, value: null });
      return;
    }
    const value = { ...result.data, durationMinutes: blankDuration ? null : result.data.durationMinutes };
    if (value.code) {
      const key = value.code.toLowerCase();
      if (seenCodes.has(key)) errors.push({ line, field: 'code', code: 'duplicate_in_file' });
      seenCodes.add(key);
    }
    rows.push({ line, value });
  });
  return { rows, errors, ignoredColumns };
}
