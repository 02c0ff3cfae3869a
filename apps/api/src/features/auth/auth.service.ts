import type { Currency, Language } from '@odontia/shared/enums';
import { accountStateAt, graceEndsAt } from '@odontia/shared/schemas/account';
import type {
  Profile,
  SignInRequest,
  SignUpRequest,
  SwitchClinicRequest,
  UpdateProfileRequest,
} from '@odontia/shared/schemas/auth';
import type { FastifyBaseLogger } from 'fastify';
import type { Actor, RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import type { ContractRules } from '../../plugins/auth.ts';
import { audit, recordAuditEvent } from '../audit/audit.repository.ts';
import { defaultCertificateTemplates, defaultTemplates } from '../authorizations/template-texts.ts';
import { insertTemplates } from '../authorizations/templates.repository.ts';
import { type AuthMailKind, authMail } from './auth.mail.ts';
import * as repository from './auth.repository.ts';
import type { AuthThrottle } from './auth.throttle.ts';
import { isCommonPassword } from './password-policy.ts';

/**
 * The session flows (issue 3): sign-up → activation → sign-in → lock/unlock → sign-out, and
 * the forgotten password. Business rules live here; SQL in the repository; HTTP in the routes.
 */

const hour = 60 * 60 * 1000;
const day = 24 * hour;
export const trialDays = 30;
export const activationTtlMs = 24 * hour;
export const resetTtlMs = 60 * 60 * 1000;
export const rememberedSessionMs = 30 * day;
export const sessionMs = 12 * hour;
export const invitationTtlMs = 7 * day;
/** Links that set a password on the reset page: a reset, or an invitation to the clinic. */
const passwordLinkPurposes: ('reset' | 'invitation')[] = ['reset', 'invitation'];

/** Defaults of a new clinic by the language it signed up in (the spec leaves them open). */
const clinicDefaults: Record<Language, { currency: Currency; timeZone: string; dateFormat: string }> = {
  es: { currency: 'argentine_peso', timeZone: 'America/Argentina/Buenos_Aires', dateFormat: 'DD/MM/YYYY' },
  pt: { currency: 'brazilian_real', timeZone: 'America/Sao_Paulo', dateFormat: 'DD/MM/YYYY' },
  fr: { currency: 'euro', timeZone: 'Europe/Paris', dateFormat: 'DD/MM/YYYY' },
  en: { currency: 'us_dollar', timeZone: 'UTC', dateFormat: 'MM/DD/YYYY' },
};

export interface AuthServiceDeps {
  db: Database;
  mailer: Mailer;
  throttle: AuthThrottle;
  /** Absolute, ends with '/'. */
  publicUrl: string;
  log: FastifyBaseLogger;
  /** My account (issue 19): whether due dates are enforced and the grace days (the profile's contract state). */
  contract?: ContractRules;
}

/** Where a public request comes from (no session yet). */
export interface ClientContext {
  ip: string;
  userAgent?: string | undefined;
}

export function refuseCommonPassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new AppError('validation_error', { fields: [{ path: 'password', code: 'password_too_common' }] });
  }
}

export function toProfile(
  row: repository.Membership,
  locked: boolean,
  contract: ContractRules = { enforced: false, graceDays: 0 },
  memberships: repository.Membership[] = [row],
): Profile {
  const { user, account } = row;
  return {
    id: user.id,
    completeName: user.completeName,
    email: user.email,
    level: user.level,
    licenseNumber: user.licenseNumber,
    specialty: user.specialty,
    account: {
      id: account.id,
      clinicName: account.clinicName,
      plan: account.plan,
      planEndsAt: account.planEndsAt?.toISOString() ?? null,
      contractState: accountStateAt({
        endsAt: account.planEndsAt,
        renewalRequestedAt: account.renewalRequestedAt,
        graceDays: contract.graceDays,
        enforced: contract.enforced,
      }),
      graceEndsAt: contract.enforced ? graceEndsAt(account.planEndsAt, contract.graceDays) : null,
      timeZone: account.timeZone,
      defaultLanguage: account.defaultLanguage as Language,
      currency: account.systemCurrency as Currency,
    },
    settings: {
      systemLanguage: user.systemLanguage as Language,
      dateFormat: user.dateFormat,
      systemCurrency: user.systemCurrency as Currency,
      lockAfterMinutes: account.lockAfterMinutes,
    },
    locked,
    clinics: memberships
      .filter((membership) => repository.canEnter(membership) || membership.account.id === account.id)
      .map((membership) => ({
        id: membership.account.id,
        clinicName: membership.account.clinicName,
        level: membership.user.level,
      })),
  };
}

