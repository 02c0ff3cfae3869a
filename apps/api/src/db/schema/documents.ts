import type { AuthorizationStatus, ToothStatus } from '@odontia/shared/enums';
import type { TemplateKind } from '@odontia/shared/schemas/authorizations';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { attendances, diagnoses, laboratories } from './clinical.ts';
import { clinicRowColumns } from './columns.ts';
import { inventoryItems } from './inventory.ts';
import { patientRecordKeys, patientRef } from './patients.ts';
import {
  clinicKeys,
  clinicRef,
  entryStamps,
  lineKeys,
  newestOfPatientIndex,
  recordKeys,
  recordStamps,
  signingProfessional,
  userRefs,
} from './records.ts';

/**
 * The dental chart and clinical documents of the medical history (issue 6): odontogram entries,
 * prescriptions, treatment authorizations (informed consent) with their signatures, and the
 * patient's files and exams. Like the other clinical records they are never physically deleted
 * (the app roles have no DELETE); "delete" sets `deleted_at`/`deleted_by` and the audit keeps
 * every version.
 */

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * One mark on the chart: a status on a whole tooth (`zone` null) or on one of its five zones, on a
 * date, by a professional, from an attendance when there is one. Append-only: the chart on a day
 * is, for each tooth and zone, the latest entry charted up to that day; a mistaken entry is voided
 * (`deleted_at`), never edited.
 */
export const odontogramEntries = pgTable(
  'odontogram_entries',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    /** FDI number: 11–48 permanent, 51–85 primary. */
    tooth: integer('tooth').notNull(),
    /** mesial | distal | buccal | lingual | occlusal; null = the complete piece. */
    zone: text('zone'),
    status: text('status').$type<ToothStatus>().notNull(),
    chartedAt: timestamp('charted_at', { withTimezone: true }).notNull(),
    professionalId: uuid('professional_id').notNull(),
    attendanceId: uuid('attendance_id'),
    notes: text('notes'),
    ...entryStamps,
    deleteReason: text('delete_reason'),
  },
  (table) => [
    ...clinicKeys(table),
    patientRef(table),
    ...userRefs(table, table.professionalId),
    clinicRef(table, table.attendanceId, attendances),
    ...userRefs(table, table.createdBy, table.deletedBy),
    newestOfPatientIndex('odontogram_entries_patient_idx', table, table.chartedAt),
    check(
      'odontogram_entries_tooth',
      sql`${table.tooth} between 11 and 18 or ${table.tooth} between 21 and 28 or ${table.tooth} between 31 and 38
        or ${table.tooth} between 41 and 48 or ${table.tooth} between 51 and 55 or ${table.tooth} between 61 and 65
        or ${table.tooth} between 71 and 75 or ${table.tooth} between 81 and 85`,
    ),
    check(
      'odontogram_entries_zone',
      sql`${table.zone} is null or ${table.zone} in ('mesial', 'distal', 'buccal', 'lingual', 'occlusal')`,
    ),
    check(
      'odontogram_entries_status',
      sql`${table.status} in ('healthy', 'caries', 'filling', 'sealant', 'missing', 'extracted', 'implant', 'crown',
        'bridge', 'fractured', 'provisional', 'root_canal', 'retained_root', 'supernumerary', 'to_extract', 'eruption',
        'impacted')`,
    ),
  ],
);

/**
 * A prescription: patient, professional (name and licence copied when it is written, so a later
 * profile change does not alter a printed prescription), date, diagnosis and its lines. The
 * verification code is printed on the PDF; the clinic finds the prescription by it.
 */
export const prescriptions = pgTable(
  'prescriptions',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    ...signingProfessional,
    date: date('date', { mode: 'string' }).notNull(),
    diagnosis: text('diagnosis'),
    notes: text('notes'),
    verificationCode: text('verification_code').notNull(),
    attendanceId: uuid('attendance_id'),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table, table.professionalId),
    clinicRef(table, table.attendanceId, attendances),
    newestOfPatientIndex('prescriptions_patient_idx', table, table.date),
    uniqueIndex('prescriptions_verification_code_unique').on(table.accountId, table.verificationCode),
  ],
);

