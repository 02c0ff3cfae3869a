import { recallRoutes as declared } from '@odontia/shared/routes/recalls';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { recallsService } from './recalls.service.ts';

/**
 * /api/recalls (issue 38): the list (by state, professional, treatment or patient), one recall with
 * its attempts, and the steps: log an attempt, book, close. Read as the agenda is (`patients.read`),
 * written as appointments are (`appointments.write`).
 */
export const recallsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['recalls'] });
  const read = { permission: 'patients.read', failureCode: 'error_get_recall' } as const;
  const write = { permission: 'appointments.write', failureCode: 'error_update_recall' } as const;

  route.serve(
    declared.list,
    {
      ...read,
      summary:
        "Recalls by due date: open (default), due (open, from the clinic's today), overdue, contacted, booked or closed; by professional, treatment or patient",
    },
    ({ ctx, query }) => recallsService.list({ ctx, query }),
  );
  route.serve(
    declared.get,
    { ...read, summary: 'One recall with its attempts, newest first' },
    async ({ ctx, params }) => ({
      data: await recallsService.get({ ctx, id: params.id }),
    }),
  );
  route.serve(
    declared.attempt,
    {
      ...write,
      summary: 'Log a call, message or e-mail and its outcome: the recall is contacted; 409 recall_not_open',
    },
    async ({ ctx, params, body }) => ({
      data: await recallsService.logAttempt({ ctx, id: params.id, input: body }),
      code: 'recall_attempt_logged' as const,
    }),
  );
  route.serve(
    declared.book,
    { ...write, summary: "Book the recall with one of the patient's appointments; 409 recall_not_open" },
    async ({ ctx, params, body }) => ({
      data: await recallsService.book({ ctx, id: params.id, appointmentId: body.appointmentId }),
      code: 'recall_booked' as const,
    }),
  );
  route.serve(
    declared.close,
    { ...write, summary: 'Close the recall with a reason; 409 recall_not_open' },
    async ({ ctx, params, body }) => ({
      data: await recallsService.close({ ctx, id: params.id, input: body }),
      code: 'recall_closed' as const,
    }),
  );
};
