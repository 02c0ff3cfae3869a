import type { Currency, Language, UserLevel } from '@odontia/shared/enums';
import { accountStateAt, graceEndsAt } from '@odontia/shared/schemas/account';
import type { Profile, SignInRequest, SignUpRequest, UpdateProfileRequest } from '@odontia/shared/schemas/auth';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { SystemTx, TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import type { ContractRules } from '../../plugins/auth.ts';
import type { Actor, RequestContext } from '../../plugins/routes.ts';
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
  row: { user: repository.UserRow; account: repository.AccountRow },
  locked: boolean,
  contract: ContractRules = { enforced: false, graceDays: 0 },
): Profile {
  const { user, account } = row;
  return {
    id: user.id,
    completeName: user.completeName,
    email: user.email,
    level: user.level as UserLevel,
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
    },
    settings: {
      systemLanguage: user.systemLanguage as Language,
      dateFormat: user.dateFormat,
      systemCurrency: user.systemCurrency as Currency,
      lockAfterMinutes: account.lockAfterMinutes,
    },
    locked,
  };
}

export function createAuthService(deps: AuthServiceDeps) {
  const { db, mailer, throttle, publicUrl } = deps;

  /**
   * Checks the password of a signed-in user under the throttle (issue 14): a stolen session
   * must not become a way to guess the password. Answers whether it is right.
   */
  async function checkOwnPassword(
    user: { accountId: string; id: string; email: string; passwordHash: string | null },
    password: string,
    context: ClientContext,
  ): Promise<boolean> {
    const attempt = await throttle.attempt({ email: user.email, ip: context.ip, user });
    const valid = await verifyPassword(user.passwordHash, password);
    if (valid) await attempt.forgive();
    return valid;
  }

  async function issueToken(
    tx: SystemTx | TenantTx,
    target: { accountId: string; userId: string },
    purpose: 'activation' | 'reset' | 'invitation',
    ttlMs: number,
  ): Promise<string> {
    const token = newToken();
    await repository.insertAuthToken(tx, {
      accountId: target.accountId,
      id: newId(),
      userId: target.userId,
      purpose,
      tokenHash: hashToken(token),
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
    tx: TenantTx,
    user: { accountId: string; id: string },
    remember: boolean,
    context: ClientContext,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = newToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + (remember ? rememberedSessionMs : sessionMs));
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

  return {
    /** A clinic on the trial plan and its administrator, not activated; sends the activation mail. */
    async signUp(input: SignUpRequest, context: ClientContext): Promise<void> {
      refuseCommonPassword(input.password);
      // Only a taken e-mail counts: it tells whether an address has an account.
      const attempt = await throttle.attempt({ email: input.email, ip: context.ip });
      const language = input.language ?? 'es';
      const defaults = clinicDefaults[language];
      const passwordHash = await hashPassword(input.password);
      const accountId = newId();
      const userId = newId();
      const user = {
        accountId,
        id: userId,
        completeName: input.completeName,
        email: input.email,
        passwordHash,
        level: 'administrator',
        systemLanguage: language,
        dateFormat: defaults.dateFormat,
        systemCurrency: defaults.currency,
      };
      let token: string;
      try {
        token = await db.withSystem(async (tx) => {
          if (await repository.findUserByEmail(tx, input.email)) throw new AppError('email_already_exists');
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
            user,
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
          return issueToken(tx, { accountId, userId }, 'activation', activationTtlMs);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('email_already_exists');
        if (!(error instanceof AppError && error.code === 'email_already_exists')) await attempt.forgive();
        throw error;
      }
      await attempt.forgive();
      await sendMail({ kind: 'activation', path: `auth/activation/${token}`, user, clinicName: input.clinicName });
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
        await recordAuditEvent(tx, {
          accountId: found.user.accountId,
          userId: found.user.id,
          action: 'account_activated',
          entity: 'user',
          entityId: found.user.id,
        });
      });
    },

    /** Same answer whether or not the e-mail exists; sends only to a user not yet activated. */
    async resendActivation(email: string, context: ClientContext): Promise<void> {
      await throttle.attempt({ email, ip: context.ip });
      const pending = await db.withSystem(async (tx) => {
        const found = await repository.findUserByEmail(tx, email);
        if (!found || found.user.activatedAt) return undefined;
        const token = await issueToken(
          tx,
          { accountId: found.user.accountId, userId: found.user.id },
          'activation',
          activationTtlMs,
        );
        return { ...found, token };
      });
      if (!pending) return;
      await sendMail({
        kind: 'activation',
        path: `auth/activation/${pending.token}`,
        user: pending.user,
        clinicName: pending.account.clinicName,
      });
    },

    async signIn(input: SignInRequest, context: ClientContext) {
      const found = await db.withSystem((tx) => repository.findUserByEmail(tx, input.email));
      const attempt = await throttle.attempt({ email: input.email, ip: context.ip, user: found?.user });
      const valid = await verifyPassword(found?.user.passwordHash ?? null, input.password);
      if (!found || !valid) {
        if (found) {
          await db.withTenant(found.user.accountId, (tx) =>
            recordAuditEvent(tx, {
              accountId: found.user.accountId,
              userId: found.user.id,
              action: 'sign_in_failed',
              entity: 'session',
              ip: context.ip,
            }),
          );
        }
        throw new AppError('invalid_credentials');
      }
      await attempt.forgive();
      if (!found.user.activatedAt) throw new AppError('account_not_activated');
      if (!found.user.active) throw new AppError('user_inactive');
      return db.withTenant(found.user.accountId, async (tx) => {
        const session = await createSession(tx, found.user, input.remember, context);
        await recordAuditEvent(tx, {
          accountId: found.user.accountId,
          userId: found.user.id,
          action: 'sign_in',
          entity: 'session',
          ip: context.ip,
          after: { remember: input.remember, expiresAt: session.expiresAt.toISOString() },
        });
        return {
          token: session.token,
          expiresAt: session.expiresAt.toISOString(),
          user: toProfile(found, false, deps.contract),
        };
      });
    },

    async profile({ ctx, locked }: { ctx: RequestContext; locked: boolean }): Promise<Profile> {
      const row = await repository.findUserWithAccount(ctx.tx, ctx.userId);
      if (!row) throw new AppError('unauthorized');
      return toProfile(row, locked, deps.contract);
    },

    /**
     * The user's own profile; a new e-mail needs the current password and must be free. Its own
     * transactions: the password check counts under the throttle and the e-mail is looked up
     * across clinics before the write.
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
      const { currentPassword, ...change } = input;
      const current = await db.withTenant(actor.accountId, (tx) => repository.findUserWithAccount(tx, actor.userId));
      if (!current) throw new AppError('unauthorized');
      const emailChanges = change.email !== undefined && change.email !== current.user.email;
      if (!emailChanges) delete change.email;
      if (emailChanges) {
        if (!currentPassword) {
          throw new AppError('validation_error', { fields: [{ path: 'currentPassword', code: 'required' }] });
        }
        if (!(await checkOwnPassword(current.user, currentPassword, actor))) {
          throw new AppError('current_password_incorrect');
        }
        const taken = await db.withSystem((tx) => repository.findUserByEmail(tx, change.email ?? ''));
        if (taken) throw new AppError('email_already_exists');
      }
      try {
        return await db.withTenant(actor.accountId, async (tx) => {
          await repository.updateProfile(tx, actor.userId, change);
          await audit(
            { ...actor, tx },
            {
              action: 'profile_updated',
              entity: 'user',
              entityId: actor.userId,
              before: Object.fromEntries(
                Object.keys(change).map((key) => [key, current.user[key as keyof typeof change]]),
              ),
              after: change,
            },
          );
          const row = await repository.findUserWithAccount(tx, actor.userId);
          if (!row) throw new AppError('unauthorized');
          return toProfile(row, locked, deps.contract);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('email_already_exists');
        throw error;
      }
    },

    /** A new password with the current one (checked under the throttle first); ends the user's other sessions. */
    async changePassword({
      actor,
      sessionId,
      input,
    }: {
      actor: Actor;
      sessionId: string;
      input: { currentPassword: string; password: string };
    }): Promise<void> {
      const current = await db.withTenant(actor.accountId, (tx) => repository.findUserWithAccount(tx, actor.userId));
      if (!current) throw new AppError('unauthorized');
      if (!(await checkOwnPassword(current.user, input.currentPassword, actor))) {
        throw new AppError('current_password_incorrect');
      }
      refuseCommonPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      await db.withTenant(actor.accountId, async (tx) => {
        await repository.setPassword(tx, actor.accountId, actor.userId, passwordHash);
        const ended = await repository.revokeUserSessions(tx, actor.accountId, actor.userId, sessionId);
        await audit(
          { ...actor, tx },
          { action: 'password_changed', entity: 'user', entityId: actor.userId, after: { sessionsEnded: ended } },
        );
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
      const row = await db.withTenant(actor.accountId, (tx) => repository.findUserWithAccount(tx, actor.userId));
      if (!row) throw new AppError('unauthorized');
      const valid = await checkOwnPassword(row.user, password, actor);
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
        const found = await repository.findUserByEmail(tx, email);
        if (!found?.user.active) return undefined;
        const token = await issueToken(
          tx,
          { accountId: found.user.accountId, userId: found.user.id },
          'reset',
          resetTtlMs,
        );
        return { ...found, token };
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

    /** Sets the new password, uses the link up and ends every session of the user. */
    async resetPassword(token: string, password: string, context: ClientContext): Promise<void> {
      refuseCommonPassword(password);
      const tokenHash = hashToken(token);
      const found = await db.withSystem((tx) => repository.findAuthToken(tx, tokenHash, passwordLinkPurposes));
      if (!found) throw new AppError('invalid_token');
      if (found.token.usedAt || found.token.expiresAt.getTime() <= Date.now()) throw new AppError('token_expired');
      const passwordHash = await hashPassword(password);
      const { accountId, id: userId } = found.user;
      await db.withTenant(accountId, async (tx) => {
        // Claim the link inside the transaction: two submissions at once, only one wins.
        if (!(await repository.claimAuthToken(tx, accountId, found.token.id))) throw new AppError('token_expired');
        await repository.setPassword(tx, accountId, userId, passwordHash);
        // The link reached the mailbox: that proves the address like an activation does.
        if (!found.user.activatedAt) await repository.activateUser(tx, accountId, userId, new Date());
        const ended = await repository.revokeUserSessions(tx, accountId, userId);
        await recordAuditEvent(tx, {
          accountId,
          userId,
          action: found.token.purpose === 'invitation' ? 'invitation_accepted' : 'password_reset',
          entity: 'user',
          entityId: userId,
          ip: context.ip,
          after: { sessionsEnded: ended },
        });
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
