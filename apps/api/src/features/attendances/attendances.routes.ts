import { clinicalRoutes } from '@odontia/shared/routes/clinical';
import { attendanceRecord, clinicalRecordExtras as extras } from '@odontia/shared/routes/medical-history';
import type { FastifyPluginAsync } from 'fastify';
import { medicalRecordRoutes } from '../clinical/medical-record-routes.ts';
import { attendancesService } from './attendances.service.ts';

/**
 * /api/patients/:patientId/attendances (issue 5), and POST …/:id/addenda for a finished one. A
 * deleted patient or another clinic's answers 404 patient_not_found; an attendance of another
 * patient or clinic, 404 attendance_not_found.
 */
export const attendancesRoutes: FastifyPluginAsync = async (app) => {
  const { route, read, write } = medicalRecordRoutes(app, {
    declared: attendanceRecord,
    service: attendancesService,
    summaries: {
      list: "A patient's attendances, newest first",
      get: 'One attendance',
      create:
        'Add an attendance; the supplies and medicines used leave stock in the same transaction (409 insufficient_stock refuses it all)',
      update:
        'Edit an open attendance (409 attendance_finished once finished); stock moves by the difference; 409 version_conflict with the current values',
      remove:
        'Delete an open attendance: hidden from now on, its supplies and medicines back in stock; the record and its audit are kept',
      changes: "The attendance's history of changes (audit events), newest first",
    },
  });

  route.serve(
    clinicalRoutes.recentAttendances,
    {
      ...read,
      summary:
        "The clinic's latest attendances across patients, newest first (at most 20), with patient and professional",
    },
    async ({ ctx, query }) => ({ data: await attendancesService.recent({ ctx, limit: query.limit }) }),
  );

  route.serve(
    clinicalRoutes.budgetLines,
    {
      ...read,
      summary:
        "Lines of the patient's accepted budgets still to carry out (budget number, treatment, tooth, quantity, done), for an attendance line",
    },
    async ({ ctx, params, query }) => ({
      data: await attendancesService.budgetLines({
        ctx,
        patientId: params.patientId,
        attendanceId: query.attendanceId ?? null,
      }),
    }),
  );

  route.serve(
    extras.addendum,
    {
      ...write,
      failureCode: 'error_update_attendance',
      summary: 'Add a dated addendum to a finished attendance (409 attendance_not_finished on an open one)',
    },
    async ({ ctx, params, body }) => ({
      data: await attendancesService.addAddendum({ ctx, ...params, text: body.text }),
      code: 'attendance_addendum_created' as const,
    }),
  );
};
