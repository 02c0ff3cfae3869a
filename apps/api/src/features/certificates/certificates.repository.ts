import { and, eq } from 'drizzle-orm';
import { liveWhere, type RecordScope, recordRepository } from '../../db/records.ts';
import { healthCertificates, patients } from '../../db/schema/index.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';

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
export async function findByCode({ tx, accountId }: RecordScope, code: string) {
  const [row] = await tx
    .select({
      id: healthCertificates.id,
      patientId: healthCertificates.patientId,
      firstName: patients.firstName,
      lastName: patients.lastName,
      ssn: patients.ssn,
    })
    .from(healthCertificates)
    .innerJoin(patients, liveWhere(patients, healthCertificates.accountId, patients.id, healthCertificates.patientId))
    .where(liveWhere(healthCertificates, accountId, healthCertificates.verificationCode, code));
  return row;
}

/** Whether any certificate of the clinic, deleted or not, has this code. */
export async function codeTaken({ tx, accountId }: RecordScope, code: string): Promise<boolean> {
  const rows = await tx
    .select({ id: healthCertificates.id })
    .from(healthCertificates)
    .where(and(eq(healthCertificates.accountId, accountId), eq(healthCertificates.verificationCode, code)));
  return rows.length > 0;
}
