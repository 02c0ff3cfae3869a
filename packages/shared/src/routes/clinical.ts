import { apiRoute } from '../api-route.ts';
import {
  budgetLinesQuerySchema,
  budgetLinesResponseSchema,
  recentAttendancesQuerySchema,
  recentAttendancesResponseSchema,
} from '../schemas/attendances.ts';
import { professionalsResponseSchema } from '../schemas/clinical.ts';
import { certificateByCodeParamsSchema, certificateByCodeResponseSchema } from '../schemas/health-certificates.ts';
import { prescriptionByCodeParamsSchema, prescriptionByCodeResponseSchema } from '../schemas/prescriptions.ts';
import { patientParamsSchema } from '../schemas/records.ts';

/**
 * What the clinical forms read besides the records (routes/medical-history.ts): the professionals
 * they pick from, the clinic's latest attendances, an attendance line's pending budget lines, a document found by its verification code.
 */
export const clinicalRoutes = {
  professionals: apiRoute({ method: 'GET', path: '/professionals', answer: professionalsResponseSchema }),
  /** The clinic's latest attendances across patients (the dashboard). */
  recentAttendances: apiRoute({
    method: 'GET',
    path: '/attendances/recent',
    query: recentAttendancesQuerySchema,
    answer: recentAttendancesResponseSchema,
  }),
  budgetLines: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/budget-lines',
    params: patientParamsSchema,
    query: budgetLinesQuerySchema,
    answer: budgetLinesResponseSchema,
  }),
  prescriptionByCode: apiRoute({
    method: 'GET',
    path: '/prescriptions/by-code/:code',
    params: prescriptionByCodeParamsSchema,
    answer: prescriptionByCodeResponseSchema,
  }),
  certificateByCode: apiRoute({
    method: 'GET',
    path: '/certificates/by-code/:code',
    params: certificateByCodeParamsSchema,
    answer: certificateByCodeResponseSchema,
  }),
};
