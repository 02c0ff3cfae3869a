import { AppError } from '../../lib/app-error.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { hashToken } from '../../lib/tokens.ts';
import * as repository from './auth.repository.ts';
import {
  type AuthServiceDeps,
  type ClientContext,
  passwordLinkPurposes,
  refuseCommonPassword,
  resetTtlMs,
} from './auth-common.ts';
import type { AuthSteps } from './auth-steps.ts';

/** The forgotten password (issue 3): the reset link, its check, the new password (also an invitation's first one). */
export function passwordResetFlow(deps: AuthServiceDeps, steps: AuthSteps) {
  const { db, throttle } = deps;
  const { issueToken, sendMail, homeClinic, replacePassword } = steps;

  return {
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
