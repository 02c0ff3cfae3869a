import { and, count, desc, eq, getTableColumns, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
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

/** A patient's treatment authorizations and their signatures (tenant context). Deleted ones never come out. */

export type AuthorizationInsert = typeof treatmentAuthorizations.$inferInsert;
export type AuthorizationRow = typeof treatmentAuthorizations.$inferSelect;
export type AuthorizationRowWithNames = AuthorizationRow & {
  professionalName: string;
  templateTitle: string | null;
  signedAt: Date | null;
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

const live = (accountId: string, patientId: string) =>
  and(eq(t.accountId, accountId), eq(t.patientId, patientId), isNull(t.deletedAt));

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
      createdByName: creator.completeName,
      updatedByName: updater.completeName,
    })
    .from(t)
    .innerJoin(professional, and(eq(professional.accountId, t.accountId), eq(professional.id, t.professionalId)))
    .leftJoin(
      authorizationTemplates,
      and(eq(authorizationTemplates.accountId, t.accountId), eq(authorizationTemplates.id, t.templateId)),
    )
    .leftJoin(creator, and(eq(creator.accountId, t.accountId), eq(creator.id, t.createdBy)))
    .leftJoin(updater, and(eq(updater.accountId, t.accountId), eq(updater.id, t.updatedBy)));
}

/** One page, newest first (date desc, id desc: the patient index), optionally of one status, and the count. */
export async function listAuthorizations(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  query: { status?: string | undefined; page: number; pageSize: number },
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
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<AuthorizationRowWithNames | undefined> {
  const [row] = await selectWithNames(tx).where(and(live(accountId, patientId), eq(t.id, id)));
  return row;
}

/** The authorization (not deleted), locked for the rest of the transaction: sign, unsign, edit and delete queue here. */
export async function findAuthorizationForUpdate(
  tx: TenantTx,
  accountId: string,
  patientId: string,
  id: string,
): Promise<AuthorizationRow | undefined> {
  const [row] = await tx
    .select()
    .from(t)
    .where(and(live(accountId, patientId), eq(t.id, id)))
    .for('update');
  return row;
}

export async function insertAuthorization(tx: TenantTx, row: AuthorizationInsert): Promise<void> {
  await tx.insert(t).values(row);
}

export async function updateAuthorization(
  tx: TenantTx,
  accountId: string,
  id: string,
  change: Partial<AuthorizationInsert>,
): Promise<void> {
  await tx
    .update(t)
    .set({ ...change, updatedAt: new Date(), version: sql`${t.version} + 1` })
    .where(and(eq(t.accountId, accountId), eq(t.id, id)));
}

export async function softDeleteAuthorization(
  tx: TenantTx,
  accountId: string,
  id: string,
  userId: string,
): Promise<void> {
  const now = new Date();
  await tx
    .update(t)
    .set({ deletedAt: now, deletedBy: userId, updatedAt: now, updatedBy: userId, version: sql`${t.version} + 1` })
    .where(and(eq(t.accountId, accountId), eq(t.id, id)));
}

/** Every signature of an authorization, newest first, with who collected and who revoked it. */
export async function listSignatures(
  tx: TenantTx,
  accountId: string,
  authorizationId: string,
): Promise<SignatureRowWithNames[]> {
  const s = authorizationSignatures;
  const rows = await tx
    .select({ ...getTableColumns(s), collectedByName: collector.completeName, revokedByName: revoker.completeName })
    .from(s)
    .leftJoin(collector, and(eq(collector.accountId, s.accountId), eq(collector.id, s.collectedBy)))
    .leftJoin(revoker, and(eq(revoker.accountId, s.accountId), eq(revoker.id, s.revokedBy)))
    .where(and(eq(s.accountId, accountId), eq(s.authorizationId, authorizationId)))
    .orderBy(desc(s.signedAt), desc(s.id));
  // PGlite answers a bytea as a Uint8Array, node-postgres as a Buffer: one type from here on.
  return rows.map((row) => ({ ...row, signatureImage: Buffer.from(row.signatureImage) }));
}

export async function countSignatures(tx: TenantTx, accountId: string, authorizationId: string): Promise<number> {
  const s = authorizationSignatures;
  const [row] = await tx
    .select({ n: count() })
    .from(s)
    .where(and(eq(s.accountId, accountId), eq(s.authorizationId, authorizationId)));
  return row?.n ?? 0;
}

export async function findStandingSignature(
  tx: TenantTx,
  accountId: string,
  authorizationId: string,
): Promise<SignatureRow | undefined> {
  const s = authorizationSignatures;
  const [row] = await tx
    .select()
    .from(s)
    .where(and(eq(s.accountId, accountId), eq(s.authorizationId, authorizationId), isNull(s.revokedAt)))
    .for('update');
  return row;
}

export async function insertSignature(tx: TenantTx, row: typeof authorizationSignatures.$inferInsert): Promise<void> {
  await tx.insert(authorizationSignatures).values(row);
}

export async function revokeSignature(
  tx: TenantTx,
  accountId: string,
  id: string,
  revoke: { at: Date; by: string; reason: string },
): Promise<void> {
  const s = authorizationSignatures;
  await tx
    .update(s)
    .set({ revokedAt: revoke.at, revokedBy: revoke.by, revokeReason: revoke.reason })
    .where(and(eq(s.accountId, accountId), eq(s.id, id)));
}

/** The active, not deleted template to write from. */
export async function findTemplateToWrite(tx: TenantTx, accountId: string, id: string) {
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
        eq(authorizationTemplates.accountId, accountId),
        eq(authorizationTemplates.id, id),
        isNull(authorizationTemplates.deletedAt),
      ),
    );
  return row;
}

/** What the text and the printed document need: the clinic (name, contact, currency) and the patient. */
export async function findDocumentContext(
  tx: TenantTx,
  accountId: string,
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
      language: patients.language,
    })
    .from(patients)
    .innerJoin(accounts, eq(accounts.id, patients.accountId))
    .where(and(eq(patients.accountId, accountId), eq(patients.id, patientId), isNull(patients.deletedAt)));
  return row;
}
