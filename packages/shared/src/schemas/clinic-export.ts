import { z } from 'zod';
import { instantText } from '../api-schema.ts';
import { idSchema, pageSchema } from './common.ts';
import { pageQuerySchema } from './records.ts';

/**
 * The clinic's full export (issue 42): everything the clinic owns — every table with `account_id`
 * as JSON lines, the uploaded and signed files, a data dictionary and a manifest with the SHA-256
 * of every entry — as one ZIP written by a job. docs/api.md "Exportar todos los datos".
 */

/** expired: done, and its file removed after its days (ask for a new one). */
export const clinicExportStates = ['queued', 'running', 'done', 'failed', 'expired'] as const;

export const clinicExportSchema = z.object({
  id: idSchema,
  state: z.enum(clinicExportStates),
  /** 0–100, moved as tables and files are written. */
  progress: z.number().int().min(0).max(100),
  /** Tables written so far, of `tableCount`. */
  tablesWritten: z.number().int().min(0),
  tableCount: z.number().int().min(0).nullable(),
  rowsWritten: z.number().int().min(0),
  filesWritten: z.number().int().min(0),
  fileName: z.string(),
  byteSize: z.number().int().min(0).nullable(),
  createdAt: instantText(),
  finishedAt: instantText().nullable(),
  /** When a finished export's file is removed. */
  expiresAt: instantText().nullable(),
  createdByName: z.string().nullable(),
});
export type ClinicExport = z.output<typeof clinicExportSchema>;

export const clinicExportAnswerSchema = z.object({
  data: clinicExportSchema,
  code: z.literal('clinic_export_queued').optional(),
});
export const clinicExportPageSchema = pageSchema(clinicExportSchema);
export const clinicExportQuerySchema = pageQuerySchema;
export const clinicExportParamsSchema = z.object({ exportId: idSchema });
