import { apiRoute } from '../api-route.ts';
import {
  appointmentActionRequestSchema,
  appointmentContracts,
  appointmentLinkAnswerSchema,
  appointmentLinkParamsSchema,
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
} from '../schemas/appointments.ts';
import {
  patientParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
  recordParamsSchema,
} from '../schemas/records.ts';

const one = appointmentContracts.one;

/** A transition of one appointment (POST /appointments/:id/<action>) that takes only its version. */
const transition = <const TPath extends `/appointments/:id/${string}`>(path: TPath) =>
  apiRoute({ method: 'POST', path, params: recordParamsSchema, body: appointmentActionRequestSchema, answer: one });

/** /api/appointments and /api/patients/:patientId/appointments (issue 16): the agenda. */
export const appointmentRoutes = {
  calendar: apiRoute({
    method: 'GET',
    path: '/appointments/calendar',
    query: calendarQuerySchema,
    answer: calendarResponseSchema,
  }),
  freeSlots: apiRoute({
    method: 'GET',
    path: '/appointments/free-slots',
    query: freeSlotsQuerySchema,
    answer: freeSlotsResponseSchema,
  }),
  list: apiRoute({
    method: 'GET',
    path: '/appointments',
    query: appointmentsListQuerySchema,
    answer: appointmentsPageSchema,
  }),
  ofPatient: apiRoute({
    method: 'GET',
    path: '/patients/:patientId/appointments',
    params: patientParamsSchema,
    query: patientAppointmentsQuerySchema,
    answer: appointmentsPageSchema,
  }),
  get: apiRoute({ method: 'GET', path: '/appointments/:id', params: recordParamsSchema, answer: one }),
  create: apiRoute({
    method: 'POST',
    path: '/appointments',
    body: appointmentContracts.create,
    answer: one,
    status: 201,
  }),
  update: apiRoute({
    method: 'PUT',
    path: '/appointments/:id',
    params: recordParamsSchema,
    body: appointmentContracts.update,
    answer: one,
  }),
  remove: apiRoute({
    method: 'DELETE',
    path: '/appointments/:id',
    params: recordParamsSchema,
    answer: appointmentContracts.deleted,
  }),
  changes: apiRoute({
    method: 'GET',
    path: '/appointments/:id/changes',
    params: recordParamsSchema,
    query: recordChangesQuerySchema,
    answer: recordChangesPageSchema,
  }),
  cancel: apiRoute({
    method: 'POST',
    path: '/appointments/:id/cancel',
    params: recordParamsSchema,
    body: cancelAppointmentRequestSchema,
    answer: one,
  }),
  confirm: apiRoute({
    method: 'POST',
    path: '/appointments/:id/confirm',
    params: recordParamsSchema,
    body: confirmAppointmentRequestSchema,
    answer: one,
  }),
  unconfirm: transition('/appointments/:id/unconfirm'),
  arrive: transition('/appointments/:id/arrive'),
  complete: transition('/appointments/:id/complete'),
  restore: apiRoute({
    method: 'POST',
    path: '/appointments/:id/restore',
    params: recordParamsSchema,
    body: restoreAppointmentRequestSchema,
    answer: one,
  }),
};

/** A reminder's confirm and cancel links (issue 16): public, the token in the path is the key. */
export const appointmentLinkRoutes = {
  show: apiRoute({
    method: 'GET',
    path: '/public/appointment-links/:token',
    params: appointmentLinkParamsSchema,
    answer: appointmentLinkAnswerSchema,
  }),
  answer: apiRoute({
    method: 'POST',
    path: '/public/appointment-links/:token',
    params: appointmentLinkParamsSchema,
    answer: appointmentLinkAnswerSchema,
  }),
};
