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
import {
  type CsvImportError,
  catalogueCsv,
  duplicateChecker,
  readCsvImport,
  rowIssues,
  yesNoCell,
} from '../../lib/csv-import.ts';

/**
 * CSV of the catalogues (issue 4). Export: the convention of every CSV (lib/csv.ts: BOM, `;`,
 * numbers with a decimal comma), the Spanish labels as header, yes/no as `sí`/`no`; enumerations
 * as their codes, because the file is also the import template. Import: `,` or `;`, headers by label or
 * field name (any case, with or without accents), each row checked with the create contract.
 */

/** The catalogue's decimal columns: written with the Spanish decimal comma. */
const decimalFields = new Set(['costPrice', 'basePrice', 'taxRate']);

export function buildExportCsv(kind: InventoryKind, items: InventoryItem[]): string {
  return catalogueCsv(inventoryCsvColumns[kind], items, decimalFields);
}

const booleanFields = new Set(['prescriptionRequired', 'consumable']);
const yesNoWords = {
  yes: new Set(['si', 'sí', 'true', '1', 'yes', 's', 'x']),
  no: new Set(['no', 'false', '0', 'n']),
};
/** Blank in a file means "none" here: no stock, no minimum, no tax, no cost. */
const importDefaults: Record<string, unknown> = {
  totalStock: 0,
  minStock: 0,
  reorderStock: 0,
  taxRate: '0',
  costPrice: '0',
};

export interface ParsedImport {
  rows: { line: number; value: MedicationInput | SupplyInput | null }[];
  errors: CsvImportError[];
  ignoredColumns: string[];
}

export function parseImport(kind: InventoryKind, raw: string): ParsedImport {
  const { records, ignoredColumns } = readCsvImport(raw, inventoryCsvColumns[kind], maxImportRows);
  const schema = kind === 'medication' ? createMedicationRequestSchema : createSupplyRequestSchema;
  const errors: CsvImportError[] = [];
  const rows: ParsedImport['rows'] = [];
  const skuSeen = duplicateChecker('sku', errors);
  const barCodeSeen = duplicateChecker('barCode', errors);
  for (const { line, cells } of records) {
    const input: Record<string, unknown> = { ...importDefaults };
    for (const [field, text] of Object.entries(cells)) {
      input[field] = booleanFields.has(field) ? yesNoCell(text, yesNoWords) : text;
    }
    const result = schema.safeParse(input);
    if (!result.success) {
      errors.push(...rowIssues(line, result.error.issues));
      rows.push({ line, value: null });
      continue;
    }
    const value = result.data;
    if (kind === 'medication') {
      const approval = (value as MedicationInput).approvalStatus;
      if (approval !== 'underReview' && approval !== 'approved') {
        errors.push({ line, field: 'approvalStatus', code: 'invalid_transition' });
      }
    }
    skuSeen(line, value.sku?.toLowerCase());
    barCodeSeen(line, value.barCode);
    rows.push({ line, value });
  }
  return { rows, errors, ignoredColumns };
}
