import { perioExamRoutes as declared, perioExamRecord } from '@odontia/shared/routes/perio';
import type { FastifyPluginAsync } from 'fastify';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { servePrintout } from '../clinical/medical-record-routes.ts';
import { perioPrintable, renderPerioPdf } from './perio.pdf.ts';
import { perioService } from './perio.service.ts';

/**
 * /api/patients/:patientId/perio-exams (issue 41). Read with patients.read, written with
 * clinical.write, as the rest of the medical history. Another clinic's or patient's exam answers
 * 404 perio_exam_not_found; an unknown patient 404 patient_not_found.
 */
export const perioRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['medical history'] });
  const read = { permission: 'patients.read' } as const;
  const write = { permission: 'clinical.write' } as const;

  recordRoutes(route, {
    declared: perioExamRecord,
    service: perioService,
    list: { ...read, summary: "A patient's periodontal exams, newest first: summaries with their indices, no teeth" },
    get: { ...read, summary: 'One periodontal exam: every tooth and site, the CAL of each site and the indices' },
    create: { ...write, summary: 'Start a periodontal exam (a draft); a tooth missing in the odontogram is 400' },
    update: {
      ...write,
      summary: 'Save a draft exam; 409 version_conflict when stale, 409 perio_exam_already_closed once closed',
    },
    remove: { ...write, summary: 'Discard a draft exam (kept, hidden); a closed exam answers 409' },
    changes: { ...read, summary: "The exam's history of changes (audit events), newest first" },
  });

  route.serve(
    declared.teeth,
    { ...read, summary: 'The teeth of a dentition and those present in the odontogram now (what a new exam charts)' },
    async ({ ctx, params, query }) => ({
      data: await perioService.teeth({ ctx, ...params, dentition: query.dentition }),
    }),
  );

  route.serve(
    declared.close,
    { ...write, summary: 'Close the exam: final from now on (never edited nor discarded)' },
    async ({ ctx, params, body }) => ({
      data: await perioService.close({ ctx, ...params, version: body.version }),
      code: 'perio_exam_closed' as const,
    }),
  );

  servePrintout(
    app,
    route,
    declared.pdf,
    { ...read, summary: "The exam's printout for the patient (PDF): the chart, the indices, in the clinic's language" },
    { printable: perioPrintable, render: renderPerioPdf },
  );
};
