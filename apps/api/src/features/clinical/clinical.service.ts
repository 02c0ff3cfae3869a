import { yearsOld } from '@odontia/shared/clinic-time';
import type { FieldError } from '@odontia/shared/errors';
import type { Professional } from '@odontia/shared/schemas/clinical';
import type { Page } from '@odontia/shared/schemas/common';
import type { PageQuery, RecordChange } from '@odontia/shared/schemas/records';
import type { RequestContext } from '../../context.ts';
import { loadPrintHeader } from '../../db/clinic-print-header.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { audit } from '../audit/audit.repository.ts';
import * as repository from './clinical.repository.ts';

/** Checks shared by the clinical records of the medical history (issue 5). */

/** The transaction and the clinic (a request context has both). */
export interface TenantScope {
  readonly tx: TenantTx;
  readonly accountId: string;
}

/** 404 patient_not_found for a deleted patient or another clinic's. Locks the patient (share) for a write. */
export async function requirePatient(
  ctx: TenantScope,
  patientId: string,
  options: { lock?: boolean } = {},
): Promise<void> {
  if (!(await repository.patientExists(ctx.tx, ctx.accountId, patientId, options))) {
    throw new AppError('patient_not_found');
  }
}

/** 400 validation_error on the field when the professional is not an active user of the clinic. */
export async function requireProfessional(ctx: TenantScope, professionalId: string): Promise<void> {
  await professionalDetails(ctx, professionalId);
}

/** The professional's name, licence and specialty (a prescription copies them); 400 like requireProfessional. */
export async function professionalDetails(ctx: TenantScope, professionalId: string) {
  const found = await repository.findProfessional(ctx.tx, ctx.accountId, professionalId);
  if (!found) throw invalidFields([{ path: 'professionalId', code: 'invalid_value' }]);
  return found;
}

export function invalidFields(fields: FieldError[]): AppError {
  return new AppError('validation_error', { fields });
}

/** The professionals a clinical form offers: the clinic's active users who are not customers. */
export function listProfessionals(ctx: TenantScope): Promise<Professional[]> {
  return repository.listProfessionals(ctx);
}

/** A patient's audited records (`auditedRecords()` scoped by `patientId`), as the service below uses them. */
interface PatientRecords<TRecord, TColumns> {
  page(ctx: RequestContext, scope: { patientId: string }, query: PageQuery): Promise<Page<TRecord>>;
  get(ctx: RequestContext, scope: { patientId: string }, id: string): Promise<TRecord>;
  create(ctx: RequestContext, scope: { patientId: string }, columns: TColumns): Promise<TRecord>;
  update(
    ctx: RequestContext,
    scope: { patientId: string },
    id: string,
    change: { version: number; next: TColumns },
    check: (current: { professionalId: string }) => Promise<void> | undefined,
  ): Promise<TRecord>;
  remove(ctx: RequestContext, scope: { patientId: string }, id: string): Promise<void>;
  changes(ctx: RequestContext, scope: { patientId: string }, id: string, query: PageQuery): Promise<Page<RecordChange>>;
}

/**
 * The whole service of a patient's record whose only rules are the patient's and the
 * professional's (diagnoses, laboratories): the patient must be the clinic's (share-locked for a
 * write), and the professional an active user of the clinic when written or changed.
 */
export function patientRecordService<TRecord, TInput extends { professionalId: string }, TColumns>(
  records: PatientRecords<TRecord, TColumns>,
  columnsOf: (input: TInput) => TColumns,
  hooks: {
    /** What else a delete does, in its transaction (a record's files leave it). */
    removed?: (ctx: RequestContext, patientId: string, id: string) => Promise<void>;
  } = {},
) {
  type Scope = { ctx: RequestContext; patientId: string };
  return {
    async list({ ctx, patientId, query }: Scope & { query: PageQuery }): Promise<Page<TRecord>> {
      await requirePatient(ctx, patientId);
      return records.page(ctx, { patientId }, query);
    },

    async get({ ctx, patientId, id }: Scope & { id: string }): Promise<TRecord> {
      await requirePatient(ctx, patientId);
      return records.get(ctx, { patientId }, id);
    },

    async create({ ctx, patientId, input }: Scope & { input: TInput }): Promise<TRecord> {
      await requirePatient(ctx, patientId, { lock: true });
      await requireProfessional(ctx, input.professionalId);
      return records.create(ctx, { patientId }, columnsOf(input));
    },

    async update({ ctx, patientId, id, input }: Scope & { id: string; input: TInput & { version: number } }) {
      await requirePatient(ctx, patientId, { lock: true });
      return records.update(ctx, { patientId }, id, { version: input.version, next: columnsOf(input) }, (current) =>
        input.professionalId === current.professionalId ? undefined : requireProfessional(ctx, input.professionalId),
      );
    },

    async remove({ ctx, patientId, id }: Scope & { id: string }): Promise<void> {
      await requirePatient(ctx, patientId, { lock: true });
      await records.remove(ctx, { patientId }, id);
      await hooks.removed?.(ctx, patientId, id);
    },

    async changes({ ctx, patientId, id, query }: Scope & { id: string; query: PageQuery }) {
      await requirePatient(ctx, patientId);
      return records.changes(ctx, { patientId }, id, query);
    },
  };
}

/** The clinic and the patient a printed record shows (404 patient_not_found when the patient is gone). */
export async function requirePrintHeader(ctx: RequestContext, patientId: string) {
  const header = await repository.findPrintHeader(ctx, patientId);
  if (!header) throw new AppError('patient_not_found');
  return { ...header, clinic: await loadPrintHeader(ctx) };
}

/**
 * The clinic and patient fields of a printed record, with the patient's age on the record's date:
 * a reprint years later shows what was true then.
 */
export function printedPatient(header: Awaited<ReturnType<typeof requirePrintHeader>>, onDate: string) {
  return {
    clinicName: header.clinicName,
    clinicContact: header.clinicContact,
    clinic: header.clinic,
    patientName: `${header.firstName} ${header.lastName}`,
    patientSsn: header.ssn,
    patientAge: yearsOld(header.birthdate, onDate.slice(0, 10)) ?? 0,
  };
}

/**
 * A diagnosis, laboratory order or attendance is deleted: its files leave it and stay in the
 * patient's files, each audited as removed from the record (as "Quitar del registro" does), so no
 * file points at a deleted record. Called by the record's delete, in its transaction.
 */
export async function releaseFilesOfRecord(
  ctx: RequestContext,
  patientId: string,
  kind: keyof typeof repository.fileRecordKey,
  recordId: string,
): Promise<void> {
  const key = repository.fileRecordKey[kind];
  for (const file of await repository.releaseRecordFiles(ctx, kind, recordId)) {
    await audit(ctx, {
      patientId,
      action: 'file_removed',
      entity: 'file',
      entityId: file.id,
      before: { [key]: recordId, originalName: file.originalName, version: file.version - 1 },
      after: { [key]: null, reason: 'record_deleted' },
    });
  }
}
