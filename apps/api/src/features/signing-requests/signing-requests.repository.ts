/*
 * The remote signing requests' records (issue 37), below the documents that are signed: a budget or a
 * consent signed at the chair closes its pending request here, and the signing flow above
 * (features/signing: sending, the link's page, the answer) signs through the budgets and consents.
 */
import type { SigningKind } from '@odontia/shared/schemas/signing-requests';
import { and, desc, eq, isNull, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { clinicBrandColumns } from '../../db/clinic-brand.ts';
import { accounts, patients, signingRequests, users } from '../../db/schema/index.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { hashToken } from '../../lib/tokens.ts';

/** The SQL of signing requests (issue 37); the rules are in signing-requests.service.ts. */

interface Scope {
  readonly tx: TenantTx;
  readonly accountId: string;
}

export type SigningRequestRow = typeof signingRequests.$inferSelect;
export type SigningRequestWithSender = SigningRequestRow & { sentByName: string | null };

/** The column that names the document of a kind. */
const documentColumn = (kind: SigningKind) =>
  kind === 'authorization' ? signingRequests.authorizationId : signingRequests.saleId;

const ofDocument = (scope: Scope, kind: SigningKind, documentId: string) =>
  and(eq(signingRequests.accountId, scope.accountId), eq(documentColumn(kind), documentId));

export async function insertRequest(scope: Scope, values: Omit<typeof signingRequests.$inferInsert, 'accountId'>) {
  await scope.tx.insert(signingRequests).values({ ...values, accountId: scope.accountId });
}

/** The document's newest request, with the name of who sent it. */
export async function latestOf(
  scope: Scope,
  kind: SigningKind,
  documentId: string,
): Promise<SigningRequestWithSender | undefined> {
  const [row] = await scope.tx
    .select({ request: signingRequests, sentByName: users.completeName })
    .from(signingRequests)
    .leftJoin(users, and(eq(users.accountId, signingRequests.accountId), eq(users.id, signingRequests.sentBy)))
    .where(ofDocument(scope, kind, documentId))
    .orderBy(desc(signingRequests.createdAt), desc(signingRequests.id))
    .limit(1);
  return row ? { ...row.request, sentByName: row.sentByName } : undefined;
}

/** The document's pending request, locked. */
export async function pendingOf(scope: Scope, kind: SigningKind, documentId: string) {
  const [row] = await scope.tx
    .select()
    .from(signingRequests)
    .where(and(ofDocument(scope, kind, documentId), eq(signingRequests.status, 'pending')))
    .for('update');
  return row;
}

/** Stores as expired the document's pending requests past their expiry (so a new one may be sent). */
export async function closeExpired(scope: Scope, kind: SigningKind, documentId: string, now: Date) {
  await scope.tx
    .update(signingRequests)
    .set({ status: 'expired' })
    .where(
      and(
        ofDocument(scope, kind, documentId),
        eq(signingRequests.status, 'pending'),
        lte(signingRequests.expiresAt, now),
      ),
    );
}

export async function updateRequest(scope: Scope, id: string, values: Partial<SigningRequestRow>) {
  await scope.tx
    .update(signingRequests)
    .set(values)
    .where(and(eq(signingRequests.accountId, scope.accountId), eq(signingRequests.id, id)));
}

/** The clinic and id of a link's request: the one look-up across clinics, in the system context. */
export async function findByToken(db: Database, token: string) {
  return db.withSystem(async (tx) => {
    const [row] = await tx
      .select({ accountId: signingRequests.accountId, id: signingRequests.id })
      .from(signingRequests)
      .where(eq(signingRequests.tokenHash, hashToken(token)));
    return row;
  });
}

/** A request of the clinic, locked: two taps on "Firmar" sign once. */
export async function lockRequest(scope: Scope, id: string) {
  const [row] = await scope.tx
    .select()
    .from(signingRequests)
    .where(and(eq(signingRequests.accountId, scope.accountId), eq(signingRequests.id, id)))
    .for('update');
  return row;
}

/** Who the link goes to and the clinic it comes from. */
export async function patientContact(scope: Scope, patientId: string) {
  const [row] = await scope.tx
    .select({
      email: patients.email,
      firstName: patients.firstName,
      lastName: patients.lastName,
      sex: patients.sex,
      language: patients.language,
      clinicName: accounts.clinicName,
      ...clinicBrandColumns,
      timeZone: accounts.timeZone,
    })
    .from(patients)
    .innerJoin(accounts, eq(accounts.id, patients.accountId))
    .where(and(eq(patients.accountId, scope.accountId), eq(patients.id, patientId), isNull(patients.deletedAt)));
  return row;
}

/** The sender's level: a remote signature is collected in their name, as at the chair. */
export async function userLevel(scope: Scope, userId: string) {
  const [row] = await scope.tx
    .select({ level: users.level })
    .from(users)
    .where(and(eq(users.accountId, scope.accountId), eq(users.id, userId)));
  return row?.level;
}
