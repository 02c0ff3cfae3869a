import type { PerioExamSummary } from '@odontia/shared/schemas/perio';
import { and, count, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { presentStamps, recordRepository, sameClinicRow } from '../../db/records.ts';
import { perioExams, users } from '../../db/schema/index.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';
import type { TenantScope } from '../clinical/clinical.service.ts';

/**
 * A patient's periodontal exams (tenant context), newest first from `perio_exams_patient_idx`.
 * The list reads the summary columns only: never the teeth (docs/decisions.md).
 */
export const perioExamsRepository = recordRepository({
  table: perioExams,
  scope: ['patientId'],
  people: { professionalName: perioExams.professionalId },
  order: newestFirst(perioExams.date, perioExams.id),
});

const professional = alias(users, 'perio_professional');
const creator = alias(users, 'perio_creator');
const updater = alias(users, 'perio_updater');

/** One page of the patient's exams as summaries, and the count. */
export async function summaries(
  { tx, accountId }: TenantScope,
  patientId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: PerioExamSummary[]; total: number }> {
  const live = and(
    eq(perioExams.accountId, accountId),
    eq(perioExams.patientId, patientId),
    isNull(perioExams.deletedAt),
  );
  const rows = await tx
    .select({
      id: perioExams.id,
      patientId: perioExams.patientId,
      date: perioExams.date,
      professionalId: perioExams.professionalId,
      professionalName: professional.completeName,
      dentition: perioExams.dentition,
      status: perioExams.status,
      closedAt: perioExams.closedAt,
      notes: perioExams.notes,
      indices: perioExams.indices,
      createdAt: perioExams.createdAt,
      createdByName: creator.completeName,
      updatedAt: perioExams.updatedAt,
      updatedByName: updater.completeName,
      version: perioExams.version,
    })
    .from(perioExams)
    .innerJoin(professional, sameClinicRow(professional, perioExams, perioExams.professionalId))
    .leftJoin(creator, sameClinicRow(creator, perioExams, perioExams.createdBy))
    .leftJoin(updater, sameClinicRow(updater, perioExams, perioExams.updatedBy))
    .where(live)
    .orderBy(...newestFirst(perioExams.date, perioExams.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await tx.select({ n: count() }).from(perioExams).where(live);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      patientId: row.patientId,
      date: row.date,
      professionalId: row.professionalId,
      professionalName: row.professionalName,
      dentition: row.dentition,
      status: row.status,
      closedAt: row.closedAt?.toISOString() ?? null,
      notes: row.notes,
      indices: row.indices,
      ...presentStamps(row),
    })),
    total: total?.n ?? 0,
  };
}
