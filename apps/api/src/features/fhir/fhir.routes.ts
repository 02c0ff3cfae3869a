import { fhirRoutes as declared } from '@odontia/shared/routes/fhir';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { fhirService as service } from './fhir.service.ts';

/** /api/patients/:patientId/fhir and /api/fhir/import (issue 42): a patient's record in FHIR R4. */
export const fhirRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['fhir'] });
  const apiBase = `${app.env.PUBLIC_URL}api`;

  route.serve(
    declared.export,
    {
      permission: 'patients.export',
      failureCode: 'error_export_fhir',
      summary:
        "The patient's record as a FHIR R4 collection Bundle (application/fhir+json): Patient, Condition, Procedure, Observation, Appointment, MedicationRequest, Consent, DocumentReference, Invoice, ChargeItem; audited",
    },
    async ({ ctx, params, reply }) => {
      const bundle = await service.exportPatient({ ctx, patientId: params.patientId, apiBase });
      return reply
        .type('application/fhir+json; charset=utf-8')
        .header('content-disposition', `attachment; filename="patient-${params.patientId}.fhir.json"`)
        .header('cache-control', 'no-store')
        .send(JSON.stringify(bundle));
    },
  );

  route.serve(
    declared.import,
    {
      permission: 'patients.import',
      failureCode: 'error_import_fhir',
      // A whole record: up to 20 MB of JSON.
      bodyLimit: 20 * 1024 * 1024,
      summary:
        'A patient moving in from another clinic: a FHIR R4 collection Bundle becomes a new patient and their clinical records (new ids, each audited); 422 fhir_bundle_invalid when it is not one; the entries it cannot map are reported one by one and left out',
    },
    ({ ctx, body }) => service.importPatient({ ctx, bundle: body }),
  );
};
