import { z } from 'zod';
import { instantText, named } from '../api-schema.ts';
import { requiredText } from '../validation.ts';
import { idSchema, maxPageSize } from './common.ts';

/**
 * Importing data (issue 42, "Administración › Importar datos"): a clinic moving from its current
 * system uploads a CSV or XLSX export, maps its columns, checks it (a dry run: row by row what will
 * be created, updated, left unchanged or refused, and why) and imports it in the background. Each
 * row carries the other system's id (`externalId`): the same file twice changes nothing.
 * docs/decisions.md "Importar datos (issue 42)".
 */

/**
 * What can be imported: patients first, then their opening balances and appointments (which name a
 * patient of the same source), providers, the price list and inventory.
 */
export const importKinds = ['patients', 'balances', 'appointments', 'providers', 'priceList', 'inventory'] as const;
export type ImportKind = (typeof importKinds)[number];

/** How a file's bytes are read: UTF-8 (with or without BOM) or Windows-1252 (a superset of Latin-1's letters). */
export const importEncodings = ['utf-8', 'windows-1252'] as const;
export type ImportEncoding = (typeof importEncodings)[number];

export const importFormats = ['csv', 'xlsx'] as const;
export type ImportFormat = (typeof importFormats)[number];

export const importOutcomes = ['created', 'updated', 'unchanged', 'refused'] as const;
export type ImportOutcome = (typeof importOutcomes)[number];

/** uploaded → checking → checked → importing → done; failed when a job gave up. */
export const importStates = ['uploaded', 'checking', 'checked', 'importing', 'done', 'failed'] as const;
export type ImportState = (typeof importStates)[number];

/** The two passes over a file: the dry run and the import. */
export const importPhases = ['check', 'import'] as const;
export type ImportPhase = (typeof importPhases)[number];

/** The largest file accepted (413 import_file_too_large). */
export const importMaxBytes = 64 * 1024 * 1024;
/** The most rows a file may hold (422 import_too_many_rows). */
export const importMaxRows = 200_000;
/** The most columns read from a file. */
export const importMaxColumns = 200;

/** The fields of a kind that a column can fill, in the wizard's order; `externalId` is always required. */
export const importFields = {
  patients: [
    'externalId',
    'lastName',
    'firstName',
    'ssn',
    'medicalHistory',
    'birthdate',
    'sex',
    'email',
    'phoneArea',
    'phone',
    'street',
    'city',
    'zipCode',
    'state',
    'country',
    'obs',
    'allergies',
    'chronicConditions',
    'currentMedication',
  ],
  providers: [
    'externalId',
    'fantasyName',
    'bussinesName',
    'companyName',
    'nif',
    'taxIdKind',
    'contactName',
    'email',
    'phoneBusiness',
    'phoneMobile',
    'commercialAddress',
    'bankName',
    'bankAccount',
    'currency',
    'paymentTermDays',
    'notes',
  ],
  priceList: ['externalId', 'code', 'name', 'groupName', 'price', 'vatRate', 'durationMinutes', 'labCost'],
  inventory: [
    'externalId',
    'type',
    'name',
    'sku',
    'barCode',
    'manufacturer',
    'description',
    'costPrice',
    'basePrice',
    'taxRate',
    'openingStock',
    'minStock',
    'reorderStock',
    'maxStock',
    'activePrinciple',
    'presentation',
    'brand',
    'model',
  ],
  /** A patient's opening balance (positive: the patient owes; negative: a credit in their favour). */
  balances: ['externalId', 'patientExternalId', 'amount', 'date', 'concept'],
  /** Past and future appointments; `durationMinutes` or `endTime` gives the end. */
  appointments: [
    'externalId',
    'patientExternalId',
    'date',
    'startTime',
    'durationMinutes',
    'endTime',
    'professional',
    'reason',
    'status',
    'notes',
  ],
} as const satisfies Record<ImportKind, readonly string[]>;
export type ImportField<K extends ImportKind = ImportKind> = (typeof importFields)[K][number];

/** The fields a row cannot go without (besides `externalId`). */
export const importRequiredFields: Record<ImportKind, readonly string[]> = {
  patients: ['externalId', 'lastName', 'firstName', 'birthdate', 'sex'],
  providers: ['externalId', 'fantasyName'],
  priceList: ['externalId', 'name', 'price'],
  inventory: ['externalId', 'type', 'name', 'costPrice', 'basePrice', 'taxRate'],
  /** Without an id of its own a balance takes its patient's: one opening balance per patient. */
  balances: ['patientExternalId', 'amount'],
  appointments: ['externalId', 'patientExternalId', 'date', 'startTime', 'professional'],
};

