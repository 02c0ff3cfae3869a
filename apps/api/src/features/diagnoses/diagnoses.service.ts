import type { Diagnosis, DiagnosisInput } from '@odontia/shared/schemas/diagnoses';
import { presentStamps } from '../../db/records.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { patientRecordService, releaseFilesOfRecord } from '../clinical/clinical.service.ts';
import { diagnosesRepository } from './diagnoses.repository.ts';

/**
 * Diagnoses of a patient's medical history (issue 5): audited, versioned, soft-deleted records
 * whose professional must be an active user of the clinic.
 */

function columnsOf(input: Omit<DiagnosisInput, 'status'> & { status: string }) {
  return {
    date: input.date,
    professionalId: input.professionalId,
    text: input.text,
    icd10Code: input.icd10Code ?? null,
    teeth: input.teeth,
    status: input.status,
    notes: input.notes ?? null,
  };
}

const records = auditedRecords({
  repository: diagnosesRepository,
  entity: 'diagnosis',
  notFound: 'diagnosis_not_found',
  columnsOf,
  present: (row): Diagnosis => ({
    id: row.id,
    patientId: row.patientId,
    date: row.date,
    professionalId: row.professionalId,
    professionalName: row.professionalName,
    text: row.text,
    icd10Code: row.icd10Code,
    teeth: row.teeth,
    status: row.status,
    notes: row.notes,
    ...presentStamps(row),
  }),
});

export const diagnosesService = patientRecordService(records, columnsOf, {
  removed: (ctx, patientId, id) => releaseFilesOfRecord(ctx, patientId, 'diagnosis', id),
});
