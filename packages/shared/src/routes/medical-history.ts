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
import { patientRecordParamsSchema } from '../schemas/records.ts';
import { patientRecordApiRoutes } from './records.ts';

const pdf = ['application/pdf'] as const;

/** The clinical records of a patient's medical history (issues 5, 6, 24): /api/patients/:patientId/<collection>. */
export const diagnosisRecord = patientRecordApiRoutes('diagnoses', diagnosisContracts);
export const laboratoryRecord = patientRecordApiRoutes('laboratories', laboratoryContracts);
export const attendanceRecord = patientRecordApiRoutes('attendances', attendanceContracts);
export const prescriptionRecord = patientRecordApiRoutes('prescriptions', prescriptionContracts);
export const certificateRecord = patientRecordApiRoutes('certificates', healthCertificateContracts);

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
