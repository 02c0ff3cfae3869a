import { apiRoute } from '../api-route.ts';
import { attendanceContracts, createAddendumRequestSchema } from '../schemas/attendances.ts';
import { diagnosisContracts } from '../schemas/diagnoses.ts';
import {
  healthCertificateContracts,
  healthCertificateVoidedResponseSchema,
  voidHealthCertificateRequestSchema,
} from '../schemas/health-certificates.ts';
import { laboratoryContracts } from '../schemas/laboratories.ts';
import { prescriptionContracts } from '../schemas/prescriptions.ts';
import { patientParamsSchema, patientRecordParamsSchema } from '../schemas/records.ts';
import { recordApiRoutes } from './records.ts';

/** The clinical records of a patient's medical history (issues 5, 6, 24): /api/patients/:patientId/<collection>. */
const params = { list: patientParamsSchema, record: patientRecordParamsSchema };
const pdf = ['application/pdf'] as const;

export const diagnosisRecord = recordApiRoutes({
  path: '/patients/:patientId/diagnoses',
  contracts: diagnosisContracts,
  params,
});

export const laboratoryRecord = recordApiRoutes({
  path: '/patients/:patientId/laboratories',
  contracts: laboratoryContracts,
  params,
});

export const attendanceRecord = recordApiRoutes({
  path: '/patients/:patientId/attendances',
  contracts: attendanceContracts,
  params,
});

export const prescriptionRecord = recordApiRoutes({
  path: '/patients/:patientId/prescriptions',
  contracts: prescriptionContracts,
  params,
});

export const certificateRecord = recordApiRoutes({
  path: '/patients/:patientId/certificates',
  contracts: healthCertificateContracts,
  params,
});

/** What some records add to the usual routes: their printouts, a certificate's void, an attendance's addenda. */
export const clinicalRecordExtras = {
  laboratoryOrderPdf: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/laboratories/:id/order.pdf',
    params: patientRecordParamsSchema,
    produces: pdf,
  }),
  prescriptionPdf: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/prescriptions/:id/pdf',
    params: patientRecordParamsSchema,
    produces: pdf,
  }),
  certificatePdf: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/certificates/:id/pdf',
    params: patientRecordParamsSchema,
    produces: pdf,
  }),
  voidCertificate: apiRoute({
    method: 'POST',
    path: '/patients/:patientId/certificates/:id/void',
    params: patientRecordParamsSchema,
    body: voidHealthCertificateRequestSchema,
    answer: healthCertificateVoidedResponseSchema,
  }),
  addendum: apiRoute({
    method: 'POST',
    path: '/patients/:patientId/attendances/:id/addenda',
    params: patientRecordParamsSchema,
    body: createAddendumRequestSchema,
    answer: attendanceContracts.one,
    status: 201,
  }),
};
