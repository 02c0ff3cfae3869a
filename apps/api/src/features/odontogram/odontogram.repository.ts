import { and, count, eq, getTableColumns, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { liveWhere, type RecordScope, sameClinicRow } from '../../db/records.ts';
import { accounts, attendances, odontogramEntries, patients, users } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';
import type { TenantScope } from '../clinical/clinical.service.ts';

/** A patient's odontogram entries (tenant context). Voided entries never come out. */

export type OdontogramEntryInsert = typeof odontogramEntries.$inferInsert;
export type OdontogramEntryRow = typeof odontogramEntries.$inferSelect;
export type OdontogramEntryRowWithNames = OdontogramEntryRow & {
  professionalName: string;
  attendanceTitle: string | null;
  createdByName: string | null;
};

const professional = alias(users, 'professional');
const creator = alias(users, 'creator');

const live = (accountId: string, patientId: string) =>
  liveWhere(odontogramEntries, accountId, odontogramEntries.patientId, patientId);

function selectWithNames(tx: TenantTx) {
  return tx
    .select({
      ...getTableColumns(odontogramEntries),
      professionalName: professional.completeName,
      attendanceTitle: attendances.titleResume,
      createdByName: creator.completeName,
    })
    .from(odontogramEntries)
    .innerJoin(professional, sameClinicRow(professional, odontogramEntries, odontogramEntries.professionalId))
    .leftJoin(
      attendances,
      liveWhere(attendances, odontogramEntries.accountId, attendances.id, odontogramEntries.attendanceId),
    )
    .leftJoin(creator, sameClinicRow(creator, odontogramEntries, odontogramEntries.createdBy));
}

/** The entries charted up to `at` (what the chart at that instant is computed from). */
export async function entriesUpTo(
  { tx, accountId }: TenantScope,
  patientId: string,
  at: Date,
): Promise<Pick<OdontogramEntryRow, 'id' | 'tooth' | 'zone' | 'status' | 'chartedAt'>[]> {
  return tx
    .select({
      id: odontogramEntries.id,
      tooth: odontogramEntries.tooth,
      zone: odontogramEntries.zone,
      status: odontogramEntries.status,
      chartedAt: odontogramEntries.chartedAt,
    })
    .from(odontogramEntries)
    .where(and(live(accountId, patientId), lte(odontogramEntries.chartedAt, at)));
}

/** Every instant with entries, oldest first, and whether any primary tooth was charted. */
export async function chartDates(
  { tx, accountId }: TenantScope,
  patientId: string,
): Promise<{ dates: Date[]; hasPrimary: boolean }> {
  const rows = await tx
    .select({
      chartedAt: odontogramEntries.chartedAt,
      primary: sql<boolean>`bool_or(${odontogramEntries.tooth} >= 51)`,
    })
    .from(odontogramEntries)
    .where(live(accountId, patientId))
    .groupBy(odontogramEntries.chartedAt)
    .orderBy(odontogramEntries.chartedAt);
  return { dates: rows.map((row) => row.chartedAt), hasPrimary: rows.some((row) => row.primary) };
}

/** One page, newest first (charted, then id), and the count. */
export async function listEntries(
  { tx, accountId }: TenantScope,
  patientId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: OdontogramEntryRowWithNames[]; total: number }> {
  const where = live(accountId, patientId);
  const rows = await selectWithNames(tx)
    .where(where)
    .orderBy(...newestFirst(odontogramEntries.chartedAt, odontogramEntries.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [total] = await tx.select({ n: count() }).from(odontogramEntries).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findEntriesByIds(
  { tx, accountId }: TenantScope,
  patientId: string,
  ids: string[],
): Promise<OdontogramEntryRowWithNames[]> {
  if (ids.length === 0) return [];
  return selectWithNames(tx)
    .where(and(live(accountId, patientId), sql`${odontogramEntries.id} in ${ids}`))
    .orderBy(odontogramEntries.tooth, odontogramEntries.zone);
}

/** The entry (not voided), locked for the rest of the transaction. */
export async function findEntryForUpdate(
  { tx, accountId }: TenantScope,
  patientId: string,
  id: string,
): Promise<OdontogramEntryRow | undefined> {
  const [row] = await tx
    .select()
    .from(odontogramEntries)
    .where(and(live(accountId, patientId), eq(odontogramEntries.id, id)))
    .for('no key update');
  return row;
}

export async function insertEntries(tx: TenantTx, rows: OdontogramEntryInsert[]): Promise<void> {
  await tx.insert(odontogramEntries).values(rows);
}

/** The audit event of one batch of marks, as the API and the demo seed record it. */
export function entriesSavedEvent(
  batch: { patientId: string; chartedAt: Date; professionalId: string; attendanceId?: string | null },
  rows: OdontogramEntryInsert[],
) {
  return {
    patientId: batch.patientId,
    action: 'odontogram_entries_saved',
    entity: 'odontogram',
    entityId: batch.patientId,
    after: {
      chartedAt: batch.chartedAt.toISOString(),
      professionalId: batch.professionalId,
      attendanceId: batch.attendanceId,
      marks: rows.map((row) => ({
        id: row.id,
        tooth: row.tooth,
        zone: row.zone,
        status: row.status,
        notes: row.notes,
      })),
    },
  };
}

/** Void: hidden from the chart and the list from now on; the row and its audit stay. */
export async function voidEntry({ tx, accountId, userId }: RecordScope, id: string, reason: string): Promise<void> {
  await tx
    .update(odontogramEntries)
    .set({ deletedAt: new Date(), deletedBy: userId, deleteReason: reason })
    .where(and(eq(odontogramEntries.accountId, accountId), eq(odontogramEntries.id, id)));
}

/** What the printed chart needs: the clinic, the patient and the reader's language. */
export async function findChartHeader({ tx, accountId, userId }: RecordScope, patientId: string) {
  const [row] = await tx
    .select({
      clinicName: accounts.clinicName,
      clinicContact: accounts.contact,
      timeZone: accounts.timeZone,
      firstName: patients.firstName,
      lastName: patients.lastName,
      ssn: patients.ssn,
      skuPatient: patients.skuPatient,
      language: sql<
        string | null
      >`(select ${users.systemLanguage} from ${users} where ${users.accountId} = ${accountId} and ${users.id} = ${userId})`,
    })
    .from(patients)
    .innerJoin(accounts, eq(accounts.id, patients.accountId))
    .where(liveWhere(patients, accountId, patients.id, patientId));
  return row;
}
