import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { sameClinicRow } from '../../db/records.ts';
import { type AuthTokenPurpose, accounts, authTokens, logins, sessions, users } from '../../db/schema/index.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';

/**
 * Data access of the session flows. Look-ups that must cross clinics (by e-mail, by token
 * hash) take a `SystemTx`; everything done inside a known clinic takes a `TenantTx`.
 */

type AnyTx = TenantTx | SystemTx;
export type AccountRow = typeof accounts.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export type LoginRow = typeof logins.$inferSelect;
export type Membership = { user: UserRow; account: AccountRow };

/** The person's sign-in by e-mail (issue 19), across clinics. */
export async function findLoginByEmail(tx: SystemTx, email: string): Promise<LoginRow | undefined> {
  const [row] = await tx.select().from(logins).where(sql`lower(${logins.email}) = ${email.toLowerCase()}`).limit(1);
  return row;
}

export async function findLogin(tx: SystemTx, loginId: string): Promise<LoginRow | undefined> {
  const [row] = await tx.select().from(logins).where(eq(logins.id, loginId)).limit(1);
  return row;
}

/** A membership's login (the signed-in user's password and e-mail). */
export async function findLoginOfUser(tx: SystemTx, accountId: string, userId: string) {
  const [row] = await tx
    .select({ login: logins })
    .from(users)
    .innerJoin(logins, eq(logins.id, users.loginId))
    .where(and(eq(users.accountId, accountId), eq(users.id, userId)))
    .limit(1);
  return row?.login;
}

/** Every membership of a login with its clinic, oldest first (deactivated ones too). */
export async function findMemberships(tx: SystemTx, loginId: string): Promise<Membership[]> {
  return tx
    .select({ user: users, account: accounts })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(eq(users.loginId, loginId))
    .orderBy(asc(users.createdAt), asc(users.id));
}

/** A membership the person may enter: active, in an activated clinic. */
export const canEnter = (membership: Membership) => membership.user.active && membership.account.activatedAt !== null;

/**
 * The two sides a person's memberships open (issue 37): the staff's app, or the patient portal (a
 * customer membership, one patient of one clinic). A session stays on its side: its list of
 * clinics and its switch name only memberships of the same side.
 */
export type MembershipSide = 'staff' | 'portal';
export const sideOf = (membership: Membership): MembershipSide =>
  membership.user.level === 'customer' ? 'portal' : 'staff';

/** The memberships of `side` the person may enter. */
export const enterableOn = (side: MembershipSide, memberships: Membership[]) =>
  memberships.filter((membership) => canEnter(membership) && sideOf(membership) === side);

export async function insertLogin(tx: SystemTx, login: typeof logins.$inferInsert): Promise<void> {
  await tx.insert(logins).values(login);
}

export async function setLoginPassword(tx: SystemTx, loginId: string, passwordHash: string): Promise<void> {
  await tx.update(logins).set({ passwordHash, updatedAt: new Date() }).where(eq(logins.id, loginId));
}

export async function setLastAccount(tx: SystemTx, loginId: string, accountId: string): Promise<void> {
  await tx.update(logins).set({ lastAccountId: accountId }).where(eq(logins.id, loginId));
}

/** A new e-mail for the person: on the login and on each membership's copy, in every clinic. */
export async function setLoginEmail(tx: SystemTx, loginId: string, email: string): Promise<void> {
  const at = new Date();
  await tx.update(logins).set({ email, updatedAt: at }).where(eq(logins.id, loginId));
  await tx
    .update(users)
    .set({ email, updatedAt: at, version: sql`${users.version} + 1` })
    .where(eq(users.loginId, loginId));
}

/** The password a sign-up chose, waiting on the newest unused activation link of a membership. */
export async function pendingSignUpPassword(tx: SystemTx, loginId: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ passwordHash: authTokens.passwordHash })
    .from(authTokens)
    .innerJoin(users, sameClinicRow(users, authTokens, authTokens.userId))
    .where(
      and(
        eq(users.loginId, loginId),
        eq(authTokens.purpose, 'activation'),
        isNull(authTokens.usedAt),
        isNotNull(authTokens.passwordHash),
      ),
    )
    .orderBy(desc(authTokens.createdAt))
    .limit(1);
  return row?.passwordHash ?? undefined;
}

export async function insertAccountWithAdministrator(
  tx: SystemTx,
  account: typeof accounts.$inferInsert,
  user: typeof users.$inferInsert,
): Promise<void> {
  await tx.insert(accounts).values(account);
  await tx.insert(users).values(user);
}

export async function insertAuthToken(tx: AnyTx, token: typeof authTokens.$inferInsert): Promise<void> {
  await tx.insert(authTokens).values(token);
}