/** A line of a prescription: a catalogue medicine (its name copied) or free text; an edit soft-deletes the old set. */
export const prescriptionLines = pgTable(
  'prescription_lines',
  {
    ...clinicRowColumns,
    prescriptionId: uuid('prescription_id').notNull(),
    position: integer('position').notNull(),
    medicationId: uuid('medication_id'),
    medicine: text('medicine').notNull(),
    dose: text('dose'),
    frequency: text('frequency'),
    duration: text('duration'),
    quantity: text('quantity'),
    instructions: text('instructions'),
    ...entryStamps,
  },
  (table) => [
    ...lineKeys(table, table.prescriptionId, prescriptions),
    clinicRef(table, table.medicationId, inventoryItems),
    index('prescription_lines_prescription_idx')
      .on(table.accountId, table.prescriptionId, table.position)
      .where(sql`${table.deletedAt} is null`),
  ],
);

/**
 * The clinic's templates: a kind, a title and a body with placeholders. 'consent' (informed
 * consent: {{patient}}, {{idNumber}}, {{treatment}}, {{risks}}, {{alternatives}}, {{cost}},
 * {{professional}}, {{date}}, {{clinic}}) or a health certificate's kind ('attendance', 'rest',
 * 'fitness', 'free': the placeholders of `certificatePlaceholders`).
 */
export const authorizationTemplates = pgTable(
  'authorization_templates',
  {
    ...clinicRowColumns,
    kind: text('kind').$type<TemplateKind>().notNull().default('consent'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    active: boolean('active').notNull().default(true),
    ...recordStamps,
  },
  (table) => [
    ...recordKeys(table),
    index('authorization_templates_title_idx').on(table.accountId, table.title).where(sql`${table.deletedAt} is null`),
    check('authorization_templates_kind', sql`${table.kind} in ('consent', 'attendance', 'rest', 'fitness', 'free')`),
  ],
);

/**
 * A treatment authorization (informed consent) of a patient, written from a template and editable
 * until it is signed. `status` is 'signed' while a signature stands, 'unsigned' otherwise
 * (never signed, or its signature revoked); every signature stays in `authorization_signatures`.
 */
export const treatmentAuthorizations = pgTable(
  'treatment_authorizations',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    templateId: uuid('template_id'),
    professionalId: uuid('professional_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    title: text('title').notNull(),
    treatment: text('treatment').notNull(),
    risks: text('risks'),
    alternatives: text('alternatives'),
    costEstimate: numeric('cost_estimate', { precision: 14, scale: 2 }),
    /** The body as the template wrote it, placeholders filled, edited by hand before signing. */
    body: text('body').notNull(),
    status: text('status').$type<AuthorizationStatus>().notNull().default('unsigned'),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table),
    clinicRef(table, table.templateId, authorizationTemplates),
    ...userRefs(table, table.professionalId),
    newestOfPatientIndex('treatment_authorizations_patient_idx', table, table.date),
    check('treatment_authorizations_status', sql`${table.status} in ('unsigned', 'signed')`),
    check('treatment_authorizations_cost', sql`${table.costEstimate} is null or ${table.costEstimate} >= 0`),
  ],
);

/**
 * A signature of an authorization: the exact text signed, the signature image (PNG), the signer's
 * name and ID number, when, who collected it, and SHA-256 over text + image. Written once; an
 * unsign fills `revoked_*` and keeps the row.
 */
export const authorizationSignatures = pgTable(
  'authorization_signatures',
  {
    ...clinicRowColumns,
    authorizationId: uuid('authorization_id').notNull(),
    signedText: text('signed_text').notNull(),
    signatureImage: bytea('signature_image').notNull(),
    signerName: text('signer_name').notNull(),
    signerIdNumber: text('signer_id_number').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    collectedBy: uuid('collected_by').notNull(),
    sha256: text('sha256').notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by'),
    revokeReason: text('revoke_reason'),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.id] }),
    clinicRef(table, table.authorizationId, treatmentAuthorizations),
    ...userRefs(table, table.collectedBy, table.revokedBy),
    index('authorization_signatures_authorization_idx').on(table.accountId, table.authorizationId, table.signedAt),
    // At most one standing signature per authorization.
    uniqueIndex('authorization_signatures_standing_unique')
      .on(table.accountId, table.authorizationId)
      .where(sql`${table.revokedAt} is null`),
  ],
);

