import type { DiagnosisStatus } from '@odontia/shared/enums';
import type { Diagnosis, DiagnosisInput } from '@odontia/shared/schemas/diagnoses';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { Database } from '../../db/client.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { AuthSession } from '../../plugins/auth.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import { requirePatient, requireProfessional } from '../clinical/clinical.service.ts';
import * as repository from './diagnoses.repository.ts';

/**
 * Diagnoses of a patient's medical history (issue 5). Every create, edit and delete writes an
 * audit event (entity 'diagnosis', with the patient) in the same transaction; delete is soft.
 */

type UpdateInput = DiagnosisInput & { version: number };

const editableKeys = ['date', 'professionalId', 'text', 'icd10Code', 'teeth', 'status', 'notes'] as const;
type Columns = Pick<DiagnosisInput, (typeof editableKeys)[number]>;

function columnsOf(input: Columns): Columns {
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

export function toDiagnosis(row: repository.DiagnosisRowWithNames): Diagnosis {
  return {
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
  };
}

export function createDiagnosesService({ db }: { db: Database }) {
  async function getDiagnosis(tx: TenantTx, accountId: string, patientId: string, id: string): Promise<Diagnosis> {
    const row = await repository.findDiagnosis(tx, accountId, patientId, id);
    if (!row) throw new AppError('diagnosis_not_found');
    return toDiagnosis(row);
  }

  return {
    async list(session: AuthSession, patientId: string, query: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient(tx, session.accountId, patientId);
        const { rows, total } = await repository.listDiagnoses(tx, session.accountId, patientId, query);
        return { data: rows.map(toDiagnosis), total, page: query.page, pageSize: query.pageSize };
      });
    },

    async get(session: AuthSession, patientId: string, id: string): Promise<Diagnosis> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient(tx, session.accountId, patientId);
        return getDiagnosis(tx, session.accountId, patientId, id);
      });
    },

    async create(session: AuthSession, patientId: string, input: DiagnosisInput, ip: string): Promise<Diagnosis> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient(tx, session.accountId, patientId, { lock: true });
        await requireProfessional(tx, session.accountId, input.professionalId);
        const id = newId();
        const columns = columnsOf(input);
        await repository.insertDiagnosis(tx, {
          ...columns,
          accountId: session.accountId,
          id,
          patientId,
          createdBy: session.userId,
          updatedBy: session.userId,
        });
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'diagnosis_created',
          entity: 'diagnosis',
          entityId: id,
          ip,
          after: columns,
        });
        return getDiagnosis(tx, session.accountId, patientId, id);
      });
    },

    async update(
      session: AuthSession,
      patientId: string,
      id: string,
      input: UpdateInput,
      ip: string,
    ): Promise<Diagnosis> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient(tx, session.accountId, patientId, { lock: true });
        const current = await repository.findDiagnosisForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('diagnosis_not_found');
        if (current.version !== input.version) {
          throw new AppError('version_conflict', {
            current: await getDiagnosis(tx, session.accountId, patientId, id),
          });
        }
        if (input.professionalId !== current.professionalId) {
          await requireProfessional(tx, session.accountId, input.professionalId);
        }
        const next = columnsOf(input);
        const { before, after } = changedFields(columnsOf(current as Columns), next);
        await repository.updateDiagnosis(tx, session.accountId, id, { ...next, updatedBy: session.userId });
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'diagnosis_updated',
          entity: 'diagnosis',
          entityId: id,
          ip,
          before,
          after,
        });
        return getDiagnosis(tx, session.accountId, patientId, id);
      });
    },

    async remove(session: AuthSession, patientId: string, id: string, ip: string): Promise<void> {
      await db.withTenant(session.accountId, async (tx) => {
        await requirePatient(tx, session.accountId, patientId, { lock: true });
        const current = await repository.findDiagnosisForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('diagnosis_not_found');
        await repository.softDeleteDiagnosis(tx, session.accountId, id, session.userId);
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'diagnosis_deleted',
          entity: 'diagnosis',
          entityId: id,
          ip,
          before: { ...columnsOf(current as Columns), version: current.version },
          after: { deleted: true },
        });
      });
    },

    async changes(session: AuthSession, patientId: string, id: string, page: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient(tx, session.accountId, patientId);
        if (!(await repository.findDiagnosis(tx, session.accountId, patientId, id))) {
          throw new AppError('diagnosis_not_found');
        }
        return listRecordChanges(tx, session.accountId, { entity: 'diagnosis', entityId: id }, page);
      });
    },
  };
}

export type DiagnosesService = ReturnType<typeof createDiagnosesService>;
