import { apiRoute } from '../api-route.ts';
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

/** Holidays, vacations and blocks: /api/schedule-exceptions. */
export const scheduleExceptionRecord = recordApiRoutes({
  path: '/schedule-exceptions',
  contracts: scheduleExceptionContracts,
  listQuery: scheduleExceptionsQuerySchema,
});

/** The clinic's chairs (boxes): /api/chairs. */
export const chairRecord = recordApiRoutes({ path: '/chairs', contracts: chairContracts });
