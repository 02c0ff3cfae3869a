import type { Language, UserLevel } from '@odontia/shared/enums';
import type { ClinicUser } from '@odontia/shared/schemas/users';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import type { Actor, RequestContext } from '../../plugins/routes.ts';
import { audit } from '../audit/audit.repository.ts';
import { changedFields } from '../audit/record-changes.ts';
import { authMail } from '../auth/auth.mail.ts';
import * as authRepository from '../auth/auth.repository.ts';
import { invitationTtlMs } from '../auth/auth.service.ts';
import * as repository from './users.repository.ts';

/**
 * Users of the clinic (administrators: `users.manage`). Invite by e-mail — the invitation link
 * opens the reset-password page, which sets the password and activates the user — change the
 * level, deactivate and reactivate. A user cannot deactivate themself, and the last active
 * administrator can be neither demoted nor deactivated. Deactivation ends the user's sessions.
 */

export interface UsersServiceDeps {
  db: Database;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}

export function toClinicUser(row: repository.UserRow): ClinicUser {
  return {
    id: row.id,
    completeName: row.completeName,
    email: row.email,
    level: row.level as UserLevel,
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
  const { db, mailer, publicUrl } = deps;

  return {
    async list({ ctx, query }: { ctx: RequestContext; query: repository.ListUsersQuery }) {
      const { rows, total } = await repository.listUsers(ctx, query);
      return { data: rows.map(toClinicUser), total, page: query.page, pageSize: query.pageSize };
    },

    /** Its own transactions: the e-mail is checked across clinics first, the mail sent after the commit. */
    async invite({
      actor,
      input,
    }: {
      actor: Actor;
      input: { completeName: string; email: string; level: UserLevel };
    }): Promise<ClinicUser> {
      if (await db.withSystem((tx) => authRepository.findUserByEmail(tx, input.email))) {
        throw new AppError('email_already_exists');
      }
      const token = newToken();
      let created: { user: repository.UserRow; clinicName: string; language: Language };
      try {
        created = await db.withTenant(actor.accountId, async (tx) => {
          const ctx = { ...actor, tx };
          const inviter = await authRepository.findUserWithAccount(tx, actor.userId);
          if (!inviter) throw new AppError('unauthorized');
          const user = await repository.insertUser(ctx, {
            accountId: actor.accountId,
            id: newId(),
            completeName: input.completeName,
            email: input.email,
            passwordHash: null,
            level: input.level,
            // A new user starts with the clinic's defaults (system settings); /profile changes them.
            systemLanguage: inviter.account.defaultLanguage,
            dateFormat: inviter.account.dateFormat,
            systemCurrency: inviter.account.systemCurrency,
          });
          await authRepository.insertAuthToken(tx, {
            accountId: actor.accountId,
            id: newId(),
            userId: user.id,
            purpose: 'invitation',
            tokenHash: hashToken(token),
            expiresAt: new Date(Date.now() + invitationTtlMs),
          });
          await audit(ctx, {
            action: 'user_invited',
            entity: 'user',
            entityId: user.id,
            after: { email: user.email, level: user.level },
          });
          return {
            user,
            clinicName: inviter.account.clinicName,
            language: user.systemLanguage as Language,
          };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('email_already_exists');
        throw error;
      }
      try {
        await mailer.send(
          authMail({
            kind: 'invitation',
            language: created.language,
            to: created.user.email,
            name: created.user.completeName,
            clinicName: created.clinicName,
            link: `${publicUrl}auth/reset_password/${token}`,
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
      const level = input.level ?? (user.level as UserLevel);
      const active = input.active ?? user.active;
      const losesAdministrator =
        user.level === 'administrator' && user.active && (level !== 'administrator' || !active);
      if (losesAdministrator && administrators.filter((adminId) => adminId !== user.id).length === 0) {
        throw new AppError('last_administrator');
      }
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
