import {
  attendanceDeletedResponseSchema,
  attendanceResponseSchema,
  attendancesPageSchema,
  createAddendumRequestSchema,
  createAttendanceRequestSchema,
  updateAttendanceRequestSchema,
} from '@odontia/shared/schemas/attendances';
import {
  pageQuerySchema,
  patientParamsSchema,
  patientRecordParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
} from '@odontia/shared/schemas/records';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { AttendancesService } from './attendances.service.ts';

const tags = ['medical history'];
const security = [{ bearerAuth: [] }];
const base = '/patients/:patientId/attendances';

/**
 * /api/patients/:patientId/attendances (issue 5), and POST …/:id/addenda for a finished one. A deleted patient or another clinic's answers
 * 404 patient_not_found; a attendance of another patient or clinic, 404 attendance_not_found.
 */
export const attendancesRoutes: FastifyPluginAsyncZod<{ service: AttendancesService }> = async (app, { service }) => {
  app.get(
    base,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_attendance' },
      schema: {
        tags,
        security,
        summary: "A patient's attendances, newest first",
        params: patientParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: attendancesPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), request.params.patientId, request.query),
  );

  app.get(
    `${base}/:id`,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_attendance' },
      schema: {
        tags,
        security,
        summary: 'One attendance',
        params: patientRecordParamsSchema,
        response: { 200: attendanceResponseSchema },
      },
    },
    async (request) => ({
      data: await service.get(sessionOf(request), request.params.patientId, request.params.id),
    }),
  );

  app.post(
    base,
    {
      config: { permission: 'clinical.write', failureCode: 'error_create_attendance' },
      schema: {
        tags,
        security,
        summary:
          'Add an attendance; the supplies and medicines used leave stock in the same transaction (409 insufficient_stock refuses it all)',
        params: patientParamsSchema,
        body: createAttendanceRequestSchema,
        response: { 201: attendanceResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.create(sessionOf(request), request.params.patientId, request.body, request.ip);
      return reply.status(201).send({ data, code: 'attendance_created' as const });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write', failureCode: 'error_update_attendance' },
      schema: {
        tags,
        security,
        summary:
          'Edit an open attendance (409 attendance_finished once finished); stock moves by the difference; 409 version_conflict with the current values',
        params: patientRecordParamsSchema,
        body: updateAttendanceRequestSchema,
        response: { 200: attendanceResponseSchema },
      },
    },
    async (request) => ({
      data: await service.update(
        sessionOf(request),
        request.params.patientId,
        request.params.id,
        request.body,
        request.ip,
      ),
      code: 'attendance_updated' as const,
    }),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { permission: 'clinical.write', failureCode: 'error_delete_attendance' },
      schema: {
        tags,
        security,
        summary:
          'Delete an open attendance: hidden from now on, its supplies and medicines back in stock; the record and its audit are kept',
        params: patientRecordParamsSchema,
        response: { 200: attendanceDeletedResponseSchema },
      },
    },
    async (request) => {
      await service.remove(sessionOf(request), request.params.patientId, request.params.id, request.ip);
      return { code: 'attendance_deleted' as const };
    },
  );

  app.post(
    `${base}/:id/addenda`,
    {
      config: { permission: 'clinical.write', failureCode: 'error_update_attendance' },
      schema: {
        tags,
        security,
        summary: 'Add a dated addendum to a finished attendance (409 attendance_not_finished on an open one)',
        params: patientRecordParamsSchema,
        body: createAddendumRequestSchema,
        response: { 201: attendanceResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.addAddendum(
        sessionOf(request),
        request.params.patientId,
        request.params.id,
        request.body.text,
        request.ip,
      );
      return reply.status(201).send({ data, code: 'attendance_addendum_created' as const });
    },
  );

  app.get(
    `${base}/:id/changes`,
    {
      config: { permission: 'patients.read', failureCode: 'error_get_attendance' },
      schema: {
        tags,
        security,
        summary: "The attendance's history of changes (audit events), newest first",
        params: patientRecordParamsSchema,
        querystring: recordChangesQuerySchema,
        response: { 200: recordChangesPageSchema },
      },
    },
    async (request) => service.changes(sessionOf(request), request.params.patientId, request.params.id, request.query),
  );
};
