import { apiRoute } from '../api-route.ts';
import { recordParamsSchema } from '../schemas/records.ts';
import {
  chairContracts,
  professionalScheduleParamsSchema,
  reminderSettingsAnswerSchema,
  saveReminderSettingsRequestSchema,
  saveScheduleRequestSchema,
  scheduleAnswerSchema,
  scheduleExceptionContracts,
  scheduleExceptionsQuerySchema,
  schedulesResponseSchema,
} from '../schemas/schedules.ts';
import { recordApiRoutes } from './records.ts';

/** The agenda's settings (issue 16): the clinic's opening hours, professionals' weeks, reminders. */
export const scheduleRoutes = {
  all: apiRoute({ method: 'GET', path: '/schedules', answer: schedulesResponseSchema }),
  saveClinic: apiRoute({
    method: 'PUT',
    path: '/schedules/clinic',
    body: saveScheduleRequestSchema,
    answer: scheduleAnswerSchema,
  }),
  saveProfessional: apiRoute({
    method: 'PUT',
    path: '/schedules/professionals/:professionalId',
    params: professionalScheduleParamsSchema,
    body: saveScheduleRequestSchema,
    answer: scheduleAnswerSchema,
  }),
  reminders: apiRoute({ method: 'GET', path: '/schedules/reminders', answer: reminderSettingsAnswerSchema }),
  saveReminders: apiRoute({
    method: 'PUT',
    path: '/schedules/reminders',
    body: saveReminderSettingsRequestSchema,
    answer: reminderSettingsAnswerSchema,
  }),
};

/** The clinic's own records of the agenda: no path params besides one record's id. */
const params = { list: undefined, record: recordParamsSchema };

/** Holidays, vacations and blocks: /api/schedule-exceptions. */
export const scheduleExceptionRecord = recordApiRoutes({
  path: '/schedule-exceptions',
  contracts: scheduleExceptionContracts,
  params,
  listQuery: scheduleExceptionsQuerySchema,
});

/** The clinic's chairs (boxes): /api/chairs. */
export const chairRecord = recordApiRoutes({ path: '/chairs', contracts: chairContracts, params });
