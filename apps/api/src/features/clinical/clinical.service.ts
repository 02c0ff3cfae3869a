import type { FieldError } from '@odontia/shared/errors';
import type { Professional } from '@odontia/shared/schemas/clinical';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import * as repository from './clinical.repository.ts';

/** Checks shared by the clinical records of the medical history (issue 5). */

/** The transaction and the clinic (a request context has both). */
export interface TenantScope {
  readonly tx: TenantTx;
  readonly accountId: string;
}

/** 404 patient_not_found for a deleted patient or another clinic's. Locks the patient (share) for a write. */
export async function requirePatient(
  ctx: TenantScope,
  patientId: string,
  options: { lock?: boolean } = {},
): Promise<void> {
  if (!(await repository.patientExists(ctx.tx, ctx.accountId, patientId, options))) {
    throw new AppError('patient_not_found');
  }
}

/** 400 validation_error on the field when the professional is not an active user of the clinic. */
export async function requireProfessional(ctx: TenantScope, professionalId: string): Promise<void> {
  await professionalDetails(ctx, professionalId);
}

/** The professional's name, licence and specialty (a prescription copies them); 400 like requireProfessional. */
export async function professionalDetails(ctx: TenantScope, professionalId: string) {
  const found = await repository.findProfessional(ctx.tx, ctx.accountId, professionalId);
  if (!found) throw invalidFields([{ path: 'professionalId', code: 'invalid_value' }]);
  return found;
}

export function invalidFields(fields: FieldError[]): AppError {
  return new AppError('validation_error', { fields });
}

/** The professionals a clinical form offers: the clinic's active users who are not customers. */
export function listProfessionals(ctx: TenantScope): Promise<Professional[]> {
  return repository.listProfessionals(ctx);
}
