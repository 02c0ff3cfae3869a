import { odontogramRoutes as declared } from '@odontia/shared/routes/odontogram';
import type { FastifyPluginAsync } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { routes } from '../../plugins/routes.ts';
import { odontogramService } from './odontogram.service.ts';

/**
 * /api/patients/:patientId/odontogram (issue 6). An unknown patient, another clinic's, or an entry
 * that is not this patient's answers 404 odontogram_not_found.
 */
export const odontogramRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['medical history'] });

  route.serve(
    declared.chart,
    {
      permission: 'patients.read',
      summary: 'The chart as it was at `at` (default now), and every instant with entries (the timeline)',
    },
    async ({ ctx, params, query }) => ({ data: await odontogramService.chart({ ctx, ...params, at: query.at }) }),
  );

  route.serve(
    declared.pdf,
    {
      permission: 'patients.read',
      summary: 'The printable chart (PDF) at `at`: clinic header, patient, date, chart, state by tooth, legend',
      transaction: false,
    },
    async ({ actor, params, query, reply }) =>
      sendPdf(reply, await odontogramService.pdf({ db: app.db, actor, ...params, at: query.at })),
  );

  route.serve(
    declared.entries,
    {
      permission: 'patients.read',
      summary: 'The changes of the chart (entries not voided), newest first',
    },
    ({ ctx, params, query }) => odontogramService.list({ ctx, ...params, query }),
  );

  route.serve(
    declared.createEntries,
    {
      permission: 'clinical.write',
      summary: 'Chart a batch of marks (one transaction, one audit event)',
    },
    async ({ ctx, params, body }) => ({
      data: await odontogramService.create({ ctx, ...params, input: body }),
      code: 'odontogram_entries_saved' as const,
    }),
  );

  route.serve(
    declared.voidEntry,
    {
      permission: 'clinical.write',
      summary: 'Void an entry with a reason: it leaves the chart; the row and its audit stay',
    },
    async ({ ctx, params, body }) => {
      await odontogramService.void({ ctx, ...params, reason: body.reason });
      return { code: 'odontogram_entry_voided' as const };
    },
  );
};
