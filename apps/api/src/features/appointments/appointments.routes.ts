import { appointmentRoutes as declared } from '@odontia/shared/routes/appointments';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { appointmentsService } from './appointments.service.ts';

/**
 * /api/appointments (issue 16): the calendar's range, the list, free slots, one appointment, book,
 * edit or move, delete, the history of changes and the transitions (cancel, confirm, unconfirm,
 * arrive, restore, complete); /api/patients/:patientId/appointments. Reading is `patients.read`,
 * every write `appointments.write` (docs/decisions.md "The agenda (issue 16): appointments").
 */
export const appointmentsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['agenda'] });
  const read = { permission: 'patients.read', failureCode: 'error_get_appointment' } as const;
  const write = { permission: 'appointments.write', failureCode: 'error_update_appointment' } as const;

  route.serve(
    declared.calendar,
    {
      ...read,
      summary:
        'The appointments overlapping [from, to) (at most 42 days) of the professionals or chairs named, in start order; cancelled and moved ones with inactive=true',
    },
    async ({ ctx, query }) => ({ data: await appointmentsService.calendar({ ctx, query }) }),
  );

  route.serve(
    declared.freeSlots,
    {
      ...read,
      summary:
        "The next free times for a duration, every quarter hour, within the professional's hours (the clinic's when they have none), outside recesses, exceptions and other appointments",
    },
    async ({ ctx, query }) => ({ data: await appointmentsService.freeSlots({ ctx, query }) }),
  );

  route.serve(
    declared.list,
    {
      ...read,
      summary: 'The appointments by patient name, status, professional and dates, soonest first (-startsAt: newest)',
    },
    ({ ctx, query }) => appointmentsService.list({ ctx, query }),
  );

  route.serve(
    declared.ofPatient,
    {
      ...read,
      summary: "A patient's appointments: the next ones soonest first, then the past ones newest first",
    },
    ({ ctx, params, query }) => appointmentsService.ofPatient({ ctx, patientId: params.patientId, query }),
  );

  route.serve(declared.get, { ...read, summary: 'One appointment' }, async ({ ctx, params }) => ({
    data: await appointmentsService.get({ ctx, id: params.id }),
  }));

  route.serve(
    declared.create,
    {
      ...write,
      failureCode: 'error_create_appointment',
      summary:
        'Book an appointment; 409 appointment_overlaps (the other one named), 409 appointment_outside_schedule (details.reasons) unless allowOutsideSchedule',
    },
    async ({ ctx, body }) => ({
      data: await appointmentsService.create({ ctx, input: body }),
      code: 'appointment_created' as const,
    }),
  );

  route.serve(
    declared.update,
    {
      ...write,
      summary:
        'Edit a scheduled appointment; a new start moves it (appointment_rescheduled with the new appointment); 409 version_conflict, appointment_not_scheduled, appointment_overlaps, appointment_outside_schedule',
    },
    async ({ ctx, params, body }) => {
      const { appointment, rescheduled } = await appointmentsService.update({ ctx, id: params.id, input: body });
      return {
        data: appointment,
        code: rescheduled ? ('appointment_rescheduled' as const) : ('appointment_updated' as const),
      };
    },
  );

  route.serve(
    declared.remove,
    {
      ...write,
      failureCode: 'error_delete_appointment',
      summary: 'Delete an appointment booked by mistake: hidden from now on; the row and its audit are kept',
    },
    async ({ ctx, params }) => {
      await appointmentsService.remove({ ctx, id: params.id });
      return { code: 'appointment_deleted' as const };
    },
  );

  route.serve(
    declared.changes,
    { ...read, summary: "The appointment's history of changes (audit events), newest first" },
    ({ ctx, params, query }) => appointmentsService.changes({ ctx, id: params.id, query }),
  );

  route.serve(
    declared.cancel,
    {
      ...write,
      summary: 'Cancel with a reason (no_show once started: 409 appointment_not_started; other needs a note)',
    },
    async ({ ctx, params, body }) => ({
      data: await appointmentsService.cancel({ ctx, id: params.id, input: body }),
      code: 'appointment_cancelled' as const,
    }),
  );

  route.serve(
    declared.confirm,
    { ...write, summary: "Record the patient's confirmation: channel, time and who recorded it" },
    async ({ ctx, params, body }) => ({
      data: await appointmentsService.confirm({ ctx, id: params.id, input: body }),
      code: 'appointment_confirmed' as const,
    }),
  );

  const actions = [
    ['unconfirm', 'appointment_unconfirmed', 'Clear the confirmation'],
    ['arrive', 'appointment_arrived', 'The patient is in the waiting room'],
    ['complete', 'appointment_completed', 'Mark the appointment as done'],
  ] as const;
  for (const [action, code, summary] of actions) {
    route.serve(declared[action], { ...write, summary }, async ({ ctx, params, body }) => ({
      data: await appointmentsService[action]({ ctx, id: params.id, input: body }),
      code,
    }));
  }

  route.serve(
    declared.restore,
    {
      ...write,
      summary:
        'A cancelled appointment back to scheduled when its time is still free (409 appointment_not_cancelled, appointment_overlaps, appointment_outside_schedule)',
    },
    async ({ ctx, params, body }) => ({
      data: await appointmentsService.restore({ ctx, id: params.id, input: body }),
      code: 'appointment_restored' as const,
    }),
  );
};
