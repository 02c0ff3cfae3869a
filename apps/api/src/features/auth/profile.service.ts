import type { Profile, UpdateProfileRequest } from '@odontia/shared/schemas/auth';
import type { Actor } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { audit, recordAuditEvent } from '../audit/audit.repository.ts';
import * as repository from './auth.repository.ts';
import { type AuthServiceDeps, refuseCommonPassword } from './auth-common.ts';
import type { AuthSteps } from './auth-steps.ts';

/** The signed-in user's own profile and password. */
export function profileFlow(deps: AuthServiceDeps, steps: AuthSteps) {
  const { db } = deps;
  const { checkOwnPassword, readProfile, replacePassword } = steps;

  return {
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
  };
}
