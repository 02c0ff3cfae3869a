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
import type { FastifyPluginAsync } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { routes } from '../../plugins/routes.ts';
import { odontogramService } from './odontogram.service.ts';

const base = '/patients/:patientId/odontogram';

/**
 * /api/patients/:patientId/odontogram (issue 6). An unknown patient, another clinic's, or an entry
 * that is not this patient's answers 404 odontogram_not_found.
 */
export const odontogramRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['medical history'] });

  route.get(
    base,
    {
      permission: 'patients.read',
      summary: 'The chart as it was at `at` (default now), and every instant with entries (the timeline)',
      params: patientParamsSchema,
      querystring: odontogramQuerySchema,
      answer: odontogramChartResponseSchema,
    },
    async ({ ctx, params, query }) => ({ data: await odontogramService.chart({ ctx, ...params, at: query.at }) }),
  );

  route.get(
    `${base}.pdf`,
    {
      permission: 'patients.read',
      summary: 'The printable chart (PDF) at `at`: clinic header, patient, date, chart, state by tooth, legend',
      params: patientParamsSchema,
      produces: ['application/pdf'],
      querystring: odontogramQuerySchema,
      transaction: false,
    },
    async ({ actor, params, query, reply }) =>
      sendPdf(reply, await odontogramService.pdf({ db: app.db, actor, ...params, at: query.at })),
  );

  route.get(
    `${base}/entries`,
    {
      permission: 'patients.read',
      summary: 'The changes of the chart (entries not voided), newest first',
      params: patientParamsSchema,
      querystring: pageQuerySchema,
      answer: odontogramEntriesPageSchema,
    },
    ({ ctx, params, query }) => odontogramService.list({ ctx, ...params, query }),
  );

  route.post(
    `${base}/entries`,
    {
      permission: 'clinical.write',
      summary: 'Chart a batch of marks (one transaction, one audit event)',
      params: patientParamsSchema,
      body: createOdontogramEntriesRequestSchema,
      answer: odontogramEntriesCreatedSchema,
      status: 201,
    },
    async ({ ctx, params, body }) => ({
      data: await odontogramService.create({ ctx, ...params, input: body }),
      code: 'odontogram_entries_saved' as const,
    }),
  );

  route.delete(
    `${base}/entries/:entryId`,
    {
      permission: 'clinical.write',
      summary: 'Void an entry with a reason: it leaves the chart; the row and its audit stay',
      params: odontogramEntryParamsSchema,
      body: voidOdontogramEntryRequestSchema,
      answer: odontogramEntryVoidedSchema,
    },
    async ({ ctx, params, body }) => {
      await odontogramService.void({ ctx, ...params, reason: body.reason });
      return { code: 'odontogram_entry_voided' as const };
    },
  );
};
