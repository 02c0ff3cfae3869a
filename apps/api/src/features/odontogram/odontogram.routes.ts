import {
  createOdontogramEntriesRequestSchema,
  odontogramChartResponseSchema,
  odontogramEntriesCreatedSchema,
  odontogramEntriesPageSchema,
  odontogramEntryParamsSchema,
  odontogramEntryVoidedSchema,
  odontogramQuerySchema,
  voidOdontogramEntryRequestSchema,
} from '@odontia/shared/schemas/odontogram';
import { pageQuerySchema, patientParamsSchema } from '@odontia/shared/schemas/records';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { OdontogramService } from './odontogram.service.ts';

const tags = ['medical history'];
const security = [{ bearerAuth: [] }];
const base = '/patients/:patientId/odontogram';

/**
 * /api/patients/:patientId/odontogram (issue 6). An unknown patient, another clinic's, or an entry
 * that is not this patient's answers 404 odontogram_not_found.
 */
export const odontogramRoutes: FastifyPluginAsyncZod<{ service: OdontogramService }> = async (app, { service }) => {
  app.get(
    base,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: 'The chart as it was at `at` (default now), and every instant with entries (the timeline)',
        params: patientParamsSchema,
        querystring: odontogramQuerySchema,
        response: { 200: odontogramChartResponseSchema },
      },
    },
    async (request) => ({
      data: await service.chart(sessionOf(request), request.params.patientId, request.query.at),
    }),
  );

  app.get(
    `${base}.pdf`,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: 'The printable chart (PDF) at `at`: clinic header, patient, date, chart, state by tooth, legend',
        params: patientParamsSchema,
        querystring: odontogramQuerySchema,
      },
    },
    async (request, reply) => {
      const { pdf, fileName } = await service.pdf(sessionOf(request), request.params.patientId, request.query.at);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.get(
    `${base}/entries`,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: 'The changes of the chart (entries not voided), newest first',
        params: patientParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: odontogramEntriesPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), request.params.patientId, request.query),
  );

  app.post(
    `${base}/entries`,
    {
      config: { permission: 'clinical.write' },
      schema: {
        tags,
        security,
        summary: 'Chart a batch of marks (one transaction, one audit event)',
        params: patientParamsSchema,
        body: createOdontogramEntriesRequestSchema,
        response: { 201: odontogramEntriesCreatedSchema },
      },
    },
    async (request, reply) => {
      const data = await service.create(sessionOf(request), request.params.patientId, request.body, request.ip);
      return reply.status(201).send({ data, code: 'odontogram_entries_saved' as const });
    },
  );

  app.delete(
    `${base}/entries/:entryId`,
    {
      config: { permission: 'clinical.write' },
      schema: {
        tags,
        security,
        summary: 'Void an entry with a reason: it leaves the chart; the row and its audit stay',
        params: odontogramEntryParamsSchema,
        body: voidOdontogramEntryRequestSchema,
        response: { 200: odontogramEntryVoidedSchema },
      },
    },
    async (request) => {
      await service.void(
        sessionOf(request),
        request.params.patientId,
        request.params.entryId,
        request.body.reason,
        request.ip,
      );
      return { code: 'odontogram_entry_voided' as const };
    },
  );
};
