import { type AnyColumn, and, asc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { liveWhere, type RecordScope } from '../../db/records.ts';
import {
  accounts,
  attendances,
  type healthCertificates,
  inventoryItems,
  patientFiles,
  patients,
  type prescriptions,
  users,
} from '../../db/schema/index.ts';
import { spanishKey } from '../../db/spanish-order.ts';
import type { TenantTx } from '../../db/tenancy.ts';

/** What every clinical record of a patient checks first (tenant context). */

/**
 * Whether the clinic has this patient (not deleted). With `lock`, the patient is share-locked for
 * the rest of the transaction so a record is never written for a patient being deleted at the
 * same moment.
 */
export async function patientExists(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  options: { lock?: boolean } = {},
): Promise<boolean> {
  const query = tx
    .select({ id: patients.id })
    .from(patients)
    .where(liveWhere(patients, accountId, patients.id, patientId));
  const rows = options.lock ? await query.for('share') : await query;
  return rows.length > 0;
}

/** Upper bound of the professionals list: far above any clinic's staff, a guard against a runaway answer. */
export const maxProfessionals = 500;

/** The clinic's active users who are not customers, by name, with licence and specialty. */
export async function listProfessionals({ tx, accountId }: { tx: TenantTx; accountId: string }) {
  return tx
    .select({
      id: users.id,
      completeName: users.completeName,
      licenseNumber: users.licenseNumber,
      specialty: users.specialty,
    })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.active, true), ne(users.level, 'customer')))
    .orderBy(asc(spanishKey(users.completeName)), asc(users.id))
    .limit(maxProfessionals);
}

/** An active user of the clinic who can attend patients (any level but customer), with licence and specialty. */
export async function findProfessional(
  tx: TenantTx,
  accountId: string,
  userId: string,
): Promise<{ id: string; completeName: string; licenseNumber: string | null; specialty: string | null } | undefined> {
  const [row] = await tx
    .select({
      id: users.id,
      completeName: users.completeName,
      licenseNumber: users.licenseNumber,
      specialty: users.specialty,
      level: users.level,
      active: users.active,
    })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.id, userId)));
  if (!row?.active || row.level === 'customer') return undefined;
  return { id: row.id, completeName: row.completeName, licenseNumber: row.licenseNumber, specialty: row.specialty };
}

/**
 * ORDER BY of "a patient's records, newest first": the same direction and null order as the
 * partial indexes (drizzle writes `desc` there as DESC NULLS LAST), so the index gives the order
 * and the first page reads 20 index entries, not the whole history.
 */
export function newestFirst(date: AnyColumn, id: AnyColumn): SQL[] {
  return [sql`${date} desc nulls last`, sql`${id} desc nulls last`];
}

/**
 * What a printed record shows besides itself: the clinic, the patient (the age is computed on the
 * record's date), and the languages it may be printed in (the patient's, the reader's).
 */
export async function findPrintHeader(ctx: { tx: TenantTx; accountId: string; userId: string }, patientId: string) {
  const [row] = await ctx.tx
    .select({
      clinicName: accounts.clinicName,
      clinicContact: accounts.contact,
      firstName: patients.firstName,
      lastName: patients.lastName,
      ssn: patients.ssn,
      birthdate: patients.birthdate,
      sex: patients.sex,
      patientLanguage: patients.language,
      readerLanguage: sql<
        string | null
      >`(select ${users.systemLanguage} from ${users} where ${users.accountId} = ${ctx.accountId} and ${users.id} = ${ctx.userId})`,
    })
    .from(patients)
    .innerJoin(accounts, eq(accounts.id, patients.accountId))
    .where(liveWhere(patients, ctx.accountId, patients.id, patientId));
  return row;
}

/** The ids among `ids` that are attendances of this patient (not deleted): what a record may link to. */
export async function attendancesOfPatient(
  { tx, accountId }: { tx: TenantTx; accountId: string },
  patientId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: attendances.id })
    .from(attendances)
    .where(and(liveWhere(attendances, accountId, attendances.id, ids), eq(attendances.patientId, patientId)));
  return new Set(rows.map((row) => row.id));
}

/** Whether the attendance (not deleted) belongs to this patient. */
export async function attendanceOfPatient(
  scope: { tx: TenantTx; accountId: string },
  patientId: string,
  attendanceId: string,
): Promise<boolean> {
  return (await attendancesOfPatient(scope, patientId, [attendanceId])).has(attendanceId);
}

/** The clinic's catalogue items among `ids`, any kind and status: the service decides what may be used. */
export async function findCatalogueItems({ tx, accountId }: { tx: TenantTx; accountId: string }, ids: string[]) {
  if (ids.length === 0) return [];
  return tx
    .select({
      id: inventoryItems.id,
      kind: inventoryItems.kind,
      name: inventoryItems.name,
      productStatus: inventoryItems.productStatus,
      approvalStatus: inventoryItems.approvalStatus,
    })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.accountId, accountId), inArray(inventoryItems.id, ids)));
}

/** The key of a patient's file that names its record, by kind of record. */
export const fileRecordKey = {
  diagnosis: 'diagnosisId',
  laboratory: 'laboratoryId',
  attendance: 'attendanceId',
} as const;

/**
 * The live files of a record being deleted leave it and stay the patient's (a new version each,
 * by the actor); answers them for the audit.
 */
export async function releaseRecordFiles(
  { tx, accountId, userId }: RecordScope,
  kind: keyof typeof fileRecordKey,
  recordId: string,
) {
  const key = fileRecordKey[kind];
  return tx
    .update(patientFiles)
    .set({ [key]: null, updatedBy: userId, updatedAt: new Date(), version: sql`${patientFiles.version} + 1` })
    .where(and(eq(patientFiles.accountId, accountId), eq(patientFiles[key], recordId), isNull(patientFiles.deletedAt)))
    .returning({ id: patientFiles.id, originalName: patientFiles.originalName, version: patientFiles.version });
}

/** A paper a pharmacy or an employer checks by its verification code (prescriptions, health certificates). */
type VerifiedPaper = typeof prescriptions | typeof healthCertificates;

/** The clinic's live paper with this verification code, of a live patient, and who that is. */
export async function findPaperByCode({ tx, accountId }: RecordScope, paper: VerifiedPaper, code: string) {
  const [row] = await tx
    .select({
      id: paper.id,
      patientId: paper.patientId,
      firstName: patients.firstName,
      lastName: patients.lastName,
      ssn: patients.ssn,
    })
    .from(paper)
    .innerJoin(patients, liveWhere(patients, paper.accountId, patients.id, paper.patientId))
    .where(liveWhere(paper, accountId, paper.verificationCode, code));
  return row;
}

/** Whether any paper of the clinic, deleted or not, has this code. */
export async function paperCodeTaken({ tx, accountId }: RecordScope, paper: VerifiedPaper, code: string) {
  const rows = await tx
    .select({ id: paper.id })
    .from(paper)
    .where(and(eq(paper.accountId, accountId), eq(paper.verificationCode, code)));
  return rows.length > 0;
}
