import { z } from 'zod';
import { instantText } from '../api-schema.ts';
import { idSchema } from './common.ts';

/**
 * A patient's record in FHIR R4 (issue 42): the export is a `collection` Bundle answered as
 * `application/fhir+json`; the import takes the same bundle into another clinic. The bundle's
 * own shape is checked by the importer (fhir_bundle_invalid with the first problems), so the
 * contract only bounds its size: at most `fhirImportMaxEntries` entries.
 */
export const fhirImportMaxEntries = 5000;

/** The FHIR resource types the export writes; the import maps the clinical ones (`fhirImportedTypes`). */
export const fhirExportedTypes = [
  'Patient',
  'Condition',
  'Procedure',
  'Observation',
  'Appointment',
  'MedicationRequest',
  'Consent',
  'DocumentReference',
  'Invoice',
  'ChargeItem',
] as const;
export const fhirImportedTypes = [
  'Patient',
  'Condition',
  'Procedure',
  'Observation',
  'Appointment',
  'MedicationRequest',
] as const;
export type FhirImportedType = (typeof fhirImportedTypes)[number];

export const fhirBundleBodySchema = z
  .object({
    resourceType: z.string().max(64),
    type: z.string().max(64).optional(),
    entry: z.array(z.record(z.string(), z.unknown())).max(fhirImportMaxEntries).optional(),
  })
  .catchall(z.unknown());
export type FhirBundleBody = z.output<typeof fhirBundleBodySchema>;

export const fhirEntryOutcomes = ['imported', 'skipped'] as const;

export const fhirImportReportSchema = z.object({
  patientId: idSchema,
  imported: z.record(z.string(), z.number().int().min(0)),
  /** One line per entry left out: its index in the bundle, its resource type and why. */
  skipped: z.array(
    z.object({
      index: z.number().int().min(0),
      resourceType: z.string(),
      reason: z.enum(['not_mapped', 'financial_record', 'document_bytes_not_included', 'invalid']),
      /** For an invalid entry: the message code its service answered ('professional_license_required'…). */
      code: z.string().optional(),
    }),
  ),
});
export type FhirImportReport = z.output<typeof fhirImportReportSchema>;

export const fhirImportAnswerSchema = z.object({
  data: fhirImportReportSchema,
  code: z.literal('patient_imported'),
});

/** The right of access (issue 42): a ZIP of the whole record, written by a job. */
export const accessExportStates = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type AccessExportState = (typeof accessExportStates)[number];
/** Whether the archive's job has ended (written, failed or removed): the staff card and the portal stop following it. */
export const isAccessExportFinished = (state: AccessExportState | undefined): boolean =>
  state === 'done' || state === 'failed' || state === 'expired';

export const accessExportSchema = z.object({
  id: idSchema,
  patientId: idSchema,
  state: z.enum(accessExportStates),
  /** 0–100, moved as each part of the archive is written. */
  progress: z.number().int().min(0).max(100),
  fileName: z.string(),
  byteSize: z.number().int().min(0).nullable(),
  requestedVia: z.enum(['staff', 'portal']),
  createdAt: instantText(),
  finishedAt: instantText().nullable(),
});
export type AccessExport = z.output<typeof accessExportSchema>;

export const accessExportAnswerSchema = z.object({
  data: accessExportSchema,
  /** `access_export_in_progress`: one was already queued or running for the patient; this is it. */
  code: z.enum(['access_export_queued', 'access_export_in_progress']).optional(),
});
/** The patient's latest archive (null before the first): the screen picks up where it was after a reload. */
export const latestAccessExportAnswerSchema = z.object({ data: accessExportSchema.nullable() });
export const accessExportParamsSchema = z.object({ exportId: idSchema });
export const patientAccessExportParamsSchema = z.object({ patientId: idSchema, exportId: idSchema });