export function createAuthService(deps: AuthServiceDeps) {
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
    purpose: 'activation' | 'reset' | 'invitation',
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
  }): Promise<void> {
    try {
      await mailer.send(
        authMail({
          kind: options.kind,
          language: options.user.systemLanguage as Language,
          to: options.user.email,
          name: options.user.completeName,
          clinicName: options.clinicName,
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

  /** The clinic sign-in opens: the one last entered when the person may still enter it, else the oldest. */
  function homeClinic(
    login: repository.LoginRow,
    memberships: repository.Membership[],
  ): repository.Membership | undefined {
    const open = memberships.filter(repository.canEnter);
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

  return {
    /**
     * A clinic on the trial plan and its administrator, not activated; sends the activation mail.
     * The answer is the same when the e-mail already signs in elsewhere (issue 19): the new clinic
     * joins that sign-in, its password unchanged, once the link of the mail is used.
     */
    async signUp(input: SignUpRequest, context: ClientContext): Promise<void> {
      refuseCommonPassword(input.password);
      const attempt = await throttle.attempt({ email: input.email, ip: context.ip });
      const language = input.language ?? 'es';
      const defaults = clinicDefaults[language];
      const passwordHash = await hashPassword(input.password);
      const accountId = newId();
      const userId = newId();
      const create = () =>
        db.withSystem(async (tx) => {
          const existing = await repository.findLoginByEmail(tx, input.email);
          const loginId = existing?.id ?? newId();
          if (!existing) {
            await repository.insertLogin(tx, { id: loginId, email: input.email.toLowerCase(), passwordHash: null });
          }
          await repository.insertAccountWithAdministrator(
            tx,
            {
              id: accountId,
              clinicName: input.clinicName,
              contact: input.contact,
              plan: 'trial',
              planEndsAt: new Date(Date.now() + trialDays * day),
              promotionalCode: input.promotionalCode || null,
              systemCurrency: defaults.currency,
              timeZone: defaults.timeZone,
              defaultLanguage: language,
              dateFormat: defaults.dateFormat,
            },
            {
              accountId,
              id: userId,
              loginId,
              completeName: input.completeName,
              email: existing?.email ?? input.email.toLowerCase(),
              level: 'administrator',
              systemLanguage: language,
              dateFormat: defaults.dateFormat,
              systemCurrency: defaults.currency,
            },
          );
          // A new clinic starts with a general informed-consent template in its language (issue 6)
          // and one certificate template of each kind (issue 24).
          await insertTemplates(
            tx,
            [defaultTemplates[language], ...defaultCertificateTemplates(language)].map((template) => ({
              accountId,
              id: newId(),
              ...template,
              createdBy: userId,
              updatedBy: userId,
            })),
          );
          // A sign-in that already works keeps its password; otherwise the password chosen here
          // waits on the link, and only the mailbox's owner can make it the login's.
          const keepsPassword = Boolean(existing?.passwordHash);
          const token = await issueToken(
            tx,
            { accountId, userId },
            'activation',
            activationTtlMs,
            keepsPassword ? null : passwordHash,
          );
          return { token, kind: keepsPassword ? ('activation_existing' as const) : ('activation' as const) };
        });
      let created: { token: string; kind: AuthMailKind };
      try {
        try {
          created = await create();
        } catch (error) {
          // Two sign-ups of one new address at once: the second joins the login the first made.
          if (!isUniqueViolation(error)) throw error;
          created = await create();
        }
      } finally {
        await attempt.forgive();
      }
      await sendMail({
        kind: created.kind,
        path: `auth/activation/${created.token}`,
        user: { email: input.email, completeName: input.completeName, systemLanguage: language },
        clinicName: input.clinicName,
      });
    },

    async activate(token: string): Promise<void> {
      await db.withSystem(async (tx) => {
        const found = await repository.findAuthToken(tx, hashToken(token), 'activation');
        if (!found) throw new AppError('invalid_token');
        if (found.user.activatedAt) throw new AppError('account_already_activated');
        if (found.token.usedAt || found.token.expiresAt.getTime() <= Date.now()) throw new AppError('token_expired');
        const now = new Date();
        await repository.markAuthTokenUsed(tx, found.token.accountId, found.token.id, now);
        await repository.activateUser(tx, found.user.accountId, found.user.id, now);
        // The link proves the mailbox: a sign-up's password becomes the login's, unless the
        // login already has one (never overwritten by a link someone else may have asked for).
        if (found.token.passwordHash) {
          const login = await repository.findLogin(tx, found.user.loginId);
          if (login && !login.passwordHash) {
            await repository.setLoginPassword(tx, login.id, found.token.passwordHash);
          }
        }
        await recordAuditEvent(tx, {
          accountId: found.user.accountId,
          userId: found.user.id,
          action: 'account_activated',
          entity: 'user',
          entityId: found.user.id,
        });
      });
    },

    /** Same answer whether or not the e-mail exists; sends only for a clinic signed up and not activated. */
    async resendActivation(email: string, context: ClientContext): Promise<void> {
      await throttle.attempt({ email, ip: context.ip });
      const pending = await db.withSystem(async (tx) => {
        const login = await repository.findLoginByEmail(tx, email);
        if (!login) return undefined;
        const memberships = await repository.findMemberships(tx, login.id);
        const waiting = memberships.filter((row) => !row.user.activatedAt && !row.account.activatedAt).at(-1);
        if (!waiting) return undefined;
        const keepsPassword = Boolean(login.passwordHash);
        const token = await issueToken(
          tx,
          { accountId: waiting.user.accountId, userId: waiting.user.id },
          'activation',
          activationTtlMs,
          keepsPassword ? null : ((await repository.pendingSignUpPassword(tx, login.id)) ?? null),
        );
        return { ...waiting, token, kind: keepsPassword ? ('activation_existing' as const) : ('activation' as const) };
      });
      if (!pending) return;
      await sendMail({
        kind: pending.kind,
        path: `auth/activation/${pending.token}`,
        user: pending.user,
        clinicName: pending.account.clinicName,
      });
    },

    /** E-mail and password open a session in the clinic last entered (or the oldest one). */
    async signIn(input: SignInRequest, context: ClientContext) {
      const found = await db.withSystem(async (tx) => {
        const login = await repository.findLoginByEmail(tx, input.email);
        if (!login) return undefined;
        const memberships = await repository.findMemberships(tx, login.id);
        // Not activated yet: the sign-up's password waits on its link (to answer account_not_activated).
        const pending = login.passwordHash ? undefined : await repository.pendingSignUpPassword(tx, login.id);
        return { login, memberships, pending };
      });
      const attempt = await throttle.attempt({
        email: input.email,
        ip: context.ip,
        user: found ? { loginId: found.login.id } : undefined,
      });
      const valid = await verifyPassword(found?.login.passwordHash ?? found?.pending ?? null, input.password);
      const home = found ? homeClinic(found.login, found.memberships) : undefined;
      if (!found || !valid) {
        const audited = home ?? found?.memberships[0];
        if (audited) {
          await db.withTenant(audited.account.id, (tx) =>
            recordAuditEvent(tx, {
              accountId: audited.account.id,
              userId: audited.user.id,
              action: 'sign_in_failed',
              entity: 'session',
              ip: context.ip,
            }),
          );
        }
        throw new AppError('invalid_credentials');
      }
      await attempt.forgive();
      if (!found.login.passwordHash) throw new AppError('account_not_activated');
      if (!home) {
        const waiting = found.memberships.some((row) => row.user.active && !row.account.activatedAt);
        throw new AppError(waiting ? 'account_not_activated' : 'user_inactive');
      }
      return db.withSystem((tx) =>
        enter(tx, {
          login: found.login,
          membership: home,
          memberships: found.memberships,
          remember: input.remember,
          context,
          action: 'sign_in',
        }),
      );
    },

    /**
     * Moves the session to another of the person's clinics (issue 19): a new session there with
     * the same remember choice and expiry, this one revoked; each clinic's trail records its side.
     * A clinic the person may not enter answers 404 clinic_not_found.
     */
    async switchClinic({ actor, sessionId, input }: { actor: Actor; sessionId: string; input: SwitchClinicRequest }) {
      return db.withSystem(async (tx) => {
        const current = await repository.findMembership(tx, actor.accountId, actor.userId);
        const session = await repository.findSession(tx, actor.accountId, sessionId);
        const login = current && (await repository.findLogin(tx, current.user.loginId));
        if (!current || !session || !login) throw new AppError('unauthorized');
        const memberships = await repository.findMemberships(tx, login.id);
        const target = memberships.find((row) => row.account.id === input.accountId && repository.canEnter(row));
        if (!target) throw new AppError('clinic_not_found');
        await repository.revokeSessionOf(tx, actor.accountId, sessionId);
        await recordAuditEvent(tx, {
          accountId: actor.accountId,
          userId: actor.userId,
          // The clinic left does not learn which one the person went to.
          action: 'clinic_switched_out',
          entity: 'session',
          ip: actor.ip,
        });
        const entered = await enter(tx, {
          login,
          membership: target,
          memberships,
          remember: session.remember,
          context: { ip: actor.ip, userAgent: session.userAgent ?? undefined },
          action: 'clinic_switched_in',
          until: session.expiresAt,
        });
        return { ...entered, remember: session.remember };
      });
    },

    async profile({ actor, locked }: { actor: Actor; locked: boolean }): Promise<Profile> {
      return readProfile(actor, locked);
    },

    /**
     * The user's own profile in this clinic; a new e-mail needs the current password and must be
     * free, and it changes the person's sign-in in every clinic (issue 19). Its own transactions:
     * the password check counts under the throttle and the e-mail is looked up across clinics.
     */
    async updateProfile({
      actor,
      locked,
      input,
    }: {
      actor: Actor;
      locked: boolean;
      input: UpdateProfileRequest;
    }): Promise<Profile> {
      const { currentPassword, email, ...change } = input;
      const current = await db.withTenant(actor.accountId, (tx) => repository.findUserWithAccount(tx, actor.userId));
      if (!current) throw new AppError('unauthorized');
      const emailChanges = email !== undefined && email !== current.user.email;
      if (emailChanges) {
        if (!currentPassword) {
          throw new AppError('validation_error', { fields: [{ path: 'currentPassword', code: 'required' }] });
        }
        if (!(await checkOwnPassword(actor, currentPassword, actor))) {
          throw new AppError('current_password_incorrect');
        }
      }
      const changed = emailChanges ? { ...change, email } : change;
      try {
        await db.withSystem(async (tx) => {
          if (!emailChanges) return;
          const taken = await repository.findLoginByEmail(tx, email);
          if (taken && taken.id !== current.user.loginId) throw new AppError('email_already_exists');
          await repository.setLoginEmail(tx, current.user.loginId, email);
          for (const other of await repository.findMemberships(tx, current.user.loginId)) {
            if (other.account.id === actor.accountId) continue;
            await recordAuditEvent(tx, {
              accountId: other.account.id,
              userId: other.user.id,
              action: 'profile_updated',
              entity: 'user',
              entityId: other.user.id,
              ip: actor.ip,
              before: { email: current.user.email },
              after: { email, elsewhere: true },
            });
          }
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('email_already_exists');
        throw error;
      }
      await db.withTenant(actor.accountId, async (tx) => {
        if (Object.keys(change).length > 0) await repository.updateProfile(tx, actor.userId, change);
        await audit(
          { ...actor, tx },
          {
            action: 'profile_updated',
            entity: 'user',
            entityId: actor.userId,
            before: Object.fromEntries(
              Object.keys(changed).map((key) => [key, current.user[key as keyof typeof changed]]),
            ),
            after: changed,
          },
        );
      });
      return readProfile(actor, locked);
    },

    /**
     * A new password with the current one (checked under the throttle first), for every clinic
     * of the person (issue 19); ends their other sessions everywhere.
     */
    async changePassword({
      actor,
      sessionId,
      input,
    }: {
      actor: Actor;
      sessionId: string;
      input: { currentPassword: string; password: string };
    }): Promise<void> {
      if (!(await checkOwnPassword(actor, input.currentPassword, actor))) {
        throw new AppError('current_password_incorrect');
      }
      refuseCommonPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      await db.withSystem(async (tx) => {
        const current = await repository.findMembership(tx, actor.accountId, actor.userId);
        if (!current) throw new AppError('unauthorized');
        await replacePassword(tx, {
          loginId: current.user.loginId,
          passwordHash,
          keepSessionId: sessionId,
          origin: { accountId: actor.accountId, userId: actor.userId, action: 'password_changed' },
          ip: actor.ip,
        });
      });
    },

    async signOut({ ctx, sessionId }: { ctx: RequestContext; sessionId: string }): Promise<void> {
      await repository.revokeSession(ctx.tx, sessionId);
    },

    async lock({ ctx, sessionId }: { ctx: RequestContext; sessionId: string }): Promise<void> {
      await repository.setSessionLock(ctx.tx, sessionId, new Date());
      await audit(ctx, { action: 'session_locked', entity: 'session' });
    },

    /** Its own transactions: the password check counts under the throttle, also when it fails. */
    async unlock({ actor, sessionId, password }: { actor: Actor; sessionId: string; password: string }): Promise<void> {
      const valid = await checkOwnPassword(actor, password, actor);
      await db.withTenant(actor.accountId, async (tx) => {
        if (valid) await repository.setSessionLock(tx, sessionId, null);
        await audit({ ...actor, tx }, { action: valid ? 'session_unlocked' : 'unlock_failed', entity: 'session' });
      });
      if (!valid) throw new AppError('invalid_credentials');
    },

    /** Same answer whether or not the e-mail exists. Every request counts against the limits. */
    async forgotPassword(email: string, context: ClientContext): Promise<void> {
      await throttle.attempt({ email, ip: context.ip });
      const pending = await db.withSystem(async (tx) => {
        const login = await repository.findLoginByEmail(tx, email);
        if (!login) return undefined;
        const memberships = await repository.findMemberships(tx, login.id);
        // The link names one clinic (its mail's and its audit's); the password is the person's.
        const target = homeClinic(login, memberships) ?? memberships.find((row) => row.user.active);
        if (!target) return undefined;
        const token = await issueToken(
          tx,
          { accountId: target.user.accountId, userId: target.user.id },
          'reset',
          resetTtlMs,
        );
        return { ...target, token };
      });
      if (!pending) return;
      await sendMail({
        kind: 'reset',
        path: `auth/reset_password/${pending.token}`,
        user: pending.user,
        clinicName: pending.account.clinicName,
      });
    },

    /** Whether a reset link can still be used (the page asks before showing the form). */
    async checkResetToken(token: string): Promise<void> {
      await db.withSystem(async (tx) => {
        const found = await repository.findAuthToken(tx, hashToken(token), passwordLinkPurposes);
        if (!found) throw new AppError('invalid_token');
        if (found.token.usedAt || found.token.expiresAt.getTime() <= Date.now()) throw new AppError('token_expired');
      });
    },

    /** Sets the new password (every clinic of the person), uses the link up and ends every session of the person. */
    async resetPassword(token: string, password: string, context: ClientContext): Promise<void> {
      refuseCommonPassword(password);
      const tokenHash = hashToken(token);
      const found = await db.withSystem((tx) => repository.findAuthToken(tx, tokenHash, passwordLinkPurposes));
      if (!found) throw new AppError('invalid_token');
      if (found.token.usedAt || found.token.expiresAt.getTime() <= Date.now()) throw new AppError('token_expired');
      const passwordHash = await hashPassword(password);
      const { accountId, id: userId } = found.user;
      await db.withSystem(async (tx) => {
        // Claim the link inside the transaction: two submissions at once, only one wins.
        if (!(await repository.claimAuthToken(tx, accountId, found.token.id))) throw new AppError('token_expired');
        // The link reached the mailbox: that proves the address like an activation does.
        if (!found.user.activatedAt) await repository.activateUser(tx, accountId, userId, new Date());
        await replacePassword(tx, {
          loginId: found.user.loginId,
          passwordHash,
          origin: {
            accountId,
            userId,
            action: found.token.purpose === 'invitation' ? 'invitation_accepted' : 'password_reset',
          },
          ip: context.ip,
        });
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
