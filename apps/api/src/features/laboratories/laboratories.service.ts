import { yearsOld } from '@odontia/shared/clinic-time';
import type { LaboratoryStatus, LaboratoryStudy } from '@odontia/shared/enums';
import type { Laboratory, LaboratoryInput } from '@odontia/shared/schemas/laboratories';
import { AppError } from '../../lib/app-error.ts';
import { printLanguage, renderPdf, safeFileName } from '../../lib/pdf.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { findPrintHeader } from '../clinical/clinical.repository.ts';
import { patientRecordService, requirePatient } from '../clinical/clinical.service.ts';
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
    status: row.status as LaboratoryStatus,
    resultDate: row.resultDate,
    result: row.result,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
  }),
});

export const laboratoriesService = {
  ...patientRecordService(records, (input: LaboratoryInput) => columnsOf(input)),

  /** What the printed order shows, read in the request's transaction (rendered after it). */
  async printable({ ctx, patientId, id }: { ctx: RequestContext; patientId: string; id: string }) {
    await requirePatient(ctx, patientId);
    const order = await records.get(ctx, { patientId }, id);
    const header = await findPrintHeader(ctx, patientId);
    if (!header) throw new AppError('patient_not_found');
    return { order, header };
  },
};

/** The printable order (PDF) in the reader's language, with its file name. */
export async function laboratoryOrderPdf({ order, header }: Awaited<ReturnType<typeof laboratoriesService.printable>>) {
  const pdf = await renderPdf(
    laboratoryOrderDocument({
      language: printLanguage(header.readerLanguage),
      clinicName: header.clinicName,
      clinicContact: header.clinicContact,
      patientName: `${header.firstName} ${header.lastName}`,
      patientSsn: header.ssn,
      // The age on the order's date: a reprint years later shows what was true then.
      patientAge: yearsOld(header.birthdate, order.orderDate.slice(0, 10)) ?? 0,
      professionalName: order.professionalName,
      orderDate: order.orderDate,
      laboratoryName: order.laboratoryName,
      studies: order.studies,
      instructions: order.instructions,
    }),
  );
  return { pdf, fileName: safeFileName(`orden-laboratorio-${header.lastName}-${order.orderDate}.pdf`) };
}
