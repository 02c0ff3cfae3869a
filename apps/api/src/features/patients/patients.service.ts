import { clinicToday, yearsOld } from '@odontia/shared/clinic-time';
import type { Language, Sex } from '@odontia/shared/enums';
import type { Patient, PatientInput, PatientsListQuery } from '@odontia/shared/schemas/patients';
import type { RecordChange } from '@odontia/shared/schemas/records';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { AuthSession } from '../../plugins/auth.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import { requirePatient } from '../clinical/clinical.service.ts';
import * as repository from './patients.repository.ts';

/**
 * Patients (issue 5): numbered by the clinic's counter (P-000123), unique ID number among the
 * clinic's patients, never physically deleted. Every create, edit and delete writes an audit
 * event (entity 'patient', with the patient id) in the same transaction.
 */

type UpdateInput = PatientInput & { version: number };

/** The columns a person edits (create and update write exactly these). */
const editableKeys = [
  'firstName',
  'lastName',
  'email',
  'phoneArea',
  'phone',
  'sex',
  'birthdate',
  'ssn',
  'medicalHistory',
  'active',
  'street',
  'complement',
  'zipCode',
  'country',
  'state',
  'city',
  'district',
  'address',
  'obs',
  'allergies',
  'chronicConditions',
  'currentMedication',
  'language',
] as const satisfies readonly (keyof PatientInput)[];

function columnsOf(input: PatientInput): Pick<PatientInput, (typeof editableKeys)[number]> {
  const columns: Record<string, unknown> = {};
  for (const key of editableKeys) columns[key] = input[key] ?? null;
  return columns as Pick<PatientInput, (typeof editableKeys)[number]>;
}

/** P-000123: six digits at least. */
export function formatSkuPatient(value: number): string {
  return `P-${String(value).padStart(6, '0')}`;
}

/** 400 on the birthdate when it is after the clinic's today (the contract bounds it by the latest date on Earth). */
function checkBirthdate(session: AuthSession, birthdate: string): void {
  if (birthdate > clinicToday(session.timeZone)) {
    throw new AppError('validation_error', { fields: [{ path: 'birthdate', code: 'date_in_future' }] });
  }
}

/** A patient as the API answers it; `today` is the clinic's (the age counts a birthday on the day). */
export function toPatient(
  row: repository.PatientRow & Partial<repository.PatientRowWithNames>,
  today: string,
): Patient {
  return {
    id: row.id,
    skuPatient: row.skuPatient,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phoneArea: row.phoneArea,
    phone: row.phone,
    sex: row.sex as Sex,
    birthdate: row.birthdate,
    age: yearsOld(row.birthdate, today) ?? 0,
    ssn: row.ssn,
    medicalHistory: row.medicalHistory,
    active: row.active,
    street: row.street,
    complement: row.complement,
    zipCode: row.zipCode,
    country: row.country,
    state: row.state,
    city: row.city,
    district: row.district,
    address: row.address,
    obs: row.obs,
    allergies: row.allergies,
    chronicConditions: row.chronicConditions,
    currentMedication: row.currentMedication,
    language: row.language as Language,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName ?? null,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName ?? null,
    version: row.version,
  };
}

/** The editable fields of a row, as the audit stores them. */
function auditedColumns(row: repository.PatientRow): Record<string, unknown> {
  const columns: Record<string, unknown> = { skuPatient: row.skuPatient };
  for (const key of editableKeys) columns[key] = row[key];
  return columns;
}

function duplicateSsn(existing: { id: string; firstName: string; lastName: string }): AppError {
  return new AppError('duplicate_ssn', {
    existingId: existing.id,
    existingName: `${existing.firstName} ${existing.lastName}`,
  });
}

function isSsnViolation(error: unknown): boolean {
  if (!isUniqueViolation(error)) return false;
  for (let current = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { constraint?: unknown }).constraint === 'patients_ssn_unique') return true;
  }
  return false;
}

export interface PatientsServiceDeps {
  db: Database;
}

