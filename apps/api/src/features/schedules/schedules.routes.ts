import { chairRecord, scheduleRoutes as declared, scheduleExceptionRecord } from '@odontia/shared/routes/schedules';
import { priceListRoutes, treatmentRecord } from '@odontia/shared/routes/treatments';
import type { FastifyPluginAsync } from 'fastify';
import { sendCsv } from '../../lib/csv.ts';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { chairsService } from './chairs.service.ts';
import { scheduleExceptionsService, schedulesService } from './schedules.service.ts';
import { treatmentsService } from './treatments.service.ts';

/**
 * The agenda's settings (issue 16): /api/schedules (the clinic's opening hours, professionals'
 * weeks, reminder settings), /api/schedule-exceptions, /api/treatments, /api/chairs. Everyone who
 * reads the agenda reads them (patients.read); exceptions (holidays, vacations, blocks) are written
 * by whoever books (appointments.write); weeks, chairs, treatments and reminders by settings.manage.
 */
export const schedulesRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['schedules'] });
  const read = { permission: 'patients.read' } as const;
  const settings = { permission: 'settings.manage' } as const;

  route.serve(
    declared.all,
    {
      ...read,
      failureCode: 'error_get_schedule',
      summary: "The clinic's opening hours and every active professional's week (version 0: follows the clinic's)",
    },
    ({ ctx }) => schedulesService.all({ ctx }),
  );

  route.serve(
    declared.saveClinic,
    {
      ...settings,
      failureCode: 'error_update_schedule',
      summary:
        "Save the clinic's whole week of opening hours (version 0 the first time; 409 version_conflict when stale)",
    },
    async ({ ctx, body }) => ({
      data: await schedulesService.saveClinic({ ctx, input: body }),
      code: 'entity_schedule_updated' as const,
    }),
  );

  route.serve(
    declared.saveProfessional,
    {
      ...settings,
      failureCode: 'error_update_schedule',
      summary:
        "Save a professional's whole week (no ranges: follows the clinic's hours); 404 user_not_found for another clinic's user",
    },
    async ({ ctx, params, body }) => ({
      data: await schedulesService.saveProfessional({ ctx, professionalId: params.professionalId, input: body }),
      code: 'entity_schedule_updated' as const,
    }),
  );

  route.serve(
    declared.reminders,
    {
      ...read,
      failureCode: 'error_get_schedule',
      summary: "The clinic's e-mail reminders: on or off, how long before, the address and phone they print",
    },
    async ({ ctx }) => ({ data: await schedulesService.reminders({ ctx }) }),
  );

  route.serve(
    declared.saveReminders,
    {
      ...settings,
      failureCode: 'error_update_schedule',
      summary:
        "Change the clinic's e-mail reminders (audited); code reminders_apply_to_new_bookings when the lead or on/off changed (planned reminders keep their time)",
    },
    async ({ ctx, body }) => {
      const { settings, remindersChanged } = await schedulesService.saveReminders({ ctx, input: body });
      return {
        data: settings,
        code: remindersChanged ? ('reminders_apply_to_new_bookings' as const) : ('reminder_settings_updated' as const),
      };
    },
  );

  recordRoutes(route, {
    declared: scheduleExceptionRecord,
    service: scheduleExceptionsService,
    list: {
      ...read,
      failureCode: 'error_get_schedule_exception',
      summary: 'Holidays, vacations and blocks overlapping [from, to), of one professional (and the whole clinic’s)',
    },
    get: { ...read, failureCode: 'error_get_schedule_exception', summary: 'One exception' },
    create: {
      permission: 'appointments.write',
      failureCode: 'error_create_schedule_exception',
      summary: 'Add a holiday (whole clinic), a vacation or a block (one professional)',
    },
    update: {
      permission: 'appointments.write',
      failureCode: 'error_update_schedule_exception',
      summary: 'Edit an exception; 409 version_conflict when stale',
    },
    remove: {
      permission: 'appointments.write',
      failureCode: 'error_delete_schedule_exception',
      summary: 'Delete an exception (soft)',
    },
    changes: { ...read, summary: "The exception's history of changes, newest first" },
  });

  // The price list's own routes come before /treatments/:id.
  route.serve(
    priceListRoutes.export,
    {
      ...read,
      failureCode: 'error_get_treatment',
      summary: "The price list as CSV (UTF-8 with BOM, `;`), with the list's search, filters and sort, every row",
    },
    async ({ ctx, query, reply }) => sendCsv(reply, await treatmentsService.exportCsv({ ctx, query })),
  );
  route.serve(
    priceListRoutes.groups,
    { ...read, failureCode: 'error_get_treatment', summary: "The price list's groups in use, alphabetically" },
    async ({ ctx }) => ({ data: await treatmentsService.groups({ ctx }) }),
  );
  route.serve(
    priceListRoutes.import,
    {
      ...settings,
      failureCode: 'error_create_treatment',
      summary:
        'Import the price list from CSV, matched by code (a known code updates, others create): dryRun previews with row errors; otherwise all rows or none',
      otherAnswers: { 201: priceListRoutes.import.answer },
    },
    async ({ ctx, body, reply }) => {
      const data = await treatmentsService.importCsv({ ctx, input: body });
      if (body.dryRun) return { data };
      reply.status(201);
      return { data, code: 'treatments_imported' as const };
    },
  );

  recordRoutes(route, {
    declared: treatmentRecord,
    service: treatmentsService,
    list: {
      ...read,
      failureCode: 'error_get_treatment',
      summary:
        "The clinic's treatments (the price list): search as you type by code, name or group (q), active, group, sort name|code|group|price",
    },
    get: { ...read, failureCode: 'error_get_treatment', summary: 'One treatment' },
    create: {
      ...settings,
      failureCode: 'error_create_treatment',
      summary: 'Add a treatment with its usual duration, group, price and VAT rate',
    },
    update: { ...settings, failureCode: 'error_update_treatment', summary: 'Edit a treatment; 409 when stale' },
    remove: { ...settings, failureCode: 'error_delete_treatment', summary: 'Delete a treatment (soft)' },
    changes: { ...read, summary: "The treatment's history of changes, newest first" },
  });

  recordRoutes(route, {
    declared: chairRecord,
    service: chairsService,
    list: { ...read, failureCode: 'error_get_chair', summary: "The clinic's chairs (boxes) by order, then name" },
    get: { ...read, failureCode: 'error_get_chair', summary: 'One chair' },
    create: { ...settings, failureCode: 'error_create_chair', summary: 'Add a chair or box' },
    update: { ...settings, failureCode: 'error_update_chair', summary: 'Edit a chair; 409 when stale' },
    remove: { ...settings, failureCode: 'error_delete_chair', summary: 'Delete a chair (soft)' },
    changes: { ...read, summary: "The chair's history of changes, newest first" },
  });
};
