import { and, asc, count, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  accounts,
  attendances,
  inventoryItems,
  patients,
  prescriptionLines,
  prescriptions,
  users,
} from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';

/** A patient's prescriptions and their lines (tenant context). Deleted ones never come out. */

export type PrescriptionInsert = typeof prescriptions.$inferInsert;
export type PrescriptionRow = typeof prescriptions.$inferSelect;
export type PrescriptionLineRow = typeof prescriptionLines.$inferSelect;
export type PrescriptionLineInsert = typeof prescriptionLines.$inferInsert;
export type PrescriptionRowWithNames = PrescriptionRow & {
  createdByName: string | null;
  updatedByName: string | null;
};

const creator = alias(users, 'creator');
const updater = alias(users, 'updater');

const live = (accountId: string, patientId: string) =>
  and(eq(prescriptions.accountId, accountId), eq(prescriptions.patientId, patientId), isNull(prescriptions.deletedAt));

function selectWithNames(tx: TenantTx) {
  return tx
    .select({
      ...getTableColumns(prescriptions),
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(prescriptions)
    .leftJoin(creator, and(eq(creator.accountId, prescriptions.accountId), eq(creator.id, prescriptions.createdBy)))
    .leftJoin(updater, and(eq(updater.accountId, prescriptions.accountId), eq(updater.id, prescriptions.updatedBy)));
}

/** One page, newest first (the patient index: date desc, id desc), and the count. */
export async function listPrescriptions(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: PrescriptionRowWithNames[]; total: number }> {
  const where = live(accountId, patientId);
  const rows = await selectWithNames(tx)
    .where(where)
    .orderBy(...newestFirst(prescriptions.date, prescriptions.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await tx.select({ n: count() }).from(prescriptions).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findPrescription(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<PrescriptionRowWithNames | undefined> {
  const [row] = await selectWithNames(tx).where(and(live(accountId, patientId), eq(prescriptions.id, id)));
  return row;
}

/** The clinic's prescription (not deleted) with this verification code. */
export async function findPrescriptionByCode(
  tx: TenantTx,
  accountId: string,
  code: string,
): Promise<(PrescriptionRowWithNames & { firstName: string; lastName: string; ssn: string | null }) | undefined> {
  const [row] = await tx
    .select({
      ...getTableColumns(prescriptions),
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
      firstName: patients.firstName,
      lastName: patients.lastName,
      ssn: patients.ssn,
    })
    .from(prescriptions)
    .innerJoin(
      patients,
      and(
        eq(patients.accountId, prescriptions.accountId),
        eq(patients.id, prescriptions.patientId),
        isNull(patients.deletedAt),
      ),
    )
    .leftJoin(creator, and(eq(creator.accountId, prescriptions.accountId), eq(creator.id, prescriptions.createdBy)))
    .leftJoin(updater, and(eq(updater.accountId, prescriptions.accountId), eq(updater.id, prescriptions.updatedBy)))
    .where(
      and(
        eq(prescriptions.accountId, accountId),
        eq(prescriptions.verificationCode, code),
        isNull(prescriptions.deletedAt),
      ),
    );
  return row;
}

/** The live lines of these prescriptions, in order. */
export async function listLines(tx: TenantTx, accountId: string, ids: string[]): Promise<PrescriptionLineRow[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(prescriptionLines)
    .where(
      and(
        eq(prescriptionLines.accountId, accountId),
        inArray(prescriptionLines.prescriptionId, ids),
        isNull(prescriptionLines.deletedAt),
      ),
    )
    .orderBy(asc(prescriptionLines.prescriptionId), asc(prescriptionLines.position));
}

/** The prescription (not deleted), locked for the rest of the transaction. */
export async function findPrescriptionForUpdate(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<PrescriptionRow | undefined> {
  const [row] = await tx
    .select()
    .from(prescriptions)
    .where(and(live(accountId, patientId), eq(prescriptions.id, id)))
    .for('update');
  return row;
}

export async function codeTaken(tx: TenantTx, accountId: string, code: string): Promise<boolean> {
  const rows = await tx
    .select({ id: prescriptions.id })
    .from(prescriptions)
    .where(and(eq(prescriptions.accountId, accountId), eq(prescriptions.verificationCode, code)));
  return rows.length > 0;
}

export async function insertPrescription(tx: TenantTx, row: PrescriptionInsert): Promise<void> {
  await tx.insert(prescriptions).values(row);
}

export async function insertLines(tx: TenantTx, rows: PrescriptionLineInsert[]): Promise<void> {
  if (rows.length) await tx.insert(prescriptionLines).values(rows);
}

/** An edit replaces the set of lines: the old ones are soft-deleted (kept for the audit). */
export async function softDeleteLines(
  tx: TenantTx,
  accountId: string,
  prescriptionId: string,
  userId: string,
): Promise<void> {
  await tx
    .update(prescriptionLines)
    .set({ deletedAt: new Date(), deletedBy: userId })
    .where(
      and(
        eq(prescriptionLines.accountId, accountId),
        eq(prescriptionLines.prescriptionId, prescriptionId),
        isNull(prescriptionLines.deletedAt),
      ),
    );
}

export async function updatePrescription(
  tx: TenantTx,
  accountId: string,
  id: string,
  change: Partial<PrescriptionInsert>,
): Promise<void> {
  await tx
    .update(prescriptions)
    .set({ ...change, updatedAt: new Date(), version: sql`${prescriptions.version} + 1` })
    .where(and(eq(prescriptions.accountId, accountId), eq(prescriptions.id, id)));
}

/** Soft delete: hidden everywhere from now on; the row, its lines and its audit stay. */
export async function softDeletePrescription(
  tx: TenantTx,
  accountId: string,
  id: string,
  userId: string,
): Promise<void> {
  const now = new Date();
  await tx
    .update(prescriptions)
    .set({
      deletedAt: now,
      deletedBy: userId,
      updatedAt: now,
      updatedBy: userId,
      version: sql`${prescriptions.version} + 1`,
    })
    .where(and(eq(prescriptions.accountId, accountId), eq(prescriptions.id, id)));
}

/** The professional's details as they are now (copied into a new prescription). */
export async function findProfessionalDetails(
  tx: TenantTx,
  accountId: string,
  userId: string,
): Promise<{ completeName: string; licenseNumber: string | null; specialty: string | null } | undefined> {
  const [row] = await tx
    .select({ completeName: users.completeName, licenseNumber: users.licenseNumber, specialty: users.specialty })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.id, userId)));
  return row;
}

/** Catalogue items by id (any kind and status: the service decides what may be prescribed). */
export async function findItems(
  tx: TenantTx,
  accountId: string,
  ids: string[],
): Promise<{ id: string; kind: string; name: string; approvalStatus: string | null; productStatus: string }[]> {
  if (ids.length === 0) return [];
  return tx
    .select({
      id: inventoryItems.id,
      kind: inventoryItems.kind,
      name: inventoryItems.name,
      approvalStatus: inventoryItems.approvalStatus,
      productStatus: inventoryItems.productStatus,
    })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.accountId, accountId), inArray(inventoryItems.id, ids)));
}

/** Whether the attendance is this patient's (not deleted). */
export async function attendanceOfPatient(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  attendanceId: string,
): Promise<boolean> {
  const rows = await tx
    .select({ id: attendances.id })
    .from(attendances)
    .where(
      and(
        eq(attendances.accountId, accountId),
        eq(attendances.patientId, patientId),
        eq(attendances.id, attendanceId),
        isNull(attendances.deletedAt),
      ),
    );
  return rows.length > 0;
}

/** What the printed prescription needs besides itself: the clinic and the patient (age in the clinic's time zone, language). */
export async function findPrintHeader(
  tx: TenantTx,
  accountId: string,
  patientId: string,
): Promise<
  | {
      clinicName: string;
      clinicContact: string;
      firstName: string;
      lastName: string;
      ssn: string | null;
      birthdate: string;
      language: string;
    }
  | undefined
> {
  const [row] = await tx
    .select({
      clinicName: accounts.clinicName,
      clinicContact: accounts.contact,
      firstName: patients.firstName,
      lastName: patients.lastName,
      ssn: patients.ssn,
      birthdate: patients.birthdate,
      language: patients.language,
    })
    .from(patients)
    .innerJoin(accounts, eq(accounts.id, patients.accountId))
    .where(and(eq(patients.accountId, accountId), eq(patients.id, patientId), isNull(patients.deletedAt)));
  return row;
}
