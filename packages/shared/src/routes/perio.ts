import { apiRoute } from '../api-route.ts';
import {
  closePerioExamRequestSchema,
  createPerioExamRequestSchema,
  perioExamDeletedSchema,
  perioExamOneSchema,
  perioExamsPageSchema,
  perioTeethQuerySchema,
  perioTeethSchema,
  updatePerioExamRequestSchema,
} from '../schemas/perio.ts';
import { patientParamsSchema, patientRecordParamsSchema } from '../schemas/records.ts';
import { recordApiRoutes } from './records.ts';

/**
 * /api/patients/:patientId/perio-exams (issue 41): a patient's periodontal exams — the usual
 * record routes (the list answers summaries without the teeth), the teeth a new exam charts,
 * closing an exam and its printout.
 */
export const perioExamRecord = recordApiRoutes({
  path: '/patients/:patientId/perio-exams',
  contracts: {
    name: 'perio_exam',
    create: createPerioExamRequestSchema,
    update: updatePerioExamRequestSchema,
    one: perioExamOneSchema,
    page: perioExamsPageSchema,
    deleted: perioExamDeletedSchema,
  },
  params: { list: patientParamsSchema, record: patientRecordParamsSchema },
});

export const perioExamRoutes = {
  ...perioExamRecord.routes,
  teeth: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/perio-teeth',
    params: patientParamsSchema,
    query: perioTeethQuerySchema,
    answer: perioTeethSchema,
  }),
  close: apiRoute({
    method: 'POST',
    path: '/patients/:patientId/perio-exams/:id/close',
    params: patientRecordParamsSchema,
    body: closePerioExamRequestSchema,
    answer: perioExamOneSchema,
  }),
  pdf: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/perio-exams/:id/exam.pdf',
    params: patientRecordParamsSchema,
    produces: ['application/pdf'],
  }),
};
