import type { AuthorizationStatus } from '@odontia/shared/enums';
import { and, count, desc, eq, getTableColumns, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { liveWhere, type RecordScope, recordRepository, sameClinicRow } from '../../db/records.ts';
import {
  accounts,
  authorizationSignatures,
  authorizationTemplates,
  patients,
  treatmentAuthorizations,
  users,
} from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { newestFirst } from '../clinical/clinical.repository.ts';
import type { TenantScope } from '../clinical/clinical.service.ts';

/**
 * A patient's treatment authorizations and their signatures (tenant context). Deleted ones never
 * come out. The record's plain writes (lock, insert, versioned update, soft delete) are the
 * usual ones; reading one also reads its template's title and when its standing signature was made.
 */

export type AuthorizationRow = typeof treatmentAuthorizations.$inferSelect;
export type AuthorizationRowWithNames = AuthorizationRow & {
  professionalName: string;
  templateTitle: string | null;
  signedAt: Date | null;
  revokedAt: Date | null;
  revokedByName: string | null;
  createdByName: string | null;
  updatedByName: string | null;
};
export type SignatureRow = typeof authorizationSignatures.$inferSelect;
export type SignatureRowWithNames = SignatureRow & { collectedByName: string | null; revokedByName: string | null };

const professional = alias(users, 'professional');
const creator = alias(users, 'creator');
const updater = alias(users, 'updater');
const collector = alias(users, 'collector');
const revoker = alias(users, 'revoker');
const t = treatmentAuthorizations;

export const authorizationRecords = recordRepository({
  table: t,
  scope: ['patientId'],
  order: newestFirst(t.date, t.id),
});

const live = (accountId: string, patientId: string) => liveWhere(t, accountId, t.patientId, patientId);

function selectWithNames(tx: TenantTx) {
  return tx
    .select({
      ...getTableColumns(t),
      professionalName: professional.completeName,
      templateTitle: authorizationTemplates.title,
      signedAt: sql<Date | null>`(select ${authorizationSignatures.signedAt} from ${authorizationSignatures}
        where ${authorizationSignatures.accountId} = ${t.accountId}
          and ${authorizationSignatures.authorizationId} = ${t.id}
          and ${authorizationSignatures.revokedAt} is null)`.mapWith((value) =>
        value == null ? null : new Date(value),
      ),
      // The latest revocation (a consent whose signature was revoked is not one never signed).
      revokedAt: sql<Date | null>`(select max(${authorizationSignatures.revokedAt}) from ${authorizationSignatures}
        where ${authorizationSignatures.accountId} = ${t.accountId}
          and ${authorizationSignatures.authorizationId} = ${t.id})`.mapWith((value) =>
        value == null ? null : new Date(value),
      ),
      revokedByName: sql<string | null>`(select ${users.completeName} from ${authorizationSignatures}
        join ${users} on ${users.accountId} = ${authorizationSignatures.accountId}
          and ${users.id} = ${authorizationSignatures.revokedBy}
        where ${authorizationSignatures.accountId} = ${t.accountId}
          and ${authorizationSignatures.authorizationId} = ${t.id}
          and ${authorizationSignatures.revokedAt} is not null
        order by ${authorizationSignatures.revokedAt} desc limit 1)`,
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(t)
    .innerJoin(professional, sameClinicRow(professional, t, t.professionalId))
    .leftJoin(authorizationTemplates, sameClinicRow(authorizationTemplates, t, t.templateId))
    .leftJoin(creator, sameClinicRow(creator, t, t.createdBy))
    .leftJoin(updater, sameClinicRow(updater, t, t.updatedBy));
}

/** One page, newest first (date desc, id desc: the patient index), optionally of one status, and the count. */
export async function listAuthorizations(
  { tx, accountId }: TenantScope,
  patientId: string,
  query: { status?: AuthorizationStatus | undefined; page: number; pageSize: number },
): Promise<{ rows: AuthorizationRowWithNames[]; total: number }> {
  const conditions: (SQL | undefined)[] = [live(accountId, patientId)];
  if (query.status) conditions.push(eq(t.status, query.status));
  const where = and(...conditions);
  const rows = await selectWithNames(tx)
    .where(where)
    .orderBy(...newestFirst(t.date, t.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [total] = await tx.select({ n: count() }).from(t).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findAuthorization(
  { tx, accountId }: TenantScope,
  patientId: string,
  id: string,
): Promise<AuthorizationRowWithNames | undefined> {
  const [row] = await selectWithNames(tx).where(and(live(accountId, patientId), eq(t.id, id)));
  return row;
}

/** Every signature of an authorization, newest first, with who collected and who revoked it. */
export async function listSignatures(
  { tx, accountId }: TenantScope,
  authorizationId: string,
): Promise<SignatureRowWithNames[]> {
  const s = authorizationSignatures;
  const rows = await tx
    .select({ ...getTableColumns(s), collectedByName: collector.completeName, revokedByName: revoker.completeName })
    .from(s)
    .leftJoin(collector, sameClinicRow(collector, s, s.collectedBy))
    .leftJoin(revoker, sameClinicRow(revoker, s, s.revokedBy))
    .where(and(eq(s.accountId, accountId), eq(s.authorizationId, authorizationId)))
    .orderBy(desc(s.signedAt), desc(s.id));
  // PGlite answers a bytea as a Uint8Array, node-postgres as a Buffer: one type from here on.
  return rows.map((row) => ({ ...row, signatureImage: Buffer.from(row.signatureImage) }));
}

export async function countSignatures({ tx, accountId }: TenantScope, authorizationId: string): Promise<number> {
  const s = authorizationSignatures;
  const [row] = await tx
    .select({ n: count() })
    .from(s)
    .where(and(eq(s.accountId, accountId), eq(s.authorizationId, authorizationId)));
  return row?.n ?? 0;
}

export async function findStandingSignature(
  { tx, accountId }: TenantScope,
  authorizationId: string,
): Promise<SignatureRow | undefined> {
  const s = authorizationSignatures;
  const [row] = await tx
    .select()
    .from(s)
    .where(and(eq(s.accountId, accountId), eq(s.authorizationId, authorizationId), isNull(s.revokedAt)))
    .for('no key update');
  return row;
}

/** A signature collected by the actor. */
export async function insertSignature(
  { tx, accountId, userId }: RecordScope,
  row: Omit<typeof authorizationSignatures.$inferInsert, 'accountId' | 'collectedBy'>,
): Promise<void> {
  await tx.insert(authorizationSignatures).values({ ...row, accountId, collectedBy: userId });
}

/** Revoked by the actor. */
export async function revokeSignature(
  { tx, accountId, userId }: RecordScope,
  id: string,
  revoke: { at: Date; reason: string },
): Promise<void> {
  const s = authorizationSignatures;
  await tx
    .update(s)
    .set({ revokedAt: revoke.at, revokedBy: userId, revokeReason: revoke.reason })
    .where(and(eq(s.accountId, accountId), eq(s.id, id)));
}

/** The not deleted consent template to write from (a certificate's template is not one). */
export async function findTemplateToWrite({ tx, accountId }: TenantScope, id: string) {
  const [row] = await tx
    .select({
      id: authorizationTemplates.id,
      title: authorizationTemplates.title,
      body: authorizationTemplates.body,
      active: authorizationTemplates.active,
    })
    .from(authorizationTemplates)
    .where(
      and(
        liveWhere(authorizationTemplates, accountId, authorizationTemplates.id, id),
        eq(authorizationTemplates.kind, 'consent'),
      ),
    );
  return row;
}

/** What the text and the printed document need: the clinic (name, contact, currency) and the patient. */
export async function findDocumentContext(
  { tx, accountId }: TenantScope,
  patientId: string,
): Promise<
  | {
      clinicName: string;
      clinicContact: string;
      currency: string;
      timeZone: string;
      firstName: string;
      lastName: string;
      ssn: string | null;
      sex: string;
      language: string;
    }
  | undefined
> {
  const [row] = await tx
    .select({
      clinicName: accounts.clinicName,
      clinicContact: accounts.contact,
      currency: accounts.systemCurrency,
      timeZone: accounts.timeZone,
      firstName: patients.firstName,
      lastName: patients.lastName,
      ssn: patients.ssn,
      sex: patients.sex,
      language: patients.language,
    })
    .from(patients)
    .innerJoin(accounts, eq(accounts.id, patients.accountId))
    .where(liveWhere(patients, accountId, patients.id, patientId));
  return row;
}
