import { recordRepository } from '../../db/records.ts';
import { laboratories } from '../../db/schema/index.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';

/** A patient's laboratory orders (tenant context), newest order first from the patient index. */
export const laboratoriesRepository = recordRepository({
  table: laboratories,
  scope: ['patientId'],
  people: { professionalName: laboratories.professionalId },
  order: newestFirst(laboratories.orderDate, laboratories.id),
});
