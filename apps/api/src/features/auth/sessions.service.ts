import type { SignInRequest, SwitchClinicRequest } from '@odontia/shared/schemas/auth';
import type { Actor, RequestContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { audit, recordAuditEvent } from '../audit/audit.repository.ts';
import * as repository from './auth.repository.ts';
import type { AuthServiceDeps, ClientContext } from './auth-common.ts';
import type { AuthSteps } from './auth-steps.ts';

/** The session flow (issue 3): sign-in, switching clinic, sign-out, lock and unlock. */
export function sessionFlow(deps: AuthServiceDeps, steps: AuthSteps) {
  const { db, throttle } = deps;
  const { checkOwnPassword, homeClinic, enter } = steps;

  return {
    /**
     * E-mail and password open a session in the clinic last entered (or the oldest one) of `side`
     * (homeClinic): the portal's sign-in enters only the person's customer memberships, 403
     * portal_access_none when there is none to enter.
     */
    async signIn(input: SignInRequest, context: ClientContext, side?: repository.MembershipSide) {
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
      const home = found ? homeClinic(found.login, found.memberships, side) : undefined;
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
        if (side === 'portal') throw new AppError('portal_access_none');
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
     * A clinic the person may not enter answers 404 clinic_not_found, and so does one of the other
     * side (issue 37): a patient's portal session never becomes a staff session, nor the reverse.
     */
    async switchClinic({ actor, sessionId, input }: { actor: Actor; sessionId: string; input: SwitchClinicRequest }) {
      return db.withSystem(async (tx) => {
        const current = await repository.findMembership(tx, actor.accountId, actor.userId);
        const session = await repository.findSession(tx, actor.accountId, sessionId);
        const login = current && (await repository.findLogin(tx, current.user.loginId));
        if (!current || !session || !login) throw new AppError('unauthorized');
        const memberships = await repository.findMemberships(tx, login.id);
        const open = repository.enterableOn(repository.sideOf(current), memberships);
        const target = open.find((row) => row.account.id === input.accountId);
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
  };
}