/** The template's header (Spanish) and example row per kind, field by field. */
export const importTemplates: Record<
  ImportKind,
  readonly (readonly [field: string, header: string, example: string])[]
> = {
  patients: [
    ['externalId', 'Nº Historia', 'H-1001'],
    ['lastName', 'Apellidos', 'Núñez Peña'],
    ['firstName', 'Nombre', 'María José'],
    ['ssn', 'DNI', '12345678Z'],
    ['medicalHistory', 'Historia clínica', 'HC-1001'],
    ['birthdate', 'Fecha de nacimiento', '31/12/1980'],
    ['sex', 'Sexo', 'Mujer'],
    ['email', 'Email', 'maria@example.com'],
    ['phoneArea', 'Prefijo', '+34'],
    ['phone', 'Teléfono móvil', '600123456'],
    ['street', 'Dirección', 'Calle Mayor 1'],
    ['city', 'Localidad', 'Madrid'],
    ['zipCode', 'Código postal', '28001'],
    ['state', 'Provincia', 'Madrid'],
    ['country', 'País', 'España'],
    ['obs', 'Observaciones', ''],
    ['allergies', 'Alergias', 'Penicilina'],
    ['chronicConditions', 'Enfermedades crónicas', ''],
    ['currentMedication', 'Medicación actual', ''],
  ],
  providers: [
    ['externalId', 'Código proveedor', 'P-001'],
    ['fantasyName', 'Nombre comercial', 'Depósito Dental Norte'],
    ['bussinesName', 'Razón social', 'Depósito Dental Norte S.L.'],
    ['companyName', 'Grupo', ''],
    ['nif', 'NIF', 'B12345674'],
    ['taxIdKind', 'Tipo de identificación fiscal', 'NIF'],
    ['contactName', 'Persona de contacto', 'Laura Gil'],
    ['email', 'Email', 'pedidos@example.com'],
    ['phoneBusiness', 'Teléfono', '912345678'],
    ['phoneMobile', 'Teléfono móvil', '600123456'],
    ['commercialAddress', 'Dirección', 'Calle Mayor 1, Madrid'],
    ['bankName', 'Banco', ''],
    ['bankAccount', 'IBAN', ''],
    ['currency', 'Moneda', 'EUR'],
    ['paymentTermDays', 'Días de pago', '30'],
    ['notes', 'Observaciones', ''],
  ],
  priceList: [
    ['externalId', 'Código externo', 'T-001'],
    ['code', 'Código', 'LIMP'],
    ['name', 'Tratamiento', 'Limpieza dental'],
    ['groupName', 'Grupo', 'Prevención'],
    ['price', 'Precio sin IVA', '1.250,50'],
    ['vatRate', 'IVA %', '21'],
    ['durationMinutes', 'Duración (minutos)', '30'],
    ['labCost', 'Coste de laboratorio', '0'],
  ],
  inventory: [
    ['externalId', 'Código externo', 'A-001'],
    ['type', 'Tipo', 'Insumo'],
    ['name', 'Artículo', 'Guantes de nitrilo M'],
    ['sku', 'Referencia', 'GN-M'],
    ['barCode', 'Código de barras', '8412345678905'],
    ['manufacturer', 'Fabricante', ''],
    ['description', 'Descripción', ''],
    ['costPrice', 'Precio de coste', '4,50'],
    ['basePrice', 'Precio de venta sin IVA', '6,00'],
    ['taxRate', 'IVA %', '21'],
    ['openingStock', 'Existencias', '100'],
    ['minStock', 'Stock mínimo', '10'],
    ['reorderStock', 'Punto de pedido', '20'],
    ['maxStock', 'Stock máximo', ''],
    ['activePrinciple', 'Principio activo', ''],
    ['presentation', 'Presentación', ''],
    ['brand', 'Marca', ''],
    ['model', 'Modelo', ''],
  ],
  balances: [
    ['externalId', 'Id. saldo', 'S-1001'],
    ['patientExternalId', 'Nº Historia', 'H-1001'],
    ['amount', 'Saldo', '12.500,50'],
    ['date', 'Fecha', '31/12/2025'],
    ['concept', 'Concepto', 'Saldo anterior'],
  ],
  appointments: [
    ['externalId', 'Id. cita', 'C-5001'],
    ['patientExternalId', 'Nº Historia', 'H-1001'],
    ['date', 'Fecha', '15/01/2026'],
    ['startTime', 'Hora', '09:30'],
    ['durationMinutes', 'Duración (min)', '30'],
    ['endTime', 'Hora fin', ''],
    ['professional', 'Profesional', 'Ana López'],
    ['reason', 'Motivo', 'Revisión'],
    ['status', 'Estado', 'Atendida'],
    ['notes', 'Notas', ''],
  ],
};

