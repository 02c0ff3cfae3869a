import { type RecordScope, recordRepository } from '../../db/records.ts';
import { healthCertificates } from '../../db/schema/index.ts';
import { findPaperByCode, newestFirst, paperCodeTaken } from '../clinical/clinical.repository.ts';

/**
 * A patient's health certificates (tenant context), newest first from the patient index. The
 * professional's details are copied at issue: no name to join.
 */
export const certificatesRepository = recordRepository({
  table: healthCertificates,
  scope: ['patientId'],
  order: newestFirst(healthCertificates.date, healthCertificates.id),
});

/** The clinic's live certificate with this verification code, of a live patient, and who that is. */
export const findByCode = (scope: RecordScope, code: string) => findPaperByCode(scope, healthCertificates, code);

/** Whether any certificate of the clinic, deleted or not, has this code. */
export const codeTaken = (scope: RecordScope, code: string) => paperCodeTaken(scope, healthCertificates, code);
