import { recordRepository } from '../../db/records.ts';
import { diagnoses } from '../../db/schema/index.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';

/** A patient's diagnoses (tenant context), newest first from `diagnoses_patient_idx`. */
export const diagnosesRepository = recordRepository({
  table: diagnoses,
  scope: ['patientId'],
  people: { professionalName: diagnoses.professionalId },
  order: newestFirst(diagnoses.date, diagnoses.id),
});