export function createPatientsService({ db }: PatientsServiceDeps) {
  /** Runs a write; a unique-index race on the ID number becomes 409 duplicate_ssn. */
  async function writing<T>(
    session: AuthSession,
    ssn: string | null,
    fn: (tx: TenantTx) => Promise<T>,
    exceptId?: string,
  ): Promise<T> {
    try {
      return await db.withTenant(session.accountId, fn);
    } catch (error) {
      if (!ssn || !isSsnViolation(error)) throw error;
      const existing = await db.withTenant(session.accountId, (tx) =>
        repository.findBySsn(tx, session.accountId, ssn, exceptId),
      );
      if (existing) throw duplicateSsn(existing);
      throw new AppError('duplicate_ssn', {}, { cause: error });
    }
  }

  async function getPatient(tx: TenantTx, session: AuthSession, id: string): Promise<Patient> {
    const row = await repository.findPatient(tx, session.accountId, id);
    if (!row) throw new AppError('patient_not_found');
    return toPatient(row, clinicToday(session.timeZone));
  }

  return {
    async list(session: AuthSession, query: PatientsListQuery) {
      const { rows, total, totalIsLowerBound } = await db.withTenant(session.accountId, (tx) =>
        repository.listPatients(tx, session.accountId, query),
      );
      const today = clinicToday(session.timeZone);
      return {
        data: rows.map((row) => toPatient(row, today)),
        total,
        ...(totalIsLowerBound ? { totalIsLowerBound } : {}),
        page: query.page,
        pageSize: query.pageSize,
      };
    },

    async get(session: AuthSession, id: string): Promise<Patient> {
      return db.withTenant(session.accountId, (tx) => getPatient(tx, session, id));
    },

    async create(session: AuthSession, input: PatientInput, ip: string): Promise<Patient> {
      checkBirthdate(session, input.birthdate);
      return writing(session, input.ssn, async (tx) => {
        if (input.ssn) {
          const existing = await repository.findBySsn(tx, session.accountId, input.ssn);
          if (existing) throw duplicateSsn(existing);
        }
        const id = newId();
        const skuPatient = formatSkuPatient(await repository.nextCounterValue(tx, session.accountId, 'patient'));
        const columns = columnsOf(input);
        await repository.insertPatient(tx, {
          ...columns,
          accountId: session.accountId,
          id,
          skuPatient,
          createdBy: session.userId,
          updatedBy: session.userId,
        });
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId: id,
          action: 'patient_created',
          entity: 'patient',
          entityId: id,
          ip,
          after: { skuPatient, ...columns },
        });
        return getPatient(tx, session, id);
      });
    },

    async update(session: AuthSession, id: string, input: UpdateInput, ip: string): Promise<Patient> {
      checkBirthdate(session, input.birthdate);
      return writing(
        session,
        input.ssn,
        async (tx) => {
          const current = await repository.findPatientForUpdate(tx, session.accountId, id);
          if (!current) throw new AppError('patient_not_found');
          if (current.version !== input.version) {
            throw new AppError('version_conflict', { current: await getPatient(tx, session, id) });
          }
          if (input.ssn) {
            const existing = await repository.findBySsn(tx, session.accountId, input.ssn, id);
            if (existing) throw duplicateSsn(existing);
          }
          const next = columnsOf(input);
          const { before, after } = changedFields(current, next);
          await repository.updatePatient(tx, session.accountId, id, { ...next, updatedBy: session.userId });
          await recordAuditEvent(tx, {
            accountId: session.accountId,
            userId: session.userId,
            patientId: id,
            action: 'patient_updated',
            entity: 'patient',
            entityId: id,
            ip,
            before,
            after,
          });
          return getPatient(tx, session, id);
        },
        id,
      );
    },

    async remove(session: AuthSession, id: string, ip: string): Promise<void> {
      await db.withTenant(session.accountId, async (tx) => {
        const current = await repository.findPatientForUpdate(tx, session.accountId, id);
        if (!current) throw new AppError('patient_not_found');
        await repository.softDeletePatient(tx, session.accountId, id, session.userId);
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId: id,
          action: 'patient_deleted',
          entity: 'patient',
          entityId: id,
          ip,
          before: { ...auditedColumns(current), version: current.version },
          after: { deleted: true },
        });
      });
    },

    async changes(
      session: AuthSession,
      id: string,
      page: { page: number; pageSize: number },
    ): Promise<{ data: RecordChange[]; total: number; page: number; pageSize: number }> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx, accountId: session.accountId }, id);
        return listRecordChanges(tx, session.accountId, { entity: 'patient', entityId: id }, page);
      });
    },
  };
}

export type PatientsService = ReturnType<typeof createPatientsService>;