export async function findAuthToken(tx: SystemTx, tokenHash: string, purpose: AuthTokenPurpose | AuthTokenPurpose[]) {
  const [row] = await tx
    .select({ token: authTokens, user: users, account: accounts })
    .from(authTokens)
    .innerJoin(users, sameClinicRow(users, authTokens, authTokens.userId))
    .innerJoin(accounts, eq(accounts.id, authTokens.accountId))
    .where(
      and(
        eq(authTokens.tokenHash, tokenHash),
        Array.isArray(purpose) ? inArray(authTokens.purpose, purpose) : eq(authTokens.purpose, purpose),
      ),
    )
    .limit(1);
  return row;
}

export async function markAuthTokenUsed(tx: AnyTx, accountId: string, id: string, at: Date): Promise<void> {
  await tx
    .update(authTokens)
    .set({ usedAt: at })
    .where(and(eq(authTokens.accountId, accountId), eq(authTokens.id, id)));
}

/** Uses a link up unless it already was or has expired; answers whether this call did. */
export async function claimAuthToken(tx: AnyTx, accountId: string, id: string): Promise<boolean> {
  const claimed = await tx
    .update(authTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(authTokens.accountId, accountId),
        eq(authTokens.id, id),
        isNull(authTokens.usedAt),
        // The application's clock (JavaScript's), like every other time decision.
        gt(authTokens.expiresAt, new Date()),
      ),
    )
    .returning({ id: authTokens.id });
  return claimed.length > 0;
}

export async function activateUser(
  tx: SystemTx | TenantTx,
  accountId: string,
  userId: string,
  at: Date,
): Promise<void> {
  await tx
    .update(users)
    .set({ activatedAt: at, updatedAt: at, version: sql`${users.version} + 1` })
    .where(and(eq(users.accountId, accountId), eq(users.id, userId), isNull(users.activatedAt)));
  await tx
    .update(accounts)
    .set({ activatedAt: at, updatedAt: at, version: sql`${accounts.version} + 1` })
    .where(and(eq(accounts.id, accountId), isNull(accounts.activatedAt)));
}

export async function insertSession(tx: AnyTx, session: typeof sessions.$inferInsert): Promise<void> {
  await tx.insert(sessions).values(session);
}

export async function setSessionLock(tx: TenantTx, sessionId: string, lockedAt: Date | null): Promise<void> {
  const change = lockedAt ? { lockedAt } : { lockedAt: null, lastActivityAt: new Date() };
  await tx.update(sessions).set(change).where(eq(sessions.id, sessionId));
}

export async function revokeSession(tx: TenantTx, sessionId: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Ends every session of a user, but the one given (password reset: none is kept). */
export async function revokeUserSessions(
  tx: AnyTx,
  accountId: string,
  userId: string,
  exceptSessionId?: string,
): Promise<number> {
  const revoked = await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.accountId, accountId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return revoked.length;
}

/**
 * Ends every session of the person in every clinic (issue 19: one password), but the one given;
 * answers the memberships whose sessions ended, with how many.
 */
export async function revokeLoginSessions(
  tx: SystemTx,
  loginId: string,
  exceptSessionId?: string,
): Promise<{ accountId: string; userId: string }[]> {
  return tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .from(users)
    .where(
      and(
        eq(users.loginId, loginId),
        eq(sessions.accountId, users.accountId),
        eq(sessions.userId, users.id),
        isNull(sessions.revokedAt),
        exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
      ),
    )
    .returning({ accountId: sessions.accountId, userId: sessions.userId });
}

/** One session (the clinic switch reads its remember choice and expiry). */
export async function findSession(tx: SystemTx, accountId: string, sessionId: string) {
  const [row] = await tx
    .select()
    .from(sessions)
    .where(and(eq(sessions.accountId, accountId), eq(sessions.id, sessionId)))
    .limit(1);
  return row;
}

export async function revokeSessionOf(tx: SystemTx, accountId: string, sessionId: string): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.accountId, accountId), eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** A membership by its clinic and id (system context: the clinic is named explicitly). */
export async function findMembership(tx: SystemTx, accountId: string, userId: string) {
  const [row] = await tx
    .select({ user: users, account: accounts })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(and(eq(users.accountId, accountId), eq(users.id, userId)))
    .limit(1);
  return row;
}

/** The signed-in user with their clinic (tenant context: RLS hides every other clinic). */
export async function findUserWithAccount(tx: TenantTx, userId: string) {
  const [row] = await tx
    .select({ user: users, account: accounts })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

export type ProfileChange = Partial<
  Pick<UserRow, 'completeName' | 'licenseNumber' | 'specialty' | 'systemLanguage' | 'dateFormat' | 'systemCurrency'>
>;

export async function updateProfile(tx: TenantTx, userId: string, change: ProfileChange): Promise<void> {
  await tx
    .update(users)
    .set({ ...change, updatedAt: new Date(), version: sql`${users.version} + 1` })
    .where(eq(users.id, userId));
}
