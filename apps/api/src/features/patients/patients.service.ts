import { clinicDayRange, clinicToday, yearsOld } from '@odontia/shared/clinic-time';
import type { Language, Sex } from '@odontia/shared/enums';
import type { Page } from '@odontia/shared/schemas/common';
import type { NewPatientInput, Patient, PatientInput, PatientsListQuery } from '@odontia/shared/schemas/patients';
import type { PageQuery, RecordChange } from '@odontia/shared/schemas/records';
import type { RequestContext } from '../../context.ts';
import { nextCounterValue } from '../../db/counters.ts';
import { guardUnique, violatedConstraint } from '../../db/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { audit, recordAudit } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import { requirePatient } from '../clinical/clinical.service.ts';
import { recordWebhookEvent } from '../webhooks/webhook-events.ts';
import * as repository from './patients.repository.ts';
import { endPortalAccess } from './portal-access.repository.ts';

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
  'deceasedOn',
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
function checkBirthdate(ctx: RequestContext, birthdate: string): void {
  if (birthdate > clinicToday(ctx.timeZone)) {
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
    deceasedOn: row.deceasedOn,
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

/**
 * Runs a write under a savepoint: a unique-index race on the ID number becomes 409
 * duplicate_ssn, naming the patient who holds it.
 */
function guardSsn<T>(ctx: RequestContext, ssn: string | null, write: () => Promise<T>, exceptId?: string) {
  return guardUnique(ctx.tx, write, async (error) => {
    if (!ssn || violatedConstraint(error) !== 'patients_ssn_unique') throw error;
    const existing = await repository.findBySsn(ctx, ssn, exceptId);
    if (existing) throw duplicateSsn(existing);
    throw new AppError('duplicate_ssn', {}, { cause: error });
  });
}

async function refuseTakenSsn(ctx: RequestContext, ssn: string | null, exceptId?: string): Promise<void> {
  if (!ssn) return;
  const existing = await repository.findBySsn(ctx, ssn, exceptId);
  if (existing) throw duplicateSsn(existing);
}

async function getPatient(ctx: RequestContext, id: string): Promise<Patient> {
  const row = await repository.findPatient(ctx.tx, ctx.accountId, id);
  if (!row) throw new AppError('patient_not_found');
  return toPatient(row, clinicToday(ctx.timeZone));
}

async function lockPatient(ctx: RequestContext, id: string) {
  const current = await repository.patientRecords.findForUpdate(ctx, {}, id);
  if (!current) throw new AppError('patient_not_found');
  return current;
}

type PatientRef = { ctx: RequestContext; patientId: string };

const auditPatient = recordAudit('patient');

export const patientsService = {
  async list({ ctx, query }: { ctx: RequestContext; query: PatientsListQuery }) {
    // The page's next appointments come with its rows (appointments_patient_idx), never one query per row.
    // From the start of the clinic's day: a patient running late still shows today's pending appointment.
    const today = clinicToday(ctx.timeZone);
    const { start } = clinicDayRange(ctx.timeZone, today);
    const { rows, total, totalIsLowerBound } = await repository.listPatients(ctx.tx, ctx.accountId, query, start);
    return {
      data: rows.map((row) => ({ ...toPatient(row, today), nextAppointment: row.nextAppointment })),
      total,
      ...(totalIsLowerBound ? { totalIsLowerBound } : {}),
      page: query.page,
      pageSize: query.pageSize,
    };
  },

  get({ ctx, patientId }: PatientRef): Promise<Patient> {
    return getPatient(ctx, patientId);
  },

  async create({ ctx, input }: { ctx: RequestContext; input: NewPatientInput }): Promise<Patient> {
    checkBirthdate(ctx, input.birthdate);
    return guardSsn(ctx, input.ssn, async () => {
      await refuseTakenSsn(ctx, input.ssn);
      const id = newId();
      const skuPatient = formatSkuPatient(await nextCounterValue(ctx, 'patient'));
      const language = input.language ?? (await repository.findNewcomerDefaults(ctx)).language;
      const columns = columnsOf({ ...input, language: language as Language });
      await repository.patientRecords.insert(ctx, { ...columns, id, skuPatient });
      await auditPatient(ctx, id, 'created', {
        patientId: id,
        after: { skuPatient, ...columns },
      });
      // Issue 42: ids only; an integrator reads the record through the API with its own rights.
      await recordWebhookEvent(ctx, 'patient.created', { patientId: id, skuPatient, version: 1 });
      return getPatient(ctx, id);
    });
  },

  async update({ ctx, patientId: id, input }: PatientRef & { input: UpdateInput }): Promise<Patient> {
    checkBirthdate(ctx, input.birthdate);
    return guardSsn(
      ctx,
      input.ssn,
      async () => {
        const current = await lockPatient(ctx, id);
        if (current.version !== input.version) {
          throw new AppError('version_conflict', { current: await getPatient(ctx, id) });
        }
        await refuseTakenSsn(ctx, input.ssn, id);
        const next = columnsOf(input);
        const { before, after } = changedFields(current, next);
        await repository.patientRecords.update(ctx, id, next);
        await audit(ctx, { patientId: id, action: 'patient_updated', entity: 'patient', entityId: id, before, after });
        // Issue 42: which fields changed, never their values.
        await recordWebhookEvent(ctx, 'patient.updated', {
          patientId: id,
          skuPatient: current.skuPatient,
          version: current.version + 1,
          changedFields: Object.keys(after),
        });
        return getPatient(ctx, id);
      },
      id,
    );
  },

  async remove({ ctx, patientId: id }: PatientRef): Promise<void> {
    const current = await lockPatient(ctx, id);
    await repository.patientRecords.softDelete(ctx, id);
    // A deleted patient's portal closes with them (issue 37): membership, sessions and links.
    await endPortalAccess(ctx.tx, ctx.accountId, id);
    await auditPatient(ctx, id, 'deleted', {
      patientId: id,
      before: { ...auditedColumns(current), version: current.version },
      after: { deleted: true },
    });
  },

  async changes({ ctx, patientId: id, query }: PatientRef & { query: PageQuery }): Promise<Page<RecordChange>> {
    await requirePatient(ctx, id);
    return listRecordChanges(ctx.tx, ctx.accountId, { entity: 'patient', entityId: id }, query);
  },
};