/**
 * A file or exam of the patient (radiograph, photograph, lab result PDF…). The bytes live in the
 * file storage (DATA_DIR/uploads by default) under `storage_key`, a generated name; the original
 * name is only shown and sent back in Content-Disposition.
 */
export const patientFiles = pgTable(
  'patient_files',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    fileType: text('file_type').notNull(),
    note: text('note'),
    originalName: text('original_name').notNull(),
    /** Detected from the content, never taken from the name or the browser. */
    mimeType: text('mime_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    /** A small JPEG/PNG preview for images, in the same storage; null for PDFs. */
    thumbnailKey: text('thumbnail_key'),
    takenOn: date('taken_on', { mode: 'string' }),
    attendanceId: uuid('attendance_id'),
    /** The diagnosis or laboratory order the file belongs to (issue 24); removed from it, null. */
    diagnosisId: uuid('diagnosis_id'),
    laboratoryId: uuid('laboratory_id'),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table),
    clinicRef(table, table.attendanceId, attendances),
    clinicRef(table, table.diagnosisId, diagnoses),
    clinicRef(table, table.laboratoryId, laboratories),
    newestOfPatientIndex('patient_files_patient_idx', table, table.createdAt),
    // A record's files, newest first; led by the clinic (db/clinic-indexes.ts).
    index('patient_files_diagnosis_idx')
      .on(table.accountId, table.diagnosisId, table.createdAt.desc())
      .where(sql`${table.diagnosisId} is not null`),
    index('patient_files_laboratory_idx')
      .on(table.accountId, table.laboratoryId, table.createdAt.desc())
      .where(sql`${table.laboratoryId} is not null`),
    // A file belongs to one record at most.
    check(
      'patient_files_one_record',
      sql`num_nonnulls(${table.attendanceId}, ${table.diagnosisId}, ${table.laboratoryId}) <= 1`,
    ),
    check(
      'patient_files_type',
      sql`${table.fileType} in ('x_ray', 'dental_radiography', 'photo', 'lab_result', 'other')`,
    ),
    check('patient_files_size', sql`${table.sizeBytes} > 0`),
  ],
);

/**
 * A health certificate (issue 24): attendance, rest, fitness or free text, from a template whose
 * placeholders were filled when it was issued. The professional's name, licence and specialty are
 * copied at issue; the printed fields never change after (only `notes`, internal). A mistake is
 * voided (`voided_*`, with the reason) and issued again (`replaces_id` names the voided one).
 */
export const healthCertificates = pgTable(
  'health_certificates',
  {
    ...clinicRowColumns,
    patientId: uuid('patient_id').notNull(),
    kind: text('kind').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    ...signingProfessional,
    addressee: text('addressee'),
    visitTime: text('visit_time'),
    restFrom: date('rest_from', { mode: 'string' }),
    restTo: date('rest_to', { mode: 'string' }),
    diagnosis: text('diagnosis'),
    showDiagnosis: boolean('show_diagnosis').notNull().default(false),
    activity: text('activity'),
    text: text('text').notNull(),
    notes: text('notes'),
    verificationCode: text('verification_code').notNull(),
    replacesId: uuid('replaces_id'),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidedBy: uuid('voided_by'),
    voidReason: text('void_reason'),
    ...recordStamps,
  },
  (table) => [
    ...patientRecordKeys(table, table.professionalId, table.voidedBy),
    clinicRef(table, table.replacesId, table),
    newestOfPatientIndex('health_certificates_patient_idx', table, table.date),
    uniqueIndex('health_certificates_verification_code_unique').on(table.accountId, table.verificationCode),
    check('health_certificates_kind', sql`${table.kind} in ('attendance', 'rest', 'fitness', 'free')`),
    check(
      'health_certificates_rest',
      sql`${table.kind} <> 'rest' or (${table.restFrom} is not null and ${table.restTo} >= ${table.restFrom})`,
    ),
    check('health_certificates_void', sql`(${table.voidedAt} is null) = (${table.voidReason} is null)`),
  ],
);
