import type { Currency, Language } from '@odontia/shared/enums';
import type { SignUpRequest } from '@odontia/shared/schemas/auth';
import { againIfRaced } from '../../db/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { hashToken } from '../../lib/tokens.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { defaultCertificateTemplates, defaultTemplates } from '../authorizations/template-texts.ts';
import { insertTemplates } from '../authorizations/templates.repository.ts';
import type { AuthMailKind } from './auth.mail.ts';
import * as repository from './auth.repository.ts';
import {
  type AuthServiceDeps,
  activationTtlMs,
  type ClientContext,
  day,
  refuseCommonPassword,
  trialDays,
} from './auth-common.ts';
import type { AuthSteps } from './auth-steps.ts';

/** Defaults of a new clinic by the language it signed up in (the spec leaves them open). */
const clinicDefaults: Record<Language, { currency: Currency; timeZone: string; dateFormat: string }> = {
  es: { currency: 'argentine_peso', timeZone: 'America/Argentina/Buenos_Aires', dateFormat: 'DD/MM/YYYY' },
  pt: { currency: 'brazilian_real', timeZone: 'America/Sao_Paulo', dateFormat: 'DD/MM/YYYY' },
  fr: { currency: 'euro', timeZone: 'Europe/Paris', dateFormat: 'DD/MM/YYYY' },
  en: { currency: 'us_dollar', timeZone: 'UTC', dateFormat: 'MM/DD/YYYY' },
};

/** The sign-up flow (issue 3): a new clinic and its administrator, the activation link and its resending. */
export function signUpFlow(deps: AuthServiceDeps, steps: AuthSteps) {
  const { db, throttle } = deps;
  const { issueToken, sendMail } = steps;

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
        // Two sign-ups of one new address at once: the second joins the login the first made.
        created = await againIfRaced(create);
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
  };
}
