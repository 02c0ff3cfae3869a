import type { Currency, Language } from '@odontia/shared/enums';
import { accountStateAt, graceEndsAt } from '@odontia/shared/schemas/account';
import type { Profile } from '@odontia/shared/schemas/auth';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Mailer } from '../../lib/mail.ts';
import type { ContractRules } from '../../plugins/auth.ts';
import * as repository from './auth.repository.ts';
import type { AuthThrottle } from './auth.throttle.ts';
import { isCommonPassword } from './password-policy.ts';

/**
 * What every auth flow (auth.service.ts) shares: the lifetimes of sessions and links, the
 * service's dependencies, where a public request comes from, the profile as answered.
 */

const hour = 60 * 60 * 1000;
export const day = 24 * hour;
export const trialDays = 30;
export const activationTtlMs = 24 * hour;
export const resetTtlMs = 60 * 60 * 1000;
export const rememberedSessionMs = 30 * day;
export const sessionMs = 12 * hour;
export const invitationTtlMs = 7 * day;
/** Links that set a password on the reset page: a reset, or an invitation to the clinic. */
export const passwordLinkPurposes: ('reset' | 'invitation')[] = ['reset', 'invitation'];

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
    // The clinics of this session's side only: a patient's portal never lists a staff membership.
    clinics: memberships
      .filter((membership) => repository.sideOf(membership) === repository.sideOf(row))
      .filter((membership) => repository.canEnter(membership) || membership.account.id === account.id)
      .map((membership) => ({
        id: membership.account.id,
        clinicName: membership.account.clinicName,
        level: membership.user.level,
      })),
  };
}