export const importKindSchema = z.enum(importKinds);
export const importParamsSchema = z.object({ importId: idSchema });
export const importTemplateParamsSchema = z.object({ kind: importKindSchema });

/** A field → the column (0-based) that fills it; a field left out is not read. */
export const importMappingSchema = z
  .record(
    z.string().max(40),
    z
      .number()
      .int()
      .min(0)
      .max(importMaxColumns - 1),
  )
  .refine((value) => Object.keys(value).length <= 60, { message: 'too_big' });
export type ImportMapping = z.output<typeof importMappingSchema>;

/** The upload's text parts (multipart beside the `file` part). */
export const importUploadFieldsSchema = z.object({
  kind: importKindSchema,
  /** The clinic's name for the system it comes from ("GesDent"): its saved mapping and its ids' namespace. */
  source: requiredText(60),
});

export const importPreviewQuerySchema = z.object({ encoding: z.enum(importEncodings).optional() });

export const importCheckBodySchema = z.object({
  encoding: z.enum(importEncodings),
  mapping: importMappingSchema,
});
export type ImportCheckBody = z.output<typeof importCheckBodySchema>;

export const importCountsSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
});
export type ImportCounts = z.output<typeof importCountsSchema>;

export const importRunSchema = named(
  'ImportRun',
  z.object({
    id: z.uuid(),
    kind: importKindSchema,
    source: z.string(),
    fileName: z.string(),
    byteSize: z.number().int(),
    format: z.enum(importFormats),
    detectedEncoding: z.enum(importEncodings),
    encoding: z.enum(importEncodings),
    mapping: importMappingSchema.nullable(),
    state: z.enum(importStates),
    /** The pass the counts and progress are of (null before the dry run). */
    phase: z.enum(importPhases).nullable(),
    progress: z.number().int().min(0).max(100),
    rowsDone: z.number().int(),
    totalRows: z.number().int().nullable(),
    counts: importCountsSchema,
    createdAt: instantText(),
    finishedAt: instantText().nullable(),
  }),
);
export type ImportRun = z.output<typeof importRunSchema>;

/** The imports list (the wizard's history): newest first, with who uploaded each. */
export const importListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(10),
});
export const importRunListItemSchema = named(
  'ImportRunListItem',
  importRunSchema.extend({ createdByName: z.string().nullable() }),
);
export type ImportRunListItem = z.output<typeof importRunListItemSchema>;
export const importRunsPageSchema = z.object({
  data: z.array(importRunListItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const importRunAnswerSchema = z.object({
  data: importRunSchema,
  code: z.enum(['import_check_queued', 'import_queued']).optional(),
});

export const importPreviewSchema = named(
  'ImportPreview',
  z.object({
    run: importRunSchema,
    /** The file's header, as read with `encoding`. */
    columns: z.array(z.string()),
    /** The first rows (at most 5), as read with `encoding`. */
    sample: z.array(z.array(z.string())),
    encoding: z.enum(importEncodings),
    /** The saved mapping of this source and kind when there is one, else the headers' synonyms. */
    suggestedMapping: importMappingSchema,
    /** Where the suggestion comes from. */
    mappingFrom: z.enum(['saved', 'headers']),
    fields: z.array(z.object({ field: z.string(), required: z.boolean() })),
  }),
);
export type ImportPreview = z.output<typeof importPreviewSchema>;
export const importPreviewAnswerSchema = z.object({
  data: importPreviewSchema,
  code: z.literal('import_uploaded').optional(),
});

export const importReasonSchema = z.object({ field: z.string(), code: z.string() });
export type ImportReason = z.output<typeof importReasonSchema>;

export const importRowSchema = z.object({
  line: z.number().int(),
  externalId: z.string().nullable(),
  outcome: z.enum(importOutcomes),
  recordId: z.uuid().nullable(),
  /** A short label of the row (the patient's name) as read. */
  label: z.string().nullable(),
  reasons: z.array(importReasonSchema),
});
export type ImportRow = z.output<typeof importRowSchema>;

export const importRowsQuerySchema = z.object({
  phase: z.enum(importPhases).optional(),
  outcome: z.enum(importOutcomes).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(25),
});
export type ImportRowsQuery = z.output<typeof importRowsQuerySchema>;

export const importRowsPageSchema = z.object({
  data: z.array(importRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
