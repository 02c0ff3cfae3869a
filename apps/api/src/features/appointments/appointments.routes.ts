import {
  appointmentActionRequestSchema,
  appointmentContracts,
  appointmentsListQuerySchema,
  appointmentsPageSchema,
  calendarQuerySchema,
  calendarResponseSchema,
  cancelAppointmentRequestSchema,
  confirmAppointmentRequestSchema,
  freeSlotsQuerySchema,
  freeSlotsResponseSchema,
  patientAppointmentsQuerySchema,
  restoreAppointmentRequestSchema,
} from '@odontia/shared/schemas/appointments';
import {
  patientParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
  recordParamsSchema,
} from '@odontia/shared/schemas/records';
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
  const one = appointmentContracts.one;

  route.get(
    '/appointments/calendar',
    {
      ...read,
      summary:
        'The appointments overlapping [from, to) (at most 42 days) of the professionals or chairs named, in start order; cancelled and moved ones with inactive=true',
      querystring: calendarQuerySchema,
      answer: calendarResponseSchema,
    },
    async ({ ctx, query }) => ({ data: await appointmentsService.calendar({ ctx, query }) }),
  );

  route.get(
    '/appointments/free-slots',
    {
      ...read,
      summary:
        "The next free times for a duration, every quarter hour, within the professional's hours (the clinic's when they have none), outside recesses, exceptions and other appointments",
      querystring: freeSlotsQuerySchema,
      answer: freeSlotsResponseSchema,
    },
    async ({ ctx, query }) => ({ data: await appointmentsService.freeSlots({ ctx, query }) }),
  );

  route.get(
    '/appointments',
    {
      ...read,
      summary: 'The appointments by patient name, status, professional and dates, soonest first (-startsAt: newest)',
      querystring: appointmentsListQuerySchema,
      answer: appointmentsPageSchema,
    },
    ({ ctx, query }) => appointmentsService.list({ ctx, query }),
  );

  route.get(
    '/patients/:patientId/appointments',
    {
      ...read,
      summary: "A patient's appointments: the next ones soonest first, then the past ones newest first",
      params: patientParamsSchema,
      querystring: patientAppointmentsQuerySchema,
      answer: appointmentsPageSchema,
    },
    ({ ctx, params, query }) => appointmentsService.ofPatient({ ctx, patientId: params.patientId, query }),
  );

  route.get(
    '/appointments/:id',
    { ...read, summary: 'One appointment', params: recordParamsSchema, answer: one },
    async ({ ctx, params }) => ({ data: await appointmentsService.get({ ctx, id: params.id }) }),
  );

  route.post(
    '/appointments',
    {
      ...write,
      failureCode: 'error_create_appointment',
      summary:
        'Book an appointment; 409 appointment_overlaps (the other one named), 409 appointment_outside_schedule (details.reasons) unless allowOutsideSchedule',
      body: appointmentContracts.create,
      answer: one,
      status: 201,
    },
    async ({ ctx, body }) => ({
      data: await appointmentsService.create({ ctx, input: body }),
      code: 'appointment_created' as const,
    }),
  );

  route.put(
    '/appointments/:id',
    {
      ...write,
      summary:
        'Edit a scheduled appointment; a new start moves it (appointment_rescheduled with the new appointment); 409 version_conflict, appointment_not_scheduled, appointment_overlaps, appointment_outside_schedule',
      params: recordParamsSchema,
      body: appointmentContracts.update,
      answer: one,
    },
    async ({ ctx, params, body }) => {
      const { appointment, rescheduled } = await appointmentsService.update({ ctx, id: params.id, input: body });
      return {
        data: appointment,
        code: rescheduled ? ('appointment_rescheduled' as const) : ('appointment_updated' as const),
      };
    },
  );

  route.delete(
    '/appointments/:id',
    {
      ...write,
      failureCode: 'error_delete_appointment',
      summary: 'Delete an appointment booked by mistake: hidden from now on; the row and its audit are kept',
      params: recordParamsSchema,
      answer: appointmentContracts.deleted,
    },
    async ({ ctx, params }) => {
      await appointmentsService.remove({ ctx, id: params.id });
      return { code: 'appointment_deleted' as const };
    },
  );

  route.get(
    '/appointments/:id/changes',
    {
      ...read,
      summary: "The appointment's history of changes (audit events), newest first",
      params: recordParamsSchema,
      querystring: recordChangesQuerySchema,
      answer: recordChangesPageSchema,
    },
    ({ ctx, params, query }) => appointmentsService.changes({ ctx, id: params.id, query }),
  );

  route.post(
    '/appointments/:id/cancel',
    {
      ...write,
      summary: 'Cancel with a reason (no_show once started: 409 appointment_not_started; other needs a note)',
      params: recordParamsSchema,
      body: cancelAppointmentRequestSchema,
      answer: one,
    },
    async ({ ctx, params, body }) => ({
      data: await appointmentsService.cancel({ ctx, id: params.id, input: body }),
      code: 'appointment_cancelled' as const,
    }),
  );

  route.post(
    '/appointments/:id/confirm',
    {
      ...write,
      summary: "Record the patient's confirmation: channel, time and who recorded it",
      params: recordParamsSchema,
      body: confirmAppointmentRequestSchema,
      answer: one,
    },
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
    route.post(
      `/appointments/:id/${action}`,
      { ...write, summary, params: recordParamsSchema, body: appointmentActionRequestSchema, answer: one },
      async ({ ctx, params, body }) => ({
        data: await appointmentsService[action]({ ctx, id: params.id, input: body }),
        code,
      }),
    );
  }

  route.post(
    '/appointments/:id/restore',
    {
      ...write,
      summary:
        'A cancelled appointment back to scheduled when its time is still free (409 appointment_not_cancelled, appointment_overlaps, appointment_outside_schedule)',
      params: recordParamsSchema,
      body: restoreAppointmentRequestSchema,
      answer: one,
    },
    async ({ ctx, params, body }) => ({
      data: await appointmentsService.restore({ ctx, id: params.id, input: body }),
      code: 'appointment_restored' as const,
    }),
  );
};
