import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { accounts, authTokens, patients, sessions, users } from '../../db/schema/index.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';

/**
 * Data access of a patient's portal access (issue 37): the patient's customer membership
 * (`users.patient_id`) and its one-time links (`auth_tokens`, purpose 'portal'). The staff's
 * reads run in the clinic's transaction; creating a membership and the public request, which
 * involve the person's sign-in across clinics, in the system context with the clinic named.
 */

type AnyTx = TenantTx | SystemTx;

/** A live (not deleted) patient of the clinic, with what an invitation needs. */
export async function findInvitablePatient(tx: AnyTx, accountId: string, patientId: string) {
  const [row] = await tx
    .select({
      id: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      email: patients.email,
      language: patients.language,
    })
    .from(patients)
    .where(and(eq(patients.accountId, accountId), eq(patients.id, patientId), isNull(patients.deletedAt)))
    .limit(1);
  return row;
}

/** The patient's customer membership (active or not). */
export async function findPortalMembership(tx: AnyTx, accountId: string, patientId: string) {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.patientId, patientId)))
    .limit(1);
  return row;
}

/** When the membership's newest portal link was sent (the staff's "invited on"). */
export async function lastPortalLinkAt(tx: AnyTx, accountId: string, userId: string): Promise<Date | null> {
  const [row] = await tx
    .select({ createdAt: authTokens.createdAt })
    .from(authTokens)
    .where(and(eq(authTokens.accountId, accountId), eq(authTokens.userId, userId), eq(authTokens.purpose, 'portal')))
    .orderBy(desc(authTokens.createdAt))
    .limit(1);
  return row?.createdAt ?? null;
}

export async function setMembershipActive(tx: AnyTx, accountId: string, userId: string, active: boolean) {
  await tx
    .update(users)
    .set({ active, updatedAt: new Date(), version: sql`${users.version} + 1` })
    .where(and(eq(users.accountId, accountId), eq(users.id, userId)));
}

/** Uses up every unused portal link of the membership: a revoked access opens nothing. */
export async function expirePortalLinks(tx: AnyTx, accountId: string, userId: string): Promise<void> {
  await tx
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(authTokens.accountId, accountId),
        eq(authTokens.userId, userId),
        eq(authTokens.purpose, 'portal'),
        isNull(authTokens.usedAt),
      ),
    );
}

/** What a new membership copies from its clinic, and what its mail names. */
export async function findClinicAccount(tx: SystemTx, accountId: string) {
  const [row] = await tx
    .select({
      clinicName: accounts.clinicName,
      brandColor: accounts.brandColor,
      publicSlug: accounts.publicSlug,
      dateFormat: accounts.dateFormat,
      systemCurrency: accounts.systemCurrency,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row;
}

/**
 * Ends the patient's portal access, if any is active: the membership deactivated, its sessions
 * revoked, its unused links used up. Answers whether there was one (revoking; a deleted patient).
 */
export async function endPortalAccess(tx: TenantTx, accountId: string, patientId: string): Promise<boolean> {
  const membership = await findPortalMembership(tx, accountId, patientId);
  if (!membership?.active) return false;
  await setMembershipActive(tx, accountId, membership.id, false);
  await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.accountId, accountId), eq(sessions.userId, membership.id), isNull(sessions.revokedAt)));
  await expirePortalLinks(tx, accountId, membership.id);
  return true;
}
