import {
  maxTreatmentImportRows,
  type Treatment,
  treatmentContracts,
  treatmentCsvColumns,
} from '@odontia/shared/schemas/schedules';
import type { z } from 'zod';
import {
  type CsvImportError,
  catalogueCsv,
  duplicateChecker,
  readCsvImport,
  rowIssues,
  yesNoCell,
} from '../../lib/csv-import.ts';

/**
 * CSV of the price list (issue 18). Export: the convention of every CSV (lib/csv.ts: BOM, `;`,
 * numbers with a decimal comma), the Spanish labels as header, active as `sí`/`no`. Import: `,` or `;`, headers by label or field name
 * (any case, with or without accents); each row checked with the create contract; a code
 * appears once per file.
 */

export type TreatmentInput = z.output<typeof treatmentContracts.create>;

const decimalFields = new Set(['price', 'vatRate']);

export function buildTreatmentsCsv(rows: Treatment[]): string {
  return catalogueCsv(treatmentCsvColumns, rows, decimalFields);
}

const yesNoWords = {
  yes: new Set(['si', 'sí', 'true', '1', 'yes', 's', 'x', 'oui', 'sim']),
  no: new Set(['no', 'false', '0', 'n', 'non', 'nao', 'não']),
};

export interface ParsedTreatmentRow {
  line: number;
  /** The row as the create contract reads it; `durationMinutes` null when blank (kept or 30). */
  value: (Omit<TreatmentInput, 'durationMinutes'> & { durationMinutes: number | null }) | null;
}

export function parseTreatmentsCsv(raw: string) {
  const { records, ignoredColumns } = readCsvImport(raw, treatmentCsvColumns, maxTreatmentImportRows);
  const errors: CsvImportError[] = [];
  const rows: ParsedTreatmentRow[] = [];
  const codeSeen = duplicateChecker('code', errors);
  for (const { line, cells } of records) {
    const input: Record<string, unknown> = { ...cells };
    if (cells.active !== undefined) input.active = yesNoCell(cells.active, yesNoWords);
    const blankDuration = input.durationMinutes === undefined;
    const result = treatmentContracts.create.safeParse(blankDuration ? { ...input, durationMinutes: 30 } : input);
    if (!result.success) {
      errors.push(...rowIssues(line, result.error.issues));
      rows.push({ line, value: null });
      continue;
    }
    const value = { ...result.data, durationMinutes: blankDuration ? null : result.data.durationMinutes };
    codeSeen(line, value.code?.toLowerCase());
    rows.push({ line, value });
  }
  return { rows, errors, ignoredColumns };
}
