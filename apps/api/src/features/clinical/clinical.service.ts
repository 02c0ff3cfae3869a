import type { FieldError } from '@odontia/shared/errors';
import type { Professional } from '@odontia/shared/schemas/clinical';
import type { Database } from '../../db/client.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repository from './clinical.repository.ts';

/** Checks shared by the clinical records of the medical history (issue 5). */

/** 404 patient_not_found for a deleted patient or another clinic's. Locks the patient (share) for a write. */
export async function requirePatient(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  options: { lock?: boolean } = {},
): Promise<void> {
  const found = options.lock
    ? await repository.lockPatient(tx, accountId, patientId)
    : await repository.patientVisible(tx, accountId, patientId);
  if (!found) throw new AppError('patient_not_found');
}

/** 400 validation_error on the field when the professional is not an active user of the clinic. */
export async function requireProfessional(tx: TenantTx, accountId: string, professionalId: string): Promise<void> {
  const found = await repository.findProfessional(tx, accountId, professionalId);
  if (!found) throw invalidFields([{ path: 'professionalId', code: 'invalid_value' }]);
}

export function invalidFields(fields: FieldError[]): AppError {
  return new AppError('validation_error', { fields });
}

/** The professionals a clinical form offers: the clinic's active users who are not customers. */
export async function listProfessionals(db: Database, accountId: string): Promise<Professional[]> {
  return db.withTenant(accountId, (tx) => repository.listProfessionals(tx, accountId));
}
