import { yearsOld } from '@odontia/shared/clinic-time';
import { type LaboratoryStatus, type LaboratoryStudy, type Language, languages } from '@odontia/shared/enums';
import type { Laboratory, LaboratoryInput } from '@odontia/shared/schemas/laboratories';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { Database } from '../../db/client.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { renderPdf, safeFileName } from '../../lib/pdf.ts';
import type { AuthSession } from '../../plugins/auth.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import { requirePatient, requireProfessional } from '../clinical/clinical.service.ts';
import * as repository from './laboratories.repository.ts';
import { laboratoryOrderDocument } from './laboratory-order.pdf.ts';

/**
 * Laboratory orders and results of a patient's medical history (issue 5). Every create, edit and delete writes an
 * audit event (entity 'laboratory', with the patient) in the same transaction; delete is soft.
 */

type UpdateInput = LaboratoryInput & { version: number };

const editableKeys = [
  'orderDate',
  'professionalId',
  'laboratoryName',
  'studies',
  'instructions',
  'notes',
  'status',
  'resultDate',
  'result',
] as const;
type Columns = Pick<LaboratoryInput, (typeof editableKeys)[number]>;

function columnsOf(input: Columns): Columns {
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

export function toLaboratory(row: repository.LaboratoryRowWithNames): Laboratory {
  return {
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
  };
}

export function createLaboratoriesService({ db }: { db: Database }) {
  async function getLaboratory(tx: TenantTx, accountId: string, patientId: string, id: string): Promise<Laboratory> {
    const row = await repository.findLaboratory(tx, accountId, patientId, id);
    if (!row) throw new AppError('laboratory_not_found');
    return toLaboratory(row);
  }

  return {
    async list(session: AuthSession, patientId: string, query: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        const { rows, total } = await repository.listLaboratories(tx, session.accountId, patientId, query);
        return { data: rows.map(toLaboratory), total, page: query.page, pageSize: query.pageSize };
      });
    },

    async get(session: AuthSession, patientId: string, id: string): Promise<Laboratory> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        return getLaboratory(tx, session.accountId, patientId, id);
      });
    },

    async create(session: AuthSession, patientId: string, input: LaboratoryInput, ip: string): Promise<Laboratory> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        await requireProfessional({ tx: tx, accountId: session.accountId }, input.professionalId);
        const id = newId();
        const columns = columnsOf(input);
        await repository.insertLaboratory(tx, {
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
          action: 'laboratory_created',
          entity: 'laboratory',
          entityId: id,
          ip,
          after: columns,
        });
        return getLaboratory(tx, session.accountId, patientId, id);
      });
    },

    async update(
      session: AuthSession,
      patientId: string,
      id: string,
      input: UpdateInput,
      ip: string,
    ): Promise<Laboratory> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const current = await repository.findLaboratoryForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('laboratory_not_found');
        if (current.version !== input.version) {
          throw new AppError('version_conflict', {
            current: await getLaboratory(tx, session.accountId, patientId, id),
          });
        }
        if (input.professionalId !== current.professionalId) {
          await requireProfessional({ tx: tx, accountId: session.accountId }, input.professionalId);
        }
        const next = columnsOf(input);
        const { before, after } = changedFields(columnsOf(current as Columns), next);
        await repository.updateLaboratory(tx, session.accountId, id, { ...next, updatedBy: session.userId });
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'laboratory_updated',
          entity: 'laboratory',
          entityId: id,
          ip,
          before,
          after,
        });
        return getLaboratory(tx, session.accountId, patientId, id);
      });
    },

    async remove(session: AuthSession, patientId: string, id: string, ip: string): Promise<void> {
      await db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const current = await repository.findLaboratoryForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('laboratory_not_found');
        await repository.softDeleteLaboratory(tx, session.accountId, id, session.userId);
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'laboratory_deleted',
          entity: 'laboratory',
          entityId: id,
          ip,
          before: { ...columnsOf(current as Columns), version: current.version },
          after: { deleted: true },
        });
      });
    },

    /** The printable order (PDF) in the reader's language, with its file name. */
    async orderPdf(session: AuthSession, patientId: string, id: string): Promise<{ pdf: Buffer; fileName: string }> {
      const { order, header } = await db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        const order = await getLaboratory(tx, session.accountId, patientId, id);
        const header = await repository.findOrderHeader(tx, session.accountId, patientId, session.userId);
        if (!header) throw new AppError('patient_not_found');
        return { order, header };
      });
      const language: Language = languages.includes(header.language as Language) ? (header.language as Language) : 'es';
      const patientName = `${header.firstName} ${header.lastName}`;
      const pdf = await renderPdf(
        laboratoryOrderDocument({
          language,
          clinicName: header.clinicName,
          clinicContact: header.clinicContact,
          patientName,
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
    },

    async changes(session: AuthSession, patientId: string, id: string, page: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        if (!(await repository.findLaboratory(tx, session.accountId, patientId, id))) {
          throw new AppError('laboratory_not_found');
        }
        return listRecordChanges(tx, session.accountId, { entity: 'laboratory', entityId: id }, page);
      });
    },
  };
}

export type LaboratoriesService = ReturnType<typeof createLaboratoriesService>;
