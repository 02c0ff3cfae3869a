import type { ApiRoute } from '@odontia/shared/api-route';
import type { recordApiRoutes } from '@odontia/shared/routes/records';
import type { patientRecordParamsSchema } from '@odontia/shared/schemas/records';
import type { FastifyInstance } from 'fastify';
import { sendPdf } from '../../lib/pdf.ts';
import { type RecordService, recordRoutes } from '../../plugins/record-routes.ts';
import { inTransaction, type RequestContext, routes, type ServedRouteDefinition } from '../../plugins/routes.ts';

/**
 * The usual routes of a record of a patient's medical history (attendances, diagnoses, laboratory
 * orders, prescriptions, health certificates): tagged 'medical history', read with patients.read,
 * written with clinical.write, and each failure code named after the record
 * (error_get_diagnosis, error_create_diagnosis …). Only the summaries are the record's own.
 */

type MedicalRecordName = 'attendance' | 'diagnosis' | 'laboratory' | 'prescription' | 'health_certificate';

type Summaries = Record<'list' | 'get' | 'create' | 'update' | 'remove' | 'changes', string>;

export function medicalRecordRoutes<TRecord, TCreate, TUpdate, TListed>(
  app: FastifyInstance,
  record: {
    declared: ReturnType<typeof recordApiRoutes> & { name: MedicalRecordName };
    service: RecordService<{ patientId: string }, TRecord, TCreate, TUpdate, TListed>;
    summaries: Summaries;
  },
) {
  const { declared, service, summaries } = record;
  const name = declared.name;
  const route = routes(app, { tags: ['medical history'] });
  const read = { permission: 'patients.read', failureCode: `error_get_${name}` } as const;
  const write = { permission: 'clinical.write' } as const;
  recordRoutes(route, {
    declared,
    service,
    list: { ...read, summary: summaries.list },
    get: { ...read, summary: summaries.get },
    create: { ...write, failureCode: `error_create_${name}`, summary: summaries.create },
    update: { ...write, failureCode: `error_update_${name}`, summary: summaries.update },
    remove: { ...write, failureCode: `error_delete_${name}`, summary: summaries.remove },
    changes: { ...read, summary: summaries.changes },
  });
  // The record's other routes use the same route maker and permissions.
  return { route, read, write };
}

/**
 * A record's printout (PDF): read in its own transaction, then rendered after it, since a PDF
 * takes a while and holds no row.
 */
export function servePrintout<TPrintable>(
  app: FastifyInstance,
  route: ReturnType<typeof routes>,
  declared: ApiRoute<typeof patientRecordParamsSchema, undefined, undefined, undefined>,
  definition: Omit<ServedRouteDefinition<false>, 'transaction'>,
  print: {
    printable(input: { ctx: RequestContext; patientId: string; id: string }): Promise<TPrintable>;
    render(printable: TPrintable): Promise<{ pdf: Buffer; fileName: string }>;
  },
): void {
  route.serve(declared, { ...definition, transaction: false }, async ({ actor, params, reply }) => {
    const printable = await inTransaction(app.db, actor, (ctx) => print.printable({ ctx, ...params }));
    return sendPdf(reply, await print.render(printable));
  });
}
