import type { LaboratoryStudy } from '@odontia/shared/enums';
import type { Laboratory, LaboratoryInput } from '@odontia/shared/schemas/laboratories';
import type { RequestContext } from '../../context.ts';
import { presentStamps } from '../../db/records.ts';
import { pdfFile, printLanguage } from '../../lib/pdf.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import {
  patientRecordService,
  printedPatient,
  releaseFilesOfRecord,
  requirePatient,
  requirePrintHeader,
} from '../clinical/clinical.service.ts';
import { laboratoriesRepository } from './laboratories.repository.ts';
import { laboratoryOrderDocument } from './laboratory-order.pdf.ts';

/**
 * Laboratory orders and results of a patient's medical history (issue 5): audited, versioned,
 * soft-deleted records whose professional must be an active user of the clinic, and the printable
 * order.
 */

function columnsOf(input: Omit<LaboratoryInput, 'studies' | 'status'> & { studies: string[]; status: string }) {
  return {
    orderDate: input.orderDate,
    professionalId: input.professionalId,
    laboratoryName: input.laboratoryName,
    studies: input.studies,
    instructions: input.instructions ?? null,
    notes: input.notes ?? null,
    status: input.status,
    resultDate: input.resultDate ?? null,
    result: input.result ?? null,
  };
}

const records = auditedRecords({
  repository: laboratoriesRepository,
  entity: 'laboratory',
  notFound: 'laboratory_not_found',
  columnsOf,
  present: (row): Laboratory => ({
    id: row.id,
    patientId: row.patientId,
    orderDate: row.orderDate,
    professionalId: row.professionalId,
    professionalName: row.professionalName,
    laboratoryName: row.laboratoryName,
    studies: row.studies as LaboratoryStudy[],
    instructions: row.instructions,
    notes: row.notes,
    status: row.status,
    resultDate: row.resultDate,
    result: row.result,
    ...presentStamps(row),
  }),
});

export const laboratoriesService = {
  ...patientRecordService(records, (input: LaboratoryInput) => columnsOf(input), {
    removed: (ctx, patientId, id) => releaseFilesOfRecord(ctx, patientId, 'laboratory', id),
  }),

  /** What the printed order shows, read in the request's transaction (rendered after it). */
  async printable({ ctx, patientId, id }: { ctx: RequestContext; patientId: string; id: string }) {
    await requirePatient(ctx, patientId);
    const order = await records.get(ctx, { patientId }, id);
    return { order, header: await requirePrintHeader(ctx, patientId) };
  },
};

/** The printable order (PDF) in the reader's language, with its file name. */
export async function laboratoryOrderPdf({ order, header }: Awaited<ReturnType<typeof laboratoriesService.printable>>) {
  return pdfFile(
    laboratoryOrderDocument({
      language: printLanguage(header.readerLanguage),
      ...printedPatient(header, order.orderDate),
      professionalName: order.professionalName,
      orderDate: order.orderDate,
      laboratoryName: order.laboratoryName,
      studies: order.studies,
      instructions: order.instructions,
    }),
    `orden-laboratorio-${header.lastName}-${order.orderDate}.pdf`,
  );
}
