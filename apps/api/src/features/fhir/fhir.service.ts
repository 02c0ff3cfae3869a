import type { FhirBundleBody } from '@odontia/shared/schemas/fhir';
import type { RequestContext, TxContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { audit } from '../audit/audit.repository.ts';
import { loadPatientRecord } from './fhir.repository.ts';
import { patientBundle } from './fhir-bundle.ts';
import { importBundle } from './fhir-import.ts';

/** The patient's bundle (404 patient_not_found for another clinic's or a deleted patient). */
export async function buildPatientBundle(ctx: TxContext, patientId: string, apiBase: string) {
  const record = await loadPatientRecord(ctx, patientId);
  if (!record) throw new AppError('patient_not_found');
  return { record, bundle: patientBundle(record, { apiBase, timestamp: new Date() }) };
}

export const fhirService = {
  /** GET /api/patients/:patientId/fhir: the bundle, audited (who took whose record, when). */
  async exportPatient({ ctx, patientId, apiBase }: { ctx: RequestContext; patientId: string; apiBase: string }) {
    const { bundle } = await buildPatientBundle(ctx, patientId, apiBase);
    const entries = (bundle.entry as unknown[]).length;
    await audit(ctx, {
      patientId,
      action: 'patient_fhir_exported',
      entity: 'patient',
      entityId: patientId,
      after: { format: 'fhir-r4', entries },
    });
    return bundle;
  },

  async importPatient({ ctx, bundle }: { ctx: RequestContext; bundle: FhirBundleBody }) {
    return { data: await importBundle(ctx, bundle), code: 'patient_imported' as const };
  },
};
