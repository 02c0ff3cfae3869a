import type { DiagnosisStatus } from '@odontia/shared/enums';
import type { Diagnosis, DiagnosisInput } from '@odontia/shared/schemas/diagnoses';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { RequestContext } from '../../plugins/routes.ts';
import { auditedRecords } from '../audit/audited-records.ts';
import { requirePatient, requireProfessional } from '../clinical/clinical.service.ts';
import { diagnosesRepository } from './diagnoses.repository.ts';

/**
 * Diagnoses of a patient's medical history (issue 5): audited, versioned, soft-deleted records
 * whose professional must be an active user of the clinic.
 */

type Scope = { ctx: RequestContext; patientId: string };

function columnsOf(input: Omit<DiagnosisInput, 'status'> & { status: string }) {
  return {
    date: input.date,
    professionalId: input.professionalId,
    text: input.text,
    icd10Code: input.icd10Code ?? null,
    teeth: input.teeth,
    status: input.status,
    notes: input.notes ?? null,
  };
}

const records = auditedRecords({
  repository: diagnosesRepository,
  entity: 'diagnosis',
  notFound: 'diagnosis_not_found',
  columnsOf,
  present: (row): Diagnosis => ({
    id: row.id,
    patientId: row.patientId,
    date: row.date,
    professionalId: row.professionalId,
    professionalName: row.professionalName,
    text: row.text,
    icd10Code: row.icd10Code,
    teeth: row.teeth,
    status: row.status as DiagnosisStatus,
    notes: row.notes,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
  }),
});

export const diagnosesService = {
  async list({ ctx, patientId, query }: Scope & { query: PageQuery }) {
    await requirePatient(ctx, patientId);
    return records.page(ctx, { patientId }, query);
  },

  async get({ ctx, patientId, id }: Scope & { id: string }): Promise<Diagnosis> {
    await requirePatient(ctx, patientId);
    return records.get(ctx, { patientId }, id);
  },

  async create({ ctx, patientId, input }: Scope & { input: DiagnosisInput }): Promise<Diagnosis> {
    await requirePatient(ctx, patientId, { lock: true });
    await requireProfessional(ctx, input.professionalId);
    return records.create(ctx, { patientId }, columnsOf(input));
  },

  async update({ ctx, patientId, id, input }: Scope & { id: string; input: DiagnosisInput & { version: number } }) {
    await requirePatient(ctx, patientId, { lock: true });
    return records.update(ctx, { patientId }, id, { version: input.version, next: columnsOf(input) }, (current) =>
      input.professionalId === current.professionalId ? undefined : requireProfessional(ctx, input.professionalId),
    );
  },

  async remove({ ctx, patientId, id }: Scope & { id: string }): Promise<void> {
    await requirePatient(ctx, patientId, { lock: true });
    await records.remove(ctx, { patientId }, id);
  },

  async changes({ ctx, patientId, id, query }: Scope & { id: string; query: PageQuery }) {
    await requirePatient(ctx, patientId);
    return records.changes(ctx, { patientId }, id, query);
  },
};
