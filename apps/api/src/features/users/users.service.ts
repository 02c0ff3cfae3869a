import type { Language, UserLevel } from '@odontia/shared/enums';
import type { Plan } from '@odontia/shared/schemas/account';
import type { ClinicUser } from '@odontia/shared/schemas/users';
import type { FastifyBaseLogger } from 'fastify';
import type { Actor, RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { againIfRaced, isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { requireStaffRoom } from '../account/plan-limits.ts';
import { audit, recordAuditEvent } from '../audit/audit.repository.ts';
import { changedFields } from '../audit/record-changes.ts';
import { authMail } from '../auth/auth.mail.ts';
import * as authRepository from '../auth/auth.repository.ts';
import { invitationTtlMs } from '../auth/auth-common.ts';
import * as repository from './users.repository.ts';

/**
 * Users of the clinic (administrators: `users.manage`). Invite by e-mail — the invitation link
 * opens the reset-password page, which sets the password and activates the user; a person who
 * already signs in at another clinic keeps their password (issue 19) — change the
 * level, deactivate and reactivate. A user cannot deactivate themself, and the last active
 * administrator can be neither demoted nor deactivated. Deactivation ends the user's sessions.
 */

export interface UsersServiceDeps {
  db: Database;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** The installation's plans: the clinic's plan may cap its active staff users (issue 19). */
  plans?: Plan[];
}

export function toClinicUser(row: repository.UserRow): ClinicUser {
  return {
    id: row.id,
    completeName: row.completeName,
    email: row.email,
    level: row.level,
    active: row.active,
    licenseNumber: row.licenseNumber,
    specialty: row.specialty,
    activatedAt: row.activatedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    version: row.version,
  };
}

export interface UserChange {
  level?: UserLevel | undefined;
  active?: boolean | undefined;
  licenseNumber?: string | null | undefined;
  specialty?: string | null | undefined;
  version: number;
}

export function createUsersService(deps: UsersServiceDeps) {
  const { db, mailer, publicUrl, plans = [] } = deps;

  return {
    async list({ ctx, query }: { ctx: RequestContext; query: repository.ListUsersQuery }) {
      const { rows, total } = await repository.listUsers(ctx, query);
      return { data: rows.map(toClinicUser), total, page: query.page, pageSize: query.pageSize };
    },

    /**
     * Invites a person by e-mail. The answer is the same whether or not the address already signs
     * in at another clinic (issue 19: it never tells): a new address gets a login and a link to
     * choose its password; a known one only a new membership, accepted by signing in with the
     * password it has. Only a member of THIS clinic answers 409 email_already_exists. One system
     * transaction (the login is looked up across clinics); the mail is sent after the commit.
     */
    async invite({
      actor,
      input,
    }: {
      actor: Actor;
      input: { completeName: string; email: string; level: UserLevel };
    }): Promise<ClinicUser> {
      const token = newToken();
      const create = () =>
        db.withSystem(async (tx) => {
          const inviter = await authRepository.findMembership(tx, actor.accountId, actor.userId);
          if (!inviter) throw new AppError('unauthorized');
          const existing = await authRepository.findLoginByEmail(tx, input.email);
          if (existing) {
            const memberships = await authRepository.findMemberships(tx, existing.id);
            if (memberships.some((row) => row.account.id === actor.accountId)) {
              throw new AppError('email_already_exists');
            }
          }
          await requireStaffRoom({ tx, accountId: actor.accountId }, plans);
          const loginId = existing?.id ?? newId();
          if (!existing) {
            await authRepository.insertLogin(tx, { id: loginId, email: input.email.toLowerCase(), passwordHash: null });
          }
          const user = await repository.insertMembership(tx, {
            accountId: actor.accountId,
            id: newId(),
            loginId,
            completeName: input.completeName,
            email: existing?.email ?? input.email.toLowerCase(),
            level: input.level,
            // A new user starts with the clinic's defaults (system settings); /profile changes them.
            systemLanguage: inviter.account.defaultLanguage,
            dateFormat: inviter.account.dateFormat,
            systemCurrency: inviter.account.systemCurrency,
          });
          const signsIn = Boolean(existing?.passwordHash);
          // The link of a new address sets its password; a sign-in that works needs none (the
          // first entry into the clinic accepts the invitation).
          if (!signsIn) {
            await authRepository.insertAuthToken(tx, {
              accountId: actor.accountId,
              id: newId(),
              userId: user.id,
              purpose: 'invitation',
              tokenHash: hashToken(token),
              expiresAt: new Date(Date.now() + invitationTtlMs),
            });
          }
          await recordAuditEvent(tx, {
            accountId: actor.accountId,
            userId: actor.userId,
            ip: actor.ip,
            action: 'user_invited',
            entity: 'user',
            entityId: user.id,
            after: { email: user.email, level: user.level },
          });
          return {
            user,
            clinicName: inviter.account.clinicName,
            language: user.systemLanguage as Language,
            signsIn,
          };
        });
      let created: Awaited<ReturnType<typeof create>>;
      try {
        // Two clinics inviting one new address at once: the second joins the login the first made.
        created = await againIfRaced(create);
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('email_already_exists');
        throw error;
      }
      try {
        await mailer.send(
          authMail({
            kind: created.signsIn ? 'invitation_existing' : 'invitation',
            language: created.language,
            to: created.user.email,
            name: created.user.completeName,
            clinicName: created.clinicName,
            link: created.signsIn ? `${publicUrl}auth/sign-in` : `${publicUrl}auth/reset_password/${token}`,
          }),
        );
      } catch (cause) {
        deps.log.error({ err: cause, to: created.user.email }, 'could not send the invitation');
        throw new AppError('error_sending_email', undefined, { cause });
      }
      return toClinicUser(created.user);
    },

    async update({ ctx, id, input }: { ctx: RequestContext; id: string; input: UserChange }): Promise<ClinicUser> {
      const administrators = await repository.lockActiveAdministrators(ctx);
      const user = await repository.findUserForUpdate(ctx, id);
      if (!user) throw new AppError('user_not_found');
      if (user.version !== input.version) throw new AppError('version_conflict');
      if (input.active === false && user.id === ctx.userId) throw new AppError('cannot_deactivate_self');
      // A patient's portal membership stays a customer (issue 37): its access is managed from the patient.
      if (user.level === 'customer' && input.level !== undefined) {
        throw new AppError('validation_error', { fields: [{ path: 'level', code: 'invalid_value' }] });
      }
      const level = input.level ?? user.level;
      const active = input.active ?? user.active;
      const losesAdministrator =
        user.level === 'administrator' && user.active && (level !== 'administrator' || !active);
      if (losesAdministrator && administrators.filter((adminId) => adminId !== user.id).length === 0) {
        throw new AppError('last_administrator');
      }
      // Back among the active staff (reactivated, or a customer made staff): the plan must have room.
      const isStaff = (row: { active: boolean; level: string }) => row.active && row.level !== 'customer';
      if (isStaff({ active, level }) && !isStaff(user)) await requireStaffRoom(ctx, plans);
      const licenseNumber = input.licenseNumber === undefined ? user.licenseNumber : input.licenseNumber;
      const specialty = input.specialty === undefined ? user.specialty : input.specialty;
      const updated = await repository.updateUser(ctx, id, { level, active, licenseNumber, specialty });
      if (!active && user.active) await authRepository.revokeUserSessions(ctx.tx, ctx.accountId, id);
      const events: string[] = [];
      if (level !== user.level) events.push('user_level_changed');
      if (active !== user.active) events.push(active ? 'user_reactivated' : 'user_deactivated');
      for (const action of events) {
        await audit(ctx, {
          action,
          entity: 'user',
          entityId: id,
          before: { level: user.level, active: user.active },
          after: { level, active },
        });
      }
      const professional = changedFields(
        { licenseNumber: user.licenseNumber, specialty: user.specialty },
        { licenseNumber, specialty },
      );
      if (Object.keys(professional.after).length > 0) {
        await audit(ctx, {
          action: 'user_professional_updated',
          entity: 'user',
          entityId: id,
          before: professional.before,
          after: professional.after,
        });
      }
      return toClinicUser(updated);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
