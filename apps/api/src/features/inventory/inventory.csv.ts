import type { InventoryKind } from '@odontia/shared/enums';
import {
  createMedicationRequestSchema,
  createSupplyRequestSchema,
  type InventoryItem,
  inventoryCsvColumns,
  type MedicationInput,
  maxImportRows,
  type SupplyInput,
} from '@odontia/shared/schemas/inventory';
import { isFieldCode } from '@odontia/shared/validation';
import Papa from 'papaparse';
import { AppError } from '../../lib/app-error.ts';
import { csvFile, csvNumber } from '../../lib/csv.ts';

/**
 * CSV of the catalogues (issue 4). Export: the convention of every CSV (lib/csv.ts: BOM, `;`,
 * numbers with a decimal comma), the Spanish labels as header, yes/no as `sí`/`no`; enumerations
 * as their codes, because the file is also the import template. Import: `,` or `;`, headers by label or
 * field name (any case, with or without accents), each row checked with the create contract.
 */

/** The catalogue's decimal columns: written with the Spanish decimal comma. */
const decimalFields = new Set(['costPrice', 'basePrice', 'taxRate']);

function csvValue(field: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  return decimalFields.has(field) ? csvNumber('es', String(value)) : String(value);
}

export function buildExportCsv(kind: InventoryKind, items: InventoryItem[]): string {
  const columns = inventoryCsvColumns[kind];
  return csvFile(
    columns.map(([, label]) => label),
    items.map((item) => columns.map(([field]) => csvValue(field, item[field as keyof InventoryItem]))),
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

const booleanFields = new Set(['prescriptionRequired', 'consumable']);
const trueWords = new Set(['si', 'sí', 'true', '1', 'yes', 's', 'x']);
const falseWords = new Set(['no', 'false', '0', 'n']);
/** Blank in a file means "none" here: no stock, no minimum, no tax, no cost. */
const importDefaults: Record<string, unknown> = {
  totalStock: 0,
  minStock: 0,
  reorderStock: 0,
  taxRate: '0',
  costPrice: '0',
};

export interface ImportRowError {
  line: number;
  field: string;
  code: string;
}

export interface ParsedImport {
  rows: { line: number; value: MedicationInput | SupplyInput | null }[];
  errors: ImportRowError[];
  ignoredColumns: string[];
}

function detectDelimiter(content: string): ',' | ';' {
  const firstLine = content.split(/\r?\n/, 1)[0] ?? '';
  const count = (char: string) => firstLine.split(char).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

export function parseImport(kind: InventoryKind, raw: string): ParsedImport {
  const content = raw.replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(content, {
    delimiter: detectDelimiter(content),
    skipEmptyLines: 'greedy',
  });
  const [header = [], ...records] = parsed.data;
  if (records.length > maxImportRows) {
    throw new AppError('validation_error', { fields: [{ path: 'content', code: 'too_big' }], maxRows: maxImportRows });
  }
  const known = new Map<string, string>();
  for (const [field, label] of inventoryCsvColumns[kind]) {
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

  const schema = kind === 'medication' ? createMedicationRequestSchema : createSupplyRequestSchema;
  const errors: ImportRowError[] = [];
  const rows: ParsedImport['rows'] = [];
  const seenSkus = new Set<string>();
  const seenBarCodes = new Set<string>();
  records.forEach((record, index) => {
    const line = index + 2;
    const input: Record<string, unknown> = {};
    fieldAt.forEach((field, column) => {
      if (!field) return;
      const text = (record[column] ?? '').trim();
      if (text === '') {
        if (field in importDefaults) input[field] = importDefaults[field];
        return;
      }
      if (booleanFields.has(field)) {
        const word = text.toLowerCase();
        input[field] = trueWords.has(word) ? true : falseWords.has(word) ? false : text;
        return;
      }
      input[field] = text;
    });
    for (const [field, value] of Object.entries(importDefaults)) {
      if (!(field in input)) input[field] = value;
    }
    const result = schema.safeParse(input);
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
    const value = result.data;
    if (kind === 'medication') {
      const approval = (value as MedicationInput).approvalStatus;
      if (approval !== 'underReview' && approval !== 'approved') {
        errors.push({ line, field: 'approvalStatus', code: 'invalid_transition' });
      }
    }
    if (value.sku) {
      const key = value.sku.toLowerCase();
      if (seenSkus.has(key)) errors.push({ line, field: 'sku', code: 'duplicate_in_file' });
      seenSkus.add(key);
    }
    if (value.barCode) {
      if (seenBarCodes.has(value.barCode)) errors.push({ line, field: 'barCode', code: 'duplicate_in_file' });
      seenBarCodes.add(value.barCode);
    }
    rows.push({ line, value });
  });
  return { rows, errors, ignoredColumns };
}
