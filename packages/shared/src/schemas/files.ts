import { z } from 'zod';
import { dateText } from '../api-schema.ts';
import { calendarDate, optionalCalendarDate, optionalText } from '../validation.ts';

import { idSchema, pageSchema } from './common.ts';
import { patientRecordParamsSchema, recordStampsSchema, versionField } from './records.ts';

/**
 * Files and exams of a patient (issue 6): /api/patients/:patientId/files. An upload is one
 * multipart request with one or several files; the part `metadata` (JSON, one entry per file, in
 * the order of the file parts) gives each file its type, note, date and attendance. The server
 * detects the content's type from its first bytes, never from the name or the browser.
 */

export const patientFileTypes = ['x_ray', 'dental_radiography', 'photo', 'lab_result', 'other'] as const;
export type PatientFileType = (typeof patientFileTypes)[number];

/** What the server accepts, detected from the content (JPEG, PNG and WebP get a thumbnail). */
export const allowedFileMimeTypes = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type AllowedFileMimeType = (typeof allowedFileMimeTypes)[number];

/** At most this many files in one upload. */
export const maxFilesPerUpload = 20;

const fileTypeField = z.enum(patientFileTypes, {
  error: (issue) => (issue.input == null || issue.input === '' ? 'required' : 'invalid_value'),
});

/** One entry of the `metadata` part. */
export const uploadFileEntrySchema = z.object({
  fileType: fileTypeField,
  note: optionalText(2000),
  /** When the study was taken (defaults to none: the upload's date is shown). */
  takenOn: optionalCalendarDate(),
  /** An attendance of the same patient. */
  attendanceId: z.preprocess((value) => (value === '' ? null : value), z.uuid('invalid_value').nullish()),
});
export const uploadMetadataSchema = z.array(uploadFileEntrySchema).min(1, 'required').max(maxFilesPerUpload, 'too_big');
export type UploadFileEntry = z.input<typeof uploadFileEntrySchema>;
export type UploadFileEntryInput = z.output<typeof uploadFileEntrySchema>;

/** PATCH /api/patients/:patientId/files/:id: the type, note or date, with the version the edit started from. */
export const updatePatientFileRequestSchema = z.object({
  fileType: fileTypeField.optional(),
  /** Absent: unchanged; null or '': cleared. */
  note: optionalText(2000).optional(),
  takenOn: optionalCalendarDate().optional(),
  version: versionField,
});
export type UpdatePatientFileRequest = z.input<typeof updatePatientFileRequestSchema>;
export type UpdatePatientFileInput = z.output<typeof updatePatientFileRequestSchema>;

/** GET /api/patients/:patientId/files: newest upload first, optionally one type. */
export const patientFilesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(24),
  fileType: z.enum(patientFileTypes, { error: 'invalid_value' }).optional(),
  /** The record the files belong to: a kind of record, or `none` for the patient's loose files. */
  record: z.enum(['diagnosis', 'laboratory', 'attendance', 'none'], { error: 'invalid_value' }).optional(),
});
export type PatientFilesQuery = z.output<typeof patientFilesQuerySchema>;

/** GET …/files/:id/content: `?download=1` answers as an attachment. */
export const patientFileContentQuerySchema = z.object({
  download: z.enum(['0', '1', 'true', 'false']).optional(),
});

export const patientFileSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  fileType: z.enum(patientFileTypes),
  note: z.string().nullable(),
  originalName: z.string(),
  mimeType: z.enum(allowedFileMimeTypes),
  sizeBytes: z.number().int(),
  sha256: z.string(),
  hasThumbnail: z.boolean(),
  takenOn: dateText().nullable(),
  attendanceId: z.uuid().nullable(),
  /** The diagnosis or laboratory order the file belongs to (issue 24); one record at most. */
  diagnosisId: z.uuid().nullable(),
  laboratoryId: z.uuid().nullable(),
  ...recordStampsSchema,
});
export type PatientFile = z.infer<typeof patientFileSchema>;

export const patientFilesPageSchema = pageSchema(patientFileSchema);

/** 201 of an upload: every file stored, in the order sent. */
export const patientFilesUploadedResponseSchema = z.object({
  data: z.array(patientFileSchema),
  code: z.literal('files_uploaded'),
});
export const patientFileResponseSchema = z.object({
  data: patientFileSchema,
  code: z.literal('file_updated').optional(),
});
/** GET /api/files/limits: what the upload dialog checks before sending (the server checks again). */
export const uploadLimitsSchema = z.object({
  maxFileMb: z.number(),
  maxTotalMb: z.number(),
  maxFiles: z.number().int(),
  mimeTypes: z.array(z.enum(allowedFileMimeTypes)),
});
export type UploadLimits = z.infer<typeof uploadLimitsSchema>;

/** DELETE …/files/:id */
export const patientFileDeletedResponseSchema = z.object({ code: z.literal('file_deleted') });

/**
 * Files of a diagnosis or a laboratory order (issue 24): /api/patients/:patientId/diagnoses/:id/files
 * and …/laboratories/:id/files. An upload there is the patient's upload (same multipart body, rules
 * and storage) attached to the record; the bytes are served by the patient's file routes.
 * DELETE …/files/:fileId/link removes a file from the record (it stays in the patient's files);
 * DELETE …/files/:fileId deletes it (soft).
 */
export const recordKinds = ['diagnosis', 'laboratory'] as const;
export type RecordKind = (typeof recordKinds)[number];

export const recordFileParamsSchema = patientRecordParamsSchema.extend({ fileId: idSchema });
export const recordFilesQuerySchema = patientFilesQuerySchema.pick({ page: true, pageSize: true });
export const recordFileRemovedResponseSchema = z.object({ code: z.literal('file_removed') });

/**
 * POST /api/patients/:patientId/laboratories/:id/result: the laboratory's files (multipart, as an
 * upload) and the part `result`, this JSON: the order is marked received with them in one step.
 */
export const receiveLaboratoryResultSchema = z.object({
  resultDate: calendarDate(),
  result: optionalText(20000),
  version: versionField,
});
export type ReceiveLaboratoryResultRequest = z.input<typeof receiveLaboratoryResultSchema>;
