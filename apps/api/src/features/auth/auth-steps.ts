import type { Language } from '@odontia/shared/enums';
import type { Profile } from '@odontia/shared/schemas/auth';
import type { AuthTokenPurpose } from '../../db/schema/index.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { type AuthMailKind, authMail } from './auth.mail.ts';
import * as repository from './auth.repository.ts';
import { type AuthServiceDeps, type ClientContext, rememberedSessionMs, sessionMs, toProfile } from './auth-common.ts';

/** The steps the auth flows share: the own-password check, links, mail, sessions, the profile. */
export function createAuthSteps(deps: AuthServiceDeps) {
  const { db, mailer, throttle, publicUrl } = deps;

  /**
   * Checks the password of a signed-in user under the throttle (issue 14): a stolen session
   * must not become a way to guess the password. Answers whether it is right.
   */
  async function checkOwnPassword(
    actor: { accountId: string; userId: string },
    password: string,
    context: ClientContext,
  ): Promise<boolean> {
    const login = await db.withSystem((tx) => repository.findLoginOfUser(tx, actor.accountId, actor.userId));
    if (!login) throw new AppError('unauthorized');
    const attempt = await throttle.attempt({ email: login.email, ip: context.ip, user: { loginId: login.id } });
    const valid = await verifyPassword(login.passwordHash, password);
    if (valid) await attempt.forgive();
    return valid;
  }

  async function issueToken(
    tx: SystemTx | TenantTx,
    target: { accountId: string; userId: string },
    purpose: AuthTokenPurpose,
    ttlMs: number,
    pendingPasswordHash: string | null = null,
  ): Promise<string> {
    const token = newToken();
    await repository.insertAuthToken(tx, {
      accountId: target.accountId,
      id: newId(),
      userId: target.userId,
      purpose,
      tokenHash: hashToken(token),
      passwordHash: pendingPasswordHash,
      expiresAt: new Date(Date.now() + ttlMs),
    });
    return token;
  }

  async function sendMail(options: {
    kind: AuthMailKind;
    path: string;
    user: { email: string; completeName: string; systemLanguage: string };
    clinicName: string;
    /** A portal mail's clinic brand colour. */
    clinicColor?: string | null;
  }): Promise<void> {
    try {
      await mailer.send(
        authMail({
          kind: options.kind,
          language: options.user.systemLanguage as Language,
          to: options.user.email,
          name: options.user.completeName,
          clinicName: options.clinicName,
          clinicColor: options.clinicColor,
          link: `${publicUrl}${options.path}`,
        }),
      );
    } catch (cause) {
      deps.log.error({ err: cause, to: options.user.email }, 'could not send mail');
      throw new AppError('error_sending_email', undefined, { cause });
    }
  }

  async function createSession(
    tx: SystemTx | TenantTx,
    user: { accountId: string; id: string },
    remember: boolean,
    context: ClientContext,
    until?: Date,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = newToken();
    const now = new Date();
    const expiresAt = until ?? new Date(now.getTime() + (remember ? rememberedSessionMs : sessionMs));
    await repository.insertSession(tx, {
      // The idle lock compares with the application's clock, not the database's.
      lastActivityAt: now,
      accountId: user.accountId,
      id: newId(),
      userId: user.id,
      tokenHash: hashToken(token),
      remember,
      expiresAt,
      ip: context.ip,
      userAgent: context.userAgent?.slice(0, 500) ?? null,
    });
    return { token, expiresAt };
  }

  /**
   * The clinic sign-in opens on `side`: the one last entered when the person may still enter it,
   * else the oldest. Without a side (the staff's sign-in page), the staff side when the person has
   * one, else the portal's (a patient who signs in there sees their profile, as before issue 37).
   */
  function homeClinic(
    login: repository.LoginRow,
    memberships: repository.Membership[],
    side?: repository.MembershipSide,
  ): repository.Membership | undefined {
    const staff = repository.enterableOn('staff', memberships);
    const open = repository.enterableOn(side ?? (staff.length > 0 ? 'staff' : 'portal'), memberships);
    return open.find((membership) => membership.account.id === login.lastAccountId) ?? open[0];
  }

  /**
   * A new session in one of the person's clinics (sign-in or switch), in the system context: it
   * also remembers the clinic on the login. The first entry into a clinic that invited an
   * existing sign-in accepts the invitation (issue 19).
   */
  async function enter(
    tx: SystemTx,
    options: {
      login: repository.LoginRow;
      membership: repository.Membership;
      memberships: repository.Membership[];
      remember: boolean;
      context: ClientContext;
      action: 'sign_in' | 'clinic_switched_in';
      until?: Date;
    },
  ) {
    const { login, membership, context } = options;
    const accountId = membership.account.id;
    const userId = membership.user.id;
    const session = await createSession(tx, membership.user, options.remember, context, options.until);
    await repository.setLastAccount(tx, login.id, accountId);
    let user = membership.user;
    if (!user.activatedAt) {
      const at = new Date();
      await repository.activateUser(tx, accountId, userId, at);
      user = { ...user, activatedAt: at };
      await recordAuditEvent(tx, {
        accountId,
        userId,
        action: 'invitation_accepted',
        entity: 'user',
        entityId: userId,
        ip: context.ip,
      });
    }
    await recordAuditEvent(tx, {
      accountId,
      userId,
      action: options.action,
      entity: 'session',
      ip: context.ip,
      after: { remember: options.remember, expiresAt: session.expiresAt.toISOString() },
    });
    const memberships = options.memberships.map((other) =>
      other.user.id === userId && other.account.id === accountId ? { ...other, user } : other,
    );
    return {
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      user: toProfile({ user, account: membership.account }, false, deps.contract, memberships),
    };
  }

  /** The signed-in person's profile in this session's clinic, with their other clinics. */
  async function readProfile(actor: { accountId: string; userId: string }, locked: boolean): Promise<Profile> {
    return db.withSystem(async (tx) => {
      const row = await repository.findMembership(tx, actor.accountId, actor.userId);
      if (!row) throw new AppError('unauthorized');
      return toProfile(row, locked, deps.contract, await repository.findMemberships(tx, row.user.loginId));
    });
  }

  /**
   * One password for every clinic (issue 19): sets it on the login and ends the person's sessions
   * everywhere but `keepSessionId`; each clinic whose sessions ended, or where the person is a
   * member, records the event in its own trail.
   */
  async function replacePassword(
    tx: SystemTx,
    options: {
      loginId: string;
      passwordHash: string;
      keepSessionId?: string;
      origin: { accountId: string; userId: string; action: string };
      ip: string;
    },
  ): Promise<void> {
    const { loginId, origin } = options;
    await repository.setLoginPassword(tx, loginId, options.passwordHash);
    const ended = await repository.revokeLoginSessions(tx, loginId, options.keepSessionId);
    const memberships = await repository.findMemberships(tx, loginId);
    for (const membership of memberships) {
      const here = membership.account.id === origin.accountId;
      const sessionsEnded = ended.filter((session) => session.accountId === membership.account.id).length;
      if (!here && !repository.canEnter(membership) && sessionsEnded === 0) continue;
      await recordAuditEvent(tx, {
        accountId: membership.account.id,
        userId: membership.user.id,
        action: here ? origin.action : 'password_changed',
        entity: 'user',
        entityId: membership.user.id,
        ip: options.ip,
        // Another clinic learns that the password changed, not where.
        after: here ? { sessionsEnded } : { sessionsEnded, elsewhere: true },
      });
    }
  }

  return { checkOwnPassword, issueToken, sendMail, createSession, homeClinic, enter, readProfile, replacePassword };
}

export type AuthSteps = ReturnType<typeof createAuthSteps>;
