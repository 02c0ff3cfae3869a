import type { Language } from '@odontia/shared/enums';
import type { PortalMe } from '@odontia/shared/schemas/portal';
import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { sessionOf } from '../../plugins/auth.ts';
import * as repository from './portal.repository.ts';

/**
 * The patient of a portal request (issue 37): a customer session's `patientId`, carried by the
 * session check. Staff have no `portal.use`, so a portal route never reaches here without one;
 * the check stays as the last line of defence.
 */
export function portalPatientOf(source: FastifyRequest | Pick<RequestContext, 'patientId'>): string {
  const patientId = 'session' in source ? sessionOf(source).patientId : source.patientId;
  if (!patientId) throw new AppError('forbidden');
  return patientId;
}

/** GET /api/portal/me: the patient, their clinic and the portal's settings. */
export async function portalMe(ctx: RequestContext): Promise<PortalMe> {
  const patientId = portalPatientOf(ctx);
  const [patient, clinic] = await Promise.all([
    repository.findOwnPatient(ctx.tx, patientId),
    repository.findOwnClinic(ctx.tx, ctx.accountId),
  ]);
  // A patient deleted since the session began: the portal is gone with them.
  if (!patient || !clinic) throw new AppError('unauthorized');
  return {
    patient: { ...patient, language: patient.language as Language },
    clinic: clinic.clinic,
    settings: {
      cancellationWindowHours: repository.defaultCancellationWindowHours,
      paymentInstructions: clinic.paymentInstructions,
    },
  };
}
